import Foundation
import TestSupport
import Testing

/// `--binaural`, `--sofa` and `--speakers` for `render` and `mix`, and the `spatial` node in
/// graph files, through the built binary: what each ear and speaker receives, and the one-line
/// errors with no output left behind.
@Suite struct SpatialCommandTests {
    static let rate = 48_000

    static func channel(_ samples: [Float], _ index: Int, of count: Int) -> [Float] {
        stride(from: index, to: samples.count, by: count).map { samples[$0] }
    }

    static func power(_ samples: [Float]) -> Double { samples.reduce(0) { $0 + Double($1) * Double($1) } / Double(samples.count) }

    /// The sample lag of `right` behind `left` at their cross-correlation's peak within ±1.5 ms.
    static func lag(_ left: [Float], _ right: [Float]) -> Int {
        let most = 72
        var best = 0, bestValue = -Double.infinity
        for shift in -most...most {
            var sum = 0.0
            for n in most..<(left.count - most) { sum += Double(left[n]) * Double(right[n + shift]) }
            if sum > bestValue { bestValue = sum; best = shift }
        }
        return best
    }

    /// A second of mono noise, written as `name`.
    static func writeNoise(_ name: String, in folder: TemporaryFolder, seed: UInt64 = 1) throws -> [Float] {
        let noise = DirectConvolution.noise(Self.rate, seed: seed, amplitude: 0.25)
        try writeFloats(noise, rate: Self.rate, to: folder.file(name))
        return noise
    }

    @Test func aMixedSourceAtPlus90ReachesTheRightEarFirstAndLouder() throws {
        let folder = try TemporaryFolder()
        _ = try Self.writeNoise("a.wav", in: folder)
        let result = try aurender(["mix", folder.file("a.wav") + "@azimuth=90", "-o", folder.file("out.wav"), "--binaural", "--bits", "float"])
        #expect(result.status == 0, "\(result.standardError)")
        let (format, output) = try samples(of: folder.file("out.wav"))
        #expect(format.channels == 2 && output.count == 2 * Self.rate)
        let left = Self.channel(output, 0, of: 2), right = Self.channel(output, 1, of: 2)
        let lag = Self.lag(left, right)
        #expect(lag <= -24 && lag >= -38, "the right ear leads by \(-lag) samples")
        #expect(10 * log10(Self.power(right) / Self.power(left)) >= 6)
    }

    /// A 5.1 file's channels as virtual speakers: the left surround alone is heard on the left,
    /// the centre alone in both ears alike, and a second SOFA path (the same set by another name) is read.
    @Test func aSurroundFileRendersItsChannelsAsVirtualSpeakers() throws {
        let folder = try TemporaryFolder()
        let noise = DirectConvolution.noise(Self.rate, seed: 5, amplitude: 0.25)
        let silent = [Float](repeating: 0, count: Self.rate)
        for (name, index) in [("ls.wav", 4), ("c.wav", 2)] {
            var channels = Array(repeating: silent, count: 6)
            channels[index] = noise
            try writeFloats((0..<Self.rate).flatMap { frame in channels.map { $0[frame] } }, channels: 6, rate: Self.rate, to: folder.file(name))
        }
        try FileManager.default.copyItem(atPath: "/usr/share/libmysofa/MIT_KEMAR_normal_pinna.sofa", toPath: folder.file("kemar.sofa"))
        for (name, sofa) in [("ls.wav", nil), ("c.wav", folder.file("kemar.sofa"))] {
            let result = try aurender(["render", folder.file(name), folder.file("out-" + name), "--binaural", "--bits", "float"]
                                      + (sofa.map { ["--sofa", $0] } ?? []))
            #expect(result.status == 0, "\(result.standardError)")
            let output = try samples(of: folder.file("out-" + name)).samples
            let difference = 10 * log10(Self.power(Self.channel(output, 0, of: 2)) / Self.power(Self.channel(output, 1, of: 2)))
            if name == "ls.wav" {
                #expect(difference >= 6, "the left ear is \(difference) dB louder")
            } else {
                #expect(abs(difference) <= 1, "the ears differ by \(difference) dB")
            }
        }
    }

    /// With `--speakers 5.1` a mixed source at a speaker's angle feeds only that speaker.
    @Test func speakersFeedOnlyTheSpeakerAtTheSourcesAngle() throws {
        let folder = try TemporaryFolder()
        let noise = try Self.writeNoise("a.wav", in: folder)
        let result = try aurender(["mix", folder.file("a.wav") + "@azimuth=-110", "-o", folder.file("out.wav"), "--speakers", "5.1", "--bits", "float"])
        #expect(result.status == 0, "\(result.standardError)")
        let (format, output) = try samples(of: folder.file("out.wav"))
        #expect(format.channels == 6)
        for speaker in 0..<6 {
            let signal = Self.channel(output, speaker, of: 6)
            if speaker == 4 {
                #expect(zip(signal, noise).allSatisfy { abs($0 - $1) < 1e-6 })
            } else {
                #expect(signal.allSatisfy { $0 == 0 }, "speaker \(speaker)")
            }
        }
    }

