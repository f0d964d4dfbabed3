import Aurender
import Foundation
import TestSupport
import Testing

/// The filters and dynamics through the built binary: what they do to the audio, their order,
/// their refusals, and the same effects from a graph file.
@Suite struct EffectsCommandTests {
    /// The level in dB of `frequency` in `samples` (a Goertzel over the steady middle), relative to full scale.
    static func level(of frequency: Double, in samples: ArraySlice<Float>, rate: Double) -> Double {
        let step = 2 * Double.pi * frequency / rate
        var real = 0.0, imaginary = 0.0
        for (index, sample) in samples.enumerated() {
            real += Double(sample) * cos(step * Double(index))
            imaginary += Double(sample) * sin(step * Double(index))
        }
        return 20 * log10(2 * (real * real + imaginary * imaginary).squareRoot() / Double(samples.count))
    }

    /// One second at 44.1 kHz of two sines, each at -20 dBFS: 50 Hz and 5 kHz.
    static func twoTones(to path: String) throws {
        let low = Signal.sine(frequency: 50, sampleRate: 44100, frames: 44100, amplitude: 0.1)
        let high = Signal.sine(frequency: 5000, sampleRate: 44100, frames: 44100, amplitude: 0.1)
        try writeFloats(zip(low, high).map { $0 + $1 }, rate: 44100, to: path)
    }

    @Test func theFilterFlagsShapeTheSpectrumAsTheirDesignsSay() throws {
        let folder = try TemporaryFolder()
        try Self.twoTones(to: folder.file("tones.wav"))
        let cases: [([String], [FilterNode.Band])] = [
            (["--highpass", "200"], [FilterNode.Band(.highpass, frequency: 200)]),
            (["--lowpass", "500:0.8"], [FilterNode.Band(.lowpass, frequency: 500, width: .q(0.8))]),
            (["--bass", "+6@50"], [FilterNode.Band(.lowshelf, frequency: 50, gain: 6)]),
            (["--treble", "-6"], [FilterNode.Band(.highshelf, frequency: 3000, gain: -6)]),
            (["--filter", "bandstop@50:2", "--filter", "peak@5k:-9:1"],
             [FilterNode.Band(.bandstop, frequency: 50, width: .q(2)), FilterNode.Band(.peak, frequency: 5000, gain: -9, width: .q(1))]),
        ]
        for (flags, bands) in cases {
            func response(_ frequency: Double) throws -> Double {
                try bands.map { try BiquadCoefficients.design($0.shape, frequency: $0.frequency, gain: $0.gain, width: $0.width, sampleRate: 44100)
                    .magnitude(at: frequency, sampleRate: 44100) }.reduce(0, +)
            }
            let (low, high) = (-20 + (try response(50)), -20 + (try response(5000)))
            let result = try aurender([folder.file("tones.wav"), folder.file("out.wav"), "--bits", "float"] + flags)
            #expect(result.status == 0, "\(result.standardError)")
            let output = try samples(of: folder.file("out.wav")).samples
            #expect(output.count == 44100)
            let measuredLow = Self.level(of: 50, in: output[22050..<44100], rate: 44100)
            let measuredHigh = Self.level(of: 5000, in: output[22050..<44100], rate: 44100)
            if low > -80 { #expect(abs(measuredLow - low) < 0.1, "\(flags): 50 Hz at \(measuredLow) dB, expected \(low)") } else {
                #expect(measuredLow < -60, "\(flags): 50 Hz at \(measuredLow) dB")
            }
            #expect(abs(measuredHigh - high) < 0.1, "\(flags): 5 kHz at \(measuredHigh) dB, expected \(high)")
        }
    }

    @Test func theLimiterHoldsTheTruePeakAndKeepsTheLengthAndTiming() throws {
        let folder = try TemporaryFolder()
        let loud: [Float] = (0..<88200).map { index in
            let sine = 1.8 * sin(Double.pi / 2 * Double(index) + Double.pi / 4)
            return Float(index / 22050 % 2 == 0 ? sine : 0.1 * sine)
        }
        try writeFloats(loud, rate: 44100, to: folder.file("loud.wav"))
        let result = try aurender([folder.file("loud.wav"), folder.file("out.wav"), "--limit", "-1dBTP"])
        #expect(result.status == 0, "\(result.standardError)")
        let info = try aurender(["info", "--loudness", "--json", folder.file("out.wav")])
        let file = try #require((try JSONSerialization.jsonObject(with: info.standardOutput) as? [[String: Any]])?.first)
        let loudness = try #require(file["loudness"] as? [String: Any])
        #expect(file["frames"] as? Int == 88200)
        #expect(try #require(loudness["truePeakDBTP"] as? Double) <= -1)
        #expect(try #require(loudness["reconstructedPeakDBTP"] as? Double) <= -0.95, "the 8× reconstruction reads it at the ceiling too")
        let output = try samples(of: folder.file("out.wav")).samples
        #expect(abs(output[43000] - loud[43000]) < 0.0001, "a quiet span long after the peaks is untouched, in its place")
    }

