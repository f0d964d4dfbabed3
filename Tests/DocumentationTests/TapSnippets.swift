import Aurender
import Foundation
import Testing

/// The snippet of Taps.md.
@Suite struct TapSnippets {
    @Test func aPeakMeterSeesEachSecondOfTheMix() throws {
        let example = try ExampleGraph()
        let (graph, mixer) = (example.graph, example.mixer)
        // snippet: peak-meter
        let second = Int64(try mixer.requiredStreamFormat(scope: .output).sampleRate)
        var peaks: [Float] = []             // the peak of each second, in dBFS
        peaks.reserveCapacity(3600)         // an hour's worth: appending allocates nothing while rendering
        var peak: Float = 0
        try graph.installTap(on: mixer, bus: 0) { buffer, sampleTime in
            for frame in 0..<buffer.frameCount {
                let time = sampleTime + Int64(frame)
                if time > 0, time % second == 0 {
                    peaks.append(20 * log10(peak))
                    peak = 0
                }
                for channel in 0..<buffer.channelCount { peak = max(peak, abs(buffer[channel][frame])) }
            }
        }
        while case .rendered = try graph.renderSlice(frameCount: 4096) {}
        peaks.append(20 * log10(peak))      // the last second, whole or not
        try graph.removeTap(on: mixer)
        // snippet end

        let mix = try ExampleGraph().render()
        #expect(mix[0].count == 235_768)
        let expected = stride(from: 0, to: mix[0].count, by: 44100).map { start in
            let end = min(start + 44100, mix[0].count)
            let loudest = mix.map { channel in channel[start..<end].map(abs).max() ?? 0 }.max() ?? 0
            return 20 * log10(loudest)
        }
        #expect(peaks.count == 6, "5.35 s of mix: five whole seconds and a part")
        #expect(peaks == expected)
        #expect(peaks.prefix(5).allSatisfy { $0 < 0 && $0 > -10 }, "\(peaks)")
        #expect(peaks[5] == -.infinity, "the speech's last 0.35 s is digital silence")
    }
}
