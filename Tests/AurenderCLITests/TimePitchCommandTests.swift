import Foundation
import TestSupport
import Testing

/// `--tempo`, `--pitch` and `--speed`, and the `timepitch` node in graph files, through the built binary.
@Suite struct TimePitchCommandTests {
    /// Two seconds and a few frames of a 440 Hz tone, mono, 44.1 kHz, float.
    static let frames = 88_207

    func writeTone(to path: String, channels: Int = 1) throws {
        let tone = Signal.sine(frequency: 440, sampleRate: 44100, frames: Self.frames, amplitude: 0.5)
        try writeFloats(tone.flatMap { Array(repeating: $0, count: channels) }, channels: channels, rate: 44100, to: path)
    }

    /// The frequency of the middle half of the first channel, from its interpolated upward zero crossings.
    func frequency(of samples: [Float], channels: Int = 1) -> Double {
        let channel = stride(from: 0, to: samples.count, by: channels).map { samples[$0] }
        let middle = channel[channel.count / 4..<channel.count * 3 / 4]
        var crossings: [Double] = []
        for index in middle.indices.dropLast() where middle[index] < 0 && middle[index + 1] >= 0 {
            let (a, b) = (Double(middle[index]), Double(middle[index + 1]))
            crossings.append(Double(index) + a / (a - b))
        }
        guard crossings.count > 1 else { return 0 }
        return Double(crossings.count - 1) * 44100 / (crossings.last! - crossings.first!)
    }

    @Test func tempoShortensAndKeepsThePitch() throws {
        let folder = try TemporaryFolder()
        try writeTone(to: folder.file("in.wav"), channels: 2)
        let result = try aurender(["--tempo", "1.25", folder.file("in.wav"), folder.file("out.wav")])
        #expect(result.status == 0, "\(result.standardError)")
        let output = try samples(of: folder.file("out.wav"))
        #expect(output.format.channels == 2)
        #expect(output.samples.count / 2 == Int((Double(Self.frames) / 1.25).rounded()))
        let hertz = frequency(of: output.samples, channels: 2)
        #expect(abs(hertz - 440) <= 1, "\(hertz) Hz")
    }

    @Test func pitchMovesTheToneAndKeepsTheLength() throws {
        let folder = try TemporaryFolder()
        try writeTone(to: folder.file("in.wav"))
        let result = try aurender(["--pitch", "12", folder.file("in.wav"), folder.file("out.wav")])
        #expect(result.status == 0, "\(result.standardError)")
        let output = try samples(of: folder.file("out.wav")).samples
        #expect(output.count == Self.frames)
        #expect(abs(frequency(of: output) - 880) <= 2, "\(frequency(of: output)) Hz")
    }

    /// Speed combines with tempo: 1.25 × 0.8 keeps the length, and the pitch rises by the speed.
    @Test func speedCombinesWithTempo() throws {
        let folder = try TemporaryFolder()
        try writeTone(to: folder.file("in.wav"))
        let alone = try aurender(["--speed", "1.25", folder.file("in.wav"), folder.file("fast.wav")])
        #expect(alone.status == 0, "\(alone.standardError)")
        let fast = try samples(of: folder.file("fast.wav")).samples
        #expect(fast.count == Int((Double(Self.frames) / 1.25).rounded()))
        #expect(abs(frequency(of: fast) - 550) <= 1, "\(frequency(of: fast)) Hz")
        let both = try aurender(["--speed", "1.25", "--tempo", "0.8", folder.file("in.wav"), folder.file("both.wav")])
        #expect(both.status == 0, "\(both.standardError)")
        let combined = try samples(of: folder.file("both.wav")).samples
        #expect(combined.count == Self.frames)
        #expect(abs(frequency(of: combined) - 550) <= 1, "\(frequency(of: combined)) Hz")
    }

    @Test(arguments: [
        (["--tempo", "5"], "Error: --tempo must be from 0.25 to 4, not 5"),
        (["--pitch", "-30"], "Error: --pitch must be from -24 to 24 semitones, not -30"),
        (["--speed", "0.1"], "Error: --speed must be from 0.25 to 4, not 0.1"),
        (["--tempo", "fast"], "Error: The value 'fast' is invalid for '--tempo <ratio>'"),
    ])
    func aBadValueIsRefusedNamingTheFlagAndItsRange(arguments: [String], line: String) throws {
        let folder = try TemporaryFolder()
        try writeTone(to: folder.file("in.wav"))
        let result = try aurender(arguments + [folder.file("in.wav"), folder.file("out.wav")])
        #expect(result.status == 64)
        #expect(result.standardError.split(separator: "\n").first.map(String.init) == line, "\(result.standardError)")
        #expect(!FileManager.default.fileExists(atPath: folder.file("out.wav")))
    }

    @Test func thePlanShowsTheNode() throws {
        let folder = try TemporaryFolder()
        try writeTone(to: folder.file("in.wav"))
        let plan = try aurender(["--tempo", "1.25", "--pitch", "-3", "--dry-run", folder.file("in.wav"), folder.file("out.wav")])
        #expect(plan.status == 0, "\(plan.standardError)")
        #expect(plan.output.contains("--> timepitch (tempo 1.25, pitch -3 st, stretched by SoundTouch "), "\(plan.output)")
        #expect(plan.output.contains("resampled from 37084 Hz by soxr best)"), "44100 × 2^(-3/12), to the nearest Hz: \(plan.output)")
        #expect(!FileManager.default.fileExists(atPath: folder.file("out.wav")))
    }

