import Foundation
import TestSupport
import Testing

/// Markers stay on their sound where the graph's nodes run late or ring on: a look-ahead limiter's
/// latency and a reverb's tail are hidden by the graph (its output keeps the input's timeline), so
/// the markers keep their frames, and a tail lengthens the output without moving any.
@Suite struct MarkerTimelineTests {
    typealias Files = BroadcastWaveFiles

    /// Four seconds of silence at 44.1 kHz with a click on each of the markers' frames.
    static func clicks(in folder: TemporaryFolder) throws -> String {
        var samples = [Int16](repeating: 0, count: 176_400)
        for marker in BroadcastWaveTests.markers { samples[Int(marker.frame)] = 20_000 }
        let path = folder.file("clicks.wav")
        try WaveFile.write(Files.wave(samples: samples, sampleRate: 44_100, before: Files.cue(BroadcastWaveTests.markers)), to: path)
        return path
    }

    @Test(arguments: [["--limit", "-1"], ["--reverb", "large hall:30"], ["--delay", "250ms:40:30", "--limit", "-1"]])
    func markersStayOnTheirClicksThroughLatencyAndTails(flags: [String]) throws {
        let folder = try TemporaryFolder()
        let input = try Self.clicks(in: folder)
        let output = folder.file("out.wav")
        let result = try aurender(flags + [input, output])
        #expect(result.status == 0)
        #expect(result.standardError == "")
        let rendered = try samples(of: output).samples
        let markers = Files.markers(in: try Files.chunks(of: output))
        #expect(markers == BroadcastWaveTests.markers, "no node moves a marker")
        for marker in markers {
            let onset = rendered[Int(marker.frame)...].firstIndex { abs($0) > 0.1 }
            #expect(onset == Int(marker.frame), "\(marker.label)'s click sounds on its frame, not at \(onset.map(String.init) ?? "none")")
        }
        if flags.first != "--limit" { #expect(rendered.count > 176_400, "the tail lengthens the output") }
    }
}