    /// `start=` places an input later in a spatial mix: the mix lasts until it ends.
    @Test func aSpatialMixInputStartsLater() throws {
        let folder = try TemporaryFolder()
        let noise = try Self.writeNoise("a.wav", in: folder)
        let result = try aurender(["mix", folder.file("a.wav") + "@azimuth=-30", folder.file("a.wav") + "@azimuth=-30,start=0.5s,mute",
                                   "-o", folder.file("out.wav"), "--speakers", "stereo", "--bits", "float"])
        #expect(result.status == 0, "\(result.standardError)")
        let output = try samples(of: folder.file("out.wav")).samples
        #expect(output.count == 2 * (Self.rate + Self.rate / 2))
        let left = Self.channel(output, 0, of: 2)
        #expect(zip(left.prefix(Self.rate), noise).allSatisfy { abs($0 - $1) < 1e-6 })
        #expect(left.suffix(Self.rate / 2).allSatisfy { $0 == 0 })
    }

    @Test func dryRunShowsThePositionsAndTheHRTFSet() throws {
        let folder = try TemporaryFolder()
        _ = try Self.writeNoise("a.wav", in: folder)
        let result = try aurender(["mix", folder.file("a.wav") + "@azimuth=30,elevation=10,distance=2", folder.file("a.wav") + "@azimuth=-110",
                                   "-o", folder.file("out.wav"), "--binaural", "--dry-run"])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.output.contains("binaural through MIT_KEMAR_normal_pinna.sofa"))
        #expect(result.output.contains("bus 0: azimuth 30°, elevation 10°, distance 2 m (-6.02 dB)"))
        #expect(result.output.contains("bus 1: azimuth -110°"))
        #expect(!FileManager.default.fileExists(atPath: folder.file("out.wav")))
    }

    /// A graph file's `spatial` node, moved by events, renders the same bytes in any slice size.
    @Test func aGraphFilesMovingSourceRendersTheSameForAnySliceSize() throws {
        let folder = try TemporaryFolder()
        _ = try Self.writeNoise("a.wav", in: folder)
        var outputs: [Data] = []
        for slice in [4096, 333] {
            let graph = """
                {"nodes": [{"name": "a", "type": "file", "path": "a.wav"},
                           {"name": "room", "type": "spatial", "rendering": "binaural", "buses": [{"azimuth": -90, "distance": 2}]},
                           {"name": "out", "type": "output", "path": "out-\(slice).wav"}],
                 "connections": [{"from": "a", "to": "room"}, {"from": "room", "to": "out"}],
                 "events": [{"at": "0.25s", "node": "room", "parameter": "azimuth[0]", "value": 0},
                            {"at": "0.5s", "node": "room", "parameter": "azimuth[0]", "value": 90},
                            {"at": "0.6s", "node": "room", "parameter": "yaw", "value": 45}]}
                """
            try graph.write(toFile: folder.file("g\(slice).json"), atomically: true, encoding: .utf8)
            let result = try aurender([folder.file("g\(slice).json"), "--frames-per-slice", String(slice)])
            #expect(result.status == 0, "\(result.standardError)")
            outputs.append(try Data(contentsOf: URL(fileURLWithPath: folder.file("out-\(slice).wav"))))
        }
        #expect(outputs[0].count > 44 + 4 * Self.rate)
        #expect(outputs[1] == outputs[0])
    }

    @Test(arguments: [
        (["render", "IN", "OUT", "--binaural", "--speakers", "5.1"], "--binaural and --speakers 5.1 exclude each other"),
        (["render", "IN", "OUT", "--sofa", "/nonexistent.sofa"], "--sofa /nonexistent.sofa applies to --binaural"),
        (["render", "IN", "OUT", "--binaural", "--sofa", "/nonexistent.sofa"], "aurender: the SOFA file /nonexistent.sofa cannot be opened"),
        (["render", "IN", "OUT", "--binaural", "--sofa", "IN"], "is not a SOFA file libmysofa reads"),
        (["render", "IN", "OUT", "--speakers", "6.1"], "--speakers 6.1: the layout must be stereo, quad, 5.0, 5.1 or 7.1"),
        (["mix", "IN@azimuth=200", "-o", "OUT", "--binaural"], "azimuth must be from -180 to 180 degrees, not '200'"),
        (["mix", "IN@elevation=-91", "-o", "OUT", "--binaural"], "elevation must be from -90 to 90 degrees, not '-91'"),
        (["mix", "IN@azimuth=20", "-o", "OUT"], "azimuth=, elevation= and distance= need --binaural or --speakers LAYOUT"),
        (["render", "THREE", "OUT", "--binaural"], "3 channels have no standard speaker layout to place"),
    ])
    func badSpatialInputGetsOneLineAndNoOutput(arguments: [String], message: String) throws {
        let folder = try TemporaryFolder()
        _ = try Self.writeNoise("in.wav", in: folder)
        try writeFloats([Float](repeating: 0.1, count: 300), channels: 3, rate: Self.rate, to: folder.file("three.wav"))
        let resolved = arguments.map {
            $0.replacingOccurrences(of: "IN", with: folder.file("in.wav")).replacingOccurrences(of: "OUT", with: folder.file("out.wav"))
                .replacingOccurrences(of: "THREE", with: folder.file("three.wav"))
        }
        let result = try aurender(resolved)
        #expect(result.status == 64, "\(result.standardError)")
        #expect(result.standardError.contains(message), "\(result.standardError)")
        #expect(!FileManager.default.fileExists(atPath: folder.file("out.wav")))
    }
}