    /// The render's expected length folds through the node, so a fade-out ends on the new last frame.
    @Test func aFadeOutLandsAtTheNewEnd() throws {
        let folder = try TemporaryFolder()
        try writeFloats([Float](repeating: 0.5, count: 88_200), rate: 44100, to: folder.file("flat.wav"))
        let result = try aurender(["--tempo", "2", "--fade-out", "0.5s", folder.file("flat.wav"), folder.file("out.wav")])
        #expect(result.status == 0, "\(result.standardError)")
        let output = try samples(of: folder.file("out.wav")).samples
        #expect(output.count == 44100)
        #expect(abs(output[44100 - 22050 - 200] - 0.5) < 0.01, "full level before the fade starts")
        #expect(abs(output[44100 - 11025]) < 0.4, "halfway down")
        #expect(abs(output[44099]) < 0.01, "silent at the last frame")
    }

    @Test func theSameRenderGivesTheSameBytes() throws {
        let folder = try TemporaryFolder()
        try writeFloats(Signal.noise(frames: 60_000, seed: 3), rate: 44100, to: folder.file("noise.wav"))
        for name in ["a", "b"] {
            #expect(try aurender(["--tempo", "0.9", "--pitch", "2", folder.file("noise.wav"), folder.file("\(name).wav")]).status == 0)
        }
        #expect(bytes(folder.file("a.wav")) != nil)
        #expect(bytes(folder.file("a.wav")) == bytes(folder.file("b.wav")))
        #expect(try aurender(["--tempo", "0.9", "--pitch", "2", "--frames-per-slice", "97", folder.file("noise.wav"),
                              folder.file("c.wav")]).status == 0)
        #expect(bytes(folder.file("a.wav")) == bytes(folder.file("c.wav")), "whatever the slice size")
    }

    @Test func aBatchRendersEveryFileWithTheFlags() throws {
        let folder = try TemporaryFolder()
        try FileManager.default.createDirectory(atPath: folder.file("in"), withIntermediateDirectories: true)
        try writeTone(to: folder.file("in/a.wav"))
        try writeTone(to: folder.file("in/b.wav"))
        let result = try aurender(["--tempo", "1.25", "-o", folder.file("out"), folder.file("in/a.wav"), folder.file("in/b.wav")])
        #expect(result.status == 0, "\(result.standardError)")
        for name in ["a", "b"] {
            let output = try samples(of: folder.file("out/\(name).wav")).samples
            #expect(output.count == Int((Double(Self.frames) / 1.25).rounded()), "\(name)")
        }
    }

    @Test func aGraphFileWithATimepitchNodeRenders() throws {
        let folder = try TemporaryFolder()
        try writeTone(to: folder.file("tone.wav"))
        try Data("""
            {"nodes": [{"name": "in", "type": "file", "path": "tone.wav"},
                       {"name": "slower", "type": "timepitch", "tempo": 0.8, "pitch": 12},
                       {"name": "out", "type": "output", "path": "out.wav", "bits": "float"}],
             "connections": [{"from": "in", "to": "slower"}, {"from": "slower", "to": "out"}],
             "events": [{"at": 1.5, "node": "slower", "parameter": "tempo", "value": 1}]}
            """.utf8).write(to: URL(fileURLWithPath: folder.file("g.json")))
        let plan = try aurender([folder.file("g.json"), "--dry-run"])
        #expect(plan.status == 0, "\(plan.standardError)")
        #expect(plan.output.contains("node    slower (tempo 0.8, pitch +12 st, stretched by SoundTouch "), "\(plan.output)")
        #expect(plan.output.contains("event   frame 66150 (1.5 s): slower tempo = 1"), "\(plan.output)")
        let result = try aurender([folder.file("g.json")])
        #expect(result.status == 0, "\(result.standardError)")
        let output = try samples(of: folder.file("out.wav")).samples
        let expected = 66150 + (Double(Self.frames) - 66150 * 0.8)
        #expect(abs(Double(output.count) - expected) < 2205, "1.5 s at tempo 0.8, the rest at 1: \(output.count) frames, about \(expected)")
        let first = output[4410..<60000], last = output[72000..<output.count - 4410]
        for part in [first, last] {
            let hertz = frequency(of: Array(part))
            #expect(abs(hertz - 880) <= 2, "an octave up on both sides of the change: \(hertz) Hz")
        }

        let fixed = try aurender([folder.file("g.json"), "--tempo", "2"])
        #expect(fixed.status == 64)
        #expect(fixed.standardError.contains("--tempo does not apply to a graph file"), "\(fixed.standardError)")
    }

    @Test func aGraphEventCannotChangeThePitch() throws {
        let folder = try TemporaryFolder()
        try writeTone(to: folder.file("tone.wav"))
        try Data("""
            {"nodes": [{"name": "in", "type": "file", "path": "tone.wav"},
                       {"name": "tp", "type": "timepitch", "pitch": 3},
                       {"name": "out", "type": "output", "path": "out.wav"}],
             "connections": [{"from": "in", "to": "tp"}, {"from": "tp", "to": "out"}],
             "events": [{"at": 1, "node": "tp", "parameter": "pitch", "value": 5}]}
            """.utf8).write(to: URL(fileURLWithPath: folder.file("g.json")))
        let result = try aurender([folder.file("g.json")])
        #expect(result.status == 64, "\(result.standardError)")
        #expect(result.standardError.contains("parameter 'pitch' of node 'tp' is fixed while rendering"), "\(result.standardError)")
        #expect(!FileManager.default.fileExists(atPath: folder.file("out.wav")))
    }
}
