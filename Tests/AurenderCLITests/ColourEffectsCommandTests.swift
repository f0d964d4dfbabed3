import Foundation
import TestSupport
import Testing

/// `--distort`, `--delay` and `--reverb` through the built binary: what they do to the audio,
/// their place in the plan, their refusals, and the same effects from a graph file.
@Suite struct ColourEffectsCommandTests {
    /// An impulse at frame 0 and silence, one second at 44.1 kHz.
    static func impulse(to path: String) throws {
        try writeFloats([1] + [Float](repeating: 0, count: 44099), rate: 44100, to: path)
    }

    @Test func theDelayEchoesAnImpulseAndRingsOnAfterTheInput() throws {
        let folder = try TemporaryFolder()
        try Self.impulse(to: folder.file("in.wav"))
        let result = try aurender([folder.file("in.wav"), folder.file("out.wav"), "--bits", "float", "--delay", "100ms:50:40"])
        #expect(result.status == 0, "\(result.standardError)")
        let output = try samples(of: folder.file("out.wav")).samples
        #expect(abs(output[0] - 0.6) < 1e-7)
        for echo in 1...9 { #expect(abs(output[echo * 4410] - 0.4 * pow(0.5, Float(echo - 1))) < 1e-7, "echo \(echo)") }
        // 0.4 × 0.5^18 ≥ 1e-6 > 0.4 × 0.5^19: the tail ends on echo 19, past the input's second.
        #expect(output.count == 19 * 4410 + 1)
        let cut = try aurender([folder.file("in.wav"), folder.file("cut.wav"), "--delay", "100ms:50:40", "--tail", "0"])
        #expect(cut.status == 0, "\(cut.standardError)")
        #expect(try samples(of: folder.file("cut.wav")).samples.count == 44100)
    }

    @Test func aFadeOutEndsWithTheTailNotWithTheInput() throws {
        let folder = try TemporaryFolder()
        try writeFloats([Float](repeating: 0.5, count: 44100), rate: 44100, to: folder.file("in.wav"))
        let plain = try aurender([folder.file("in.wav"), folder.file("plain.wav"), "--bits", "float", "--delay", "100ms:50:40"])
        #expect(plain.status == 0, "\(plain.standardError)")
        let faded = try aurender([folder.file("in.wav"), folder.file("faded.wav"), "--bits", "float", "--delay", "100ms:50:40", "--fade-out", "0.5"])
        #expect(faded.status == 0, "\(faded.standardError)")
        let (whole, out) = (try samples(of: folder.file("plain.wav")).samples, try samples(of: folder.file("faded.wav")).samples)
        #expect(whole.count > 44100 + 10 * 4410, "the echoes ring on past the input")
        #expect(out.count == whole.count)
        let fade = 22050, fadeStart = whole.count - fade
        // Untouched up to the fade, the tail past the input's end included; then the ramp, to 0 on the last frame.
        #expect(Array(out[..<fadeStart]) == Array(whole[..<fadeStart]))
        #expect(out[44100..<fadeStart].contains { abs($0) > 1e-3 }, "the tail before the fade sounds")
        for frame in stride(from: fadeStart, to: whole.count, by: 997) {
            let gain = Float(whole.count - frame - 1) / Float(fade - 1)
            #expect(abs(out[frame] - whole[frame] * gain) <= 1e-6, "frame \(frame)")
        }
        #expect(out[whole.count - 1] == 0)
        let plan = try aurender([folder.file("in.wav"), folder.file("x.wav"), "--dry-run", "--delay", "100ms:50:40", "--fade-out", "0.5"])
        #expect(plan.output.contains("fade out over the last 22050 frames of the stream, its tail included"), "\(plan.output)")
    }

    @Test func thePlanShowsTheEffectsInTheirOrderAfterTheDynamics() throws {
        let folder = try TemporaryFolder()
        try Self.impulse(to: folder.file("in.wav"))
        let plan = try aurender([folder.file("in.wav"), folder.file("out.wav"), "--dry-run", "--reverb", "largehall:30", "--delay", "0.25:-30:20:4k",
                                 "--compress", "-20:4", "--distort", "-6:crush"])
        #expect(plan.status == 0, "\(plan.standardError)")
        let delay = try #require(plan.output.range(of: "--> delay (time 0.25 s, feedback -30 %, wet 20 %, low-pass 4000 Hz, tail up to 60 s (ends under -120 dBFS))"),
                                 "\(plan.output)")
        let distortion = try #require(plan.output.range(of: "--> distortion (drive -6 dB, bit crush to 8 bits, wet 100 %, 4x oversampled, "), "\(plan.output)")
        let compressor = try #require(plan.output.range(of: "--> compressor ("), "\(plan.output)")
        let reverb = try #require(plan.output.range(of: "--> reverb (preset 'large hall' (RT60 2.6 s), reverberance 50 %, damping 45 %, "
                                                    + "roomscale 100 %, stereodepth 100 %, predelay 0.03 s, wetgain 0 dB, wet 30 %, tail up to 60 s"), "\(plan.output)")
        #expect(compressor.lowerBound < distortion.lowerBound && distortion.lowerBound < delay.lowerBound && delay.lowerBound < reverb.lowerBound)
    }

    @Test func theReverbRingsOnAfterAStereoImpulseWithDecorrelatedTails() throws {
        let folder = try TemporaryFolder()
        try writeFloats([1, 1] + [Float](repeating: 0, count: 2 * 44099), channels: 2, rate: 44100, to: folder.file("in.wav"))
        let result = try aurender([folder.file("in.wav"), folder.file("out.wav"), "--bits", "float", "--reverb", "medium room:40"])
        #expect(result.status == 0, "\(result.standardError)")
        let output = try samples(of: folder.file("out.wav")).samples
        #expect(abs(output[0] - 0.6) < 1e-6 && abs(output[1] - 0.6) < 1e-6, "the dry impulse, on time")
        let frames = output.count / 2
        #expect(frames > 48000, "the room rings on past the input's second: \(frames) frames")
        #expect(max(abs(output[2 * frames - 2]), abs(output[2 * frames - 1])) >= 1e-6, "and ends on its last frame at -120 dBFS or above")
        let left = stride(from: 2 * 2205, to: 2 * 44100, by: 2).map { Double(output[$0]) }
        let right = stride(from: 2 * 2205 + 1, to: 2 * 44100, by: 2).map { Double(output[$0]) }
        let product: Double = zip(left, right).map { $0 * $1 }.reduce(0, +)
        let leftEnergy: Double = left.map { $0 * $0 }.reduce(0, +)
        let rightEnergy: Double = right.map { $0 * $0 }.reduce(0, +)
        let correlation = product / (leftEnergy * rightEnergy).squareRoot()
        #expect(abs(correlation) < 0.1, "correlation \(correlation)")
    }

    @Test func theDistortionClipsALoudToneAndKeepsTheLengthAndTiming() throws {
        let folder = try TemporaryFolder()
        let tone = Signal.sine(frequency: 441, sampleRate: 44100, frames: 44100, amplitude: 0.5)
        try writeFloats(tone, rate: 44100, to: folder.file("in.wav"))
        let result = try aurender([folder.file("in.wav"), folder.file("out.wav"), "--bits", "float", "--distort", "30:hard"])
        #expect(result.status == 0, "\(result.standardError)")
        let output = try samples(of: folder.file("out.wav")).samples
        #expect(output.count == 44100)
        // 0.5 driven by 30 dB is 15.8: a square of height 1 (its band-limited ringing aside), in phase with the input.
        let middle = output[22050..<22150]
        #expect(middle.map { abs($0) }.reduce(0, +) / 100 > 0.9)
        #expect(zip(middle, tone[22050..<22150]).filter { abs($0.1) > 0.2 }.allSatisfy { ($0.0 > 0) == ($0.1 > 0) })
    }

    @Test(arguments: [
        (["--delay", "3"], "--delay: the time must be from 0 to 2 s (250ms, 0.5s), not '3'"),
        (["--delay", "0.1:150"], "--delay: the feedback must be from -100 to 100 %, not '150'"),
        (["--delay", "0.1:50:101%"], "--delay: the wet must be from 0 to 100 %, not '101%'"),
        (["--delay", "0.1:50:50:30k"], "--delay: the low-pass must be from 10 Hz to half the rate (22050 Hz), not '30k'"),
        (["--delay", "0.1:1:2:3:4"], "--delay 0.1:1:2:3:4: write TIME[:FEEDBACK%[:WET%[:LOWPASS_HZ]]], as 0.3:40"),
        (["--tail", "1"], "--tail needs --plugin, --delay, --reverb or --convolve"),
        (["--reverb", "garage"], "--reverb: no preset 'garage' (there are small room, medium room, large room, medium hall, large hall, plate, "
            + "medium chamber, large chamber, cathedral, large room 2, medium hall 2, medium hall 3, large hall 2)"),
        (["--reverb", "plate:120"], "--reverb: the wet must be from 0 to 100 %, not '120'"),
        (["--distort", "60"], "--distort: the drive must be from -24 to 48 dB, not '60'"),
        (["--distort", "12:fuzz"], "--distort: the shape must be soft, hard, crushBITS or decimateN, not 'fuzz'"),
        (["--distort", "12:crush30"], "--distort: the bit depth must be a whole number from 1 to 24, not '30'"),
        (["--distort", "12:decimate0"], "--distort: the decimation must be a whole number from 1 to 64, not '0'"),
    ])
    func aBadValueIsOneLineNamingTheFlagAndItsRange(flags: [String], message: String) throws {
        let folder = try TemporaryFolder()
        try Self.impulse(to: folder.file("in.wav"))
        let result = try aurender([folder.file("in.wav"), folder.file("out.wav")] + flags)
        #expect(result.status == 64)
        let first = result.standardError.split(separator: "\n").first.map(String.init) ?? ""
        #expect(first.hasSuffix(message), "the error is its first line (the argument parser's usage may follow): \(result.standardError)")
        #expect(!FileManager.default.fileExists(atPath: folder.file("out.wav")))
    }

    @Test func aGraphFileTakesADelayNodeWithEvents() throws {
        let folder = try TemporaryFolder()
        try Self.impulse(to: folder.file("in.wav"))
        try Data("""
            {"nodes": [{"name": "in", "type": "file", "path": "in.wav"},
                       {"name": "echo", "type": "delay", "time": "10ms", "feedback": 0, "wet": 100, "tail": "1s"},
                       {"name": "drive", "type": "distortion", "drive": 0, "shape": "hard"},
                       {"name": "room", "type": "reverb", "preset": "small room", "wet": 0, "tail": 0},
                       {"name": "out", "type": "output", "path": "out.wav", "bits": "float"}],
             "connections": [{"from": "in", "to": "echo"}, {"from": "echo", "to": "drive"}, {"from": "drive", "to": "room"},
                             {"from": "room", "to": "out"}],
             "events": [{"at": "0.5s", "node": "echo", "parameter": "wet", "value": 0}]}
            """.utf8).write(to: URL(fileURLWithPath: folder.file("g.json")))
        let plan = try aurender([folder.file("g.json"), "--dry-run"])
        #expect(plan.output.contains("node    echo (time 0.01 s, feedback 0 %, wet 100 %, no low-pass, tail up to 1 s (ends under -120 dBFS))"), "\(plan.output)")
        let result = try aurender([folder.file("g.json")])
        #expect(result.status == 0, "\(result.standardError)")
        let output = try samples(of: folder.file("out.wav")).samples
        // The echo, 10 ms late, through the distortion's band-limited path and a fully dry room: on
        // time, its energy centred on frame 441 (the half-band IIR stages ring after an impulse, so
        // the centre, not the largest sample, is where the path's low-frequency delay puts it; a
        // frame late or early moves the centre by a whole frame), and all of it there.
        let echo = output[400..<500], sum = echo.reduce(0, +)
        let centre = zip(echo.indices, echo).map { Float($0) * $1 }.reduce(0, +) / sum
        #expect(abs(centre - 441) < 0.25, "centred on \(centre)")
        #expect(abs(sum - 1) < 0.01, "\(sum)")
        #expect(output[..<400].allSatisfy { $0 == 0 })
        #expect(plan.output.contains("node    room (preset 'small room' (RT60 0.5 s), "), "\(plan.output)")
        let bad = try aurender([folder.file("g.json"), "--delay", "0.1"])
        #expect(bad.status == 64)
        #expect(bad.standardError.contains("--delay does not apply to a graph file"), "\(bad.standardError)")
    }
}