    @Test func normalizingThroughTheLimiterReachesTheTargetUnderTheCeiling() throws {
        let folder = try TemporaryFolder()
        let refused = try aurender([fixture("music.wav"), folder.file("out.wav"), "--normalize", "-8", "--true-peak", "-1"])
        #expect(refused.status == 3, "without a limiter the target is out of reach")
        let result = try aurender([fixture("music.wav"), folder.file("out.wav"), "--normalize", "-8", "--true-peak", "-1",
                                   "--over-ceiling", "limit", "--json"])
        #expect(result.status == 0, "\(result.standardError)")
        let info = try aurender(["info", "--loudness", "--json", folder.file("out.wav")])
        let file = try #require((try JSONSerialization.jsonObject(with: info.standardOutput) as? [[String: Any]])?.first)
        let loudness = try #require(file["loudness"] as? [String: Any])
        #expect(abs(try #require(loudness["integratedLUFS"] as? Double) - -8) <= 0.5)
        #expect(try #require(loudness["truePeakDBTP"] as? Double) <= -1)
        #expect(try #require(loudness["reconstructedPeakDBTP"] as? Double) <= -0.95)
        let report = try #require(try JSONSerialization.jsonObject(with: result.standardOutput) as? [String: Any])
        let normalization = try #require(report["normalization"] as? [String: Any])
        #expect(try #require(normalization["reconstructedPeakDBTP"] as? Double) <= -0.95, "the report gives the 8× figure after the gain")
        #expect(normalization["limited"] as? Bool == true)
        #expect(normalization["reachedTarget"] as? Bool == true)
        #expect(normalization["lowered"] as? Bool == false)
    }

    @Test func aTargetTheLimiterCannotReachIsSaid() throws {
        let folder = try TemporaryFolder()
        let spiky: [Float] = (0..<441000).map { index in
            let time = Double(index) / 44100
            let tones = 0.3 * sin(2 * Double.pi * 110 * time) + 0.2 * sin(2 * Double.pi * 1234 * time)
            return Float(index % 4410 < 300 ? 2.5 * tones : tones)
        }
        try writeFloats(spiky, rate: 44100, to: folder.file("spiky.wav"))
        let result = try aurender([folder.file("spiky.wav"), folder.file("out.wav"), "--normalize", "-6", "--true-peak", "-1", "--over-ceiling", "limit"])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardError.hasPrefix("aurender: \(folder.file("out.wav")): normalized short of the target through the limiter (measured "),
                "\(result.standardError)")
        #expect(result.standardError.hasSuffix("): more gain only makes it limit more at this ceiling\n"), "\(result.standardError)")
    }

    @Test func thePlanShowsTheEffectsInTheirOrderWhateverTheFlagsOrder() throws {
        let result = try aurender([fixture("music.wav"), "/tmp/never-written.wav", "--limit", "-1", "--compress", "-18:3", "--eq", "Rock",
                                   "--gate", "-60", "--gain", "-2", "--highpass", "80", "--dry-run"])
        #expect(result.status == 0, "\(result.standardError)")
        let order = ["--> filters (highpass 80 Hz q 0.707)", "--> eq (", "--> gain (", "--> gate (threshold -60 dB", "--> compressor (threshold -18 dB, ratio 3",
                     "--> limiter (ceiling -1 dB", "--> output"]
        let positions = order.map { result.output.range(of: $0)?.lowerBound }
        #expect(positions.allSatisfy { $0 != nil }, "\(result.output)")
        #expect(positions.compactMap { $0 } == positions.compactMap { $0 }.sorted(), "\(result.output)")
    }

    @Test(arguments: [
        (["--highpass", "80:0"], "Error: --highpass 80:0: the Q must be from 0.01 to 100, not 0"),
        (["--bass", "+50"], "Error: --bass +50: the gain must be from -40 to 40 dB, not +50"),
        (["--filter", "notch@50"], "Error: --filter notch@50: not TYPE@HZ[:GAIN][:WIDTH] with TYPE one of peak, lowpass, highpass, lowshelf, highshelf, bandpass, bandstop"),
        (["--compress", "-18:0.5"], "Error: --compress -18:0.5: the ratio must be from 1 to 100, not '0.5'"),
        (["--compress", "-18:3:fast"], "Error: --compress: the attack must be a time from 0 to 1 s (10ms, 0.1s), not 'fast'"),
        (["--gate", "-50:1ms:20ms:100ms:+10"], "Error: --gate: the range must be from -120 to 0 dB, not '+10'"),
        (["--limit", "+1"], "Error: The value '+1' is invalid for '--limit <dBTP>'"),
    ])
    func aBadValueIsOneLineNamingTheFlagAndRange(flags: [String], message: String) throws {
        let folder = try TemporaryFolder()
        let result = try aurender([fixture("music.wav"), folder.file("out.wav")] + flags)
        #expect(result.status == 64)
        #expect(result.standardError.split(separator: "\n").first.map(String.init) == message, "\(result.standardError)")
        #expect(folder.contents().isEmpty)
    }

    @Test func aGraphFileTakesTheSameEffectsAsNodesAndEventsMoveThem() throws {
        let folder = try TemporaryFolder()
        try Self.twoTones(to: folder.file("tones.wav"))
        let graph = """
            {"nodes": [
              {"name": "in", "type": "file", "path": "tones.wav"},
              {"name": "cut", "type": "filter", "bands": [{"type": "highpass", "frequency": 200}, {"type": "peak", "frequency": 5000, "gain": -9, "q": 1}]},
              {"name": "squash", "type": "compressor", "threshold": -40, "ratio": 2},
              {"name": "wall", "type": "limiter", "ceiling": -3},
              {"name": "out", "type": "output", "path": "out.wav", "bits": "float"}],
             "connections": [{"from": "in", "to": "cut"}, {"from": "cut", "to": "squash"}, {"from": "squash", "to": "wall"}, {"from": "wall", "to": "out"}],
             "events": [{"at": 0.5, "node": "cut", "parameter": "bypass[1]", "value": 1}]}
            """
        try Data(graph.utf8).write(to: URL(fileURLWithPath: folder.file("fx.json")))
        let plan = try aurender(["render", folder.file("fx.json"), "--dry-run"])
        #expect(plan.output.contains("cut (highpass 200 Hz q 0.707, peak 5000 Hz -9 dB q 1)"), "\(plan.output)")
        #expect(plan.output.contains("wall (ceiling -3 dB, release 0.05 s, lookahead 5.0 ms (compensated))"), "\(plan.output)")
        let result = try aurender(["render", folder.file("fx.json")])
        #expect(result.status == 0, "\(result.standardError)")
        let output = try samples(of: folder.file("out.wav")).samples
        #expect(output.count == 44100)
        let before = Self.level(of: 5000, in: output[11025..<22050], rate: 44100)
        let after = Self.level(of: 5000, in: output[33075..<44100], rate: 44100)
        #expect(after - before > 3, "the event bypassed the 5 kHz cut: \(before) dB, then \(after) dB")
        #expect(Self.level(of: 50, in: output[33075..<44100], rate: 44100) < -40)
        let refused = try aurender(["render", folder.file("fx.json"), "--limit", "-1"])
        #expect(refused.status == 64)
        #expect(refused.standardError.contains("--limit does not apply to a graph file"), "\(refused.standardError)")
        let bad = graph.replacingOccurrences(of: "\"ratio\": 2", with: "\"ratio\": 0")
        try Data(bad.utf8).write(to: URL(fileURLWithPath: folder.file("bad.json")))
        let badResult = try aurender(["render", folder.file("bad.json")])
        #expect(badResult.status == 64)
        #expect(badResult.standardError.contains("node 'squash' (compressor): field 'ratio': must be from 1 to 100, not 0"), "\(badResult.standardError)")
    }

    @Test func aMixEndsWithTheLimiterToo() throws {
        let folder = try TemporaryFolder()
        let loud = Signal.noise(frames: 44100, amplitude: 0.9)
        try writeFloats(loud, rate: 44100, to: folder.file("a.wav"))
        try writeFloats(loud, rate: 44100, to: folder.file("b.wav"))
        let result = try aurender(["mix", folder.file("a.wav"), folder.file("b.wav"), "-o", folder.file("mix.wav"), "--limit", "-2"])
        #expect(result.status == 0, "\(result.standardError)")
        let info = try aurender(["info", "--loudness", "--json", folder.file("mix.wav")])
        let file = try #require((try JSONSerialization.jsonObject(with: info.standardOutput) as? [[String: Any]])?.first)
        #expect(try #require((file["loudness"] as? [String: Any])?["truePeakDBTP"] as? Double) <= -2)
    }
}
