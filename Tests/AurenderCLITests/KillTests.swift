import Aurender
import Foundation
import SoundFile
import TestSupport
import Testing

/// Renders killed with SIGKILL at random moments leave only complete outputs, never a partial
/// one or a temporary file, and never touch a file that was already there.
@Suite struct KillTests {
    /// SplitMix64: the same seed gives the same kill moments on every run.
    struct SeededGenerator: RandomNumberGenerator {
        var state: UInt64

        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var mixed = state
            mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
            mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
            return mixed ^ (mixed >> 31)
        }
    }

    /// Writes `seconds` of stereo 44.1 kHz 16-bit noise through libsndfile (one second of noise, repeated).
    func writeNoise(seconds: Int, to path: String, generator: inout SeededGenerator) throws {
        let writer = try SoundFileWriter(fileDescriptor: open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644), path: path, type: .wav,
                                         encoding: .pcm16, sampleRate: 44100, channelCount: 2)
        let second = (0..<88200 / 4).flatMap { _ in
            let bits = generator.next()
            return (0..<4).map { Int16(truncatingIfNeeded: bits >> (16 * $0)) >> 2 }
        }
        for _ in 0..<seconds { try second.withUnsafeBufferPointer { try writer.write($0.baseAddress!, frames: 44100) } }
        try writer.finish()
    }

    /// The frames `path` decodes to, read to the end (a file shorter than its header says throws).
    func decodedFrames(_ path: String) throws -> Int {
        let decoder = try FormatRegistry.standard.openDecoder(path: path)
        var chunk = [Float](repeating: 0, count: 65536 * decoder.format.channelCount)
        var total = 0
        while true {
            let frames = try chunk.withUnsafeMutableBufferPointer { try decoder.read(into: $0.baseAddress!, frames: 65536) }
            if frames == 0 { return total }
            total += frames
        }
    }

    /// Starts `aurender` with `arguments`, kills it with SIGKILL after `delay` seconds, and
    /// returns whether the signal ended it (rather than the render finishing first).
    func killed(_ arguments: [String], after delay: Double) throws -> Bool {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: aurenderPath)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        usleep(UInt32(delay * 1_000_000))
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        return process.terminationReason == .uncaughtSignal
    }

    @Test func killedRendersLeaveOnlyCompleteOutputs() throws {
        var generator = SeededGenerator(state: 17)
        let inputs = try TemporaryFolder(), outputs = try TemporaryFolder()
        let seconds = ["long": 60, "mid": 15, "short": 3]
        for (name, length) in seconds { try writeNoise(seconds: length, to: inputs.file("\(name).wav"), generator: &generator) }
        // Already there: a bystander no render names, and an earlier output some renders replace.
        try FileManager.default.copyItem(atPath: fixture("music.wav"), toPath: outputs.file("keep.wav"))
        #expect(try aurender([inputs.file("short.wav"), outputs.file("previous.flac")]).status == 0)
        let keep = bytes(outputs.file("keep.wav")), previous = bytes(outputs.file("previous.flac"))
        let expectedFrames = ["single.flac": seconds["long"]! * 44100, "previous.flac": seconds["long"]! * 44100,
                              "long.flac": seconds["long"]! * 44100, "mid.flac": seconds["mid"]! * 44100, "short.flac": seconds["short"]! * 44100]

        // How long one whole render takes here sets the range of the kill moments, up to a
        // second: on a loaded machine the kills all land while rendering, and the test stays short.
        let started = Date()
        #expect(try aurender([inputs.file("long.wav"), outputs.file("single.flac")]).status == 0)
        let renderSeconds = Date().timeIntervalSince(started)
        #expect(try decodedFrames(outputs.file("single.flac")) == expectedFrames["single.flac"])
        try FileManager.default.removeItem(atPath: outputs.file("single.flac"))

        let batch = ["-j", "2", "-o", outputs.path, "--type", "flac", inputs.file("long.wav"), inputs.file("mid.wav"), inputs.file("short.wav")]
        let runs = (0..<24).map { [inputs.file("long.wav"), outputs.file($0 % 2 == 0 ? "single.flac" : "previous.flac")] }
            + Array(repeating: batch, count: 10)
        var killedMidway = 0
        for (index, arguments) in runs.enumerated() {
            let delay = Double.random(in: 0..<1.15, using: &generator) * min(renderSeconds, 1)
            if try killed(arguments, after: delay) { killedMidway += 1 }
            let left = outputs.contents()
            #expect(Set(left).isSubset(of: Set(expectedFrames.keys).union(["keep.wav"])),
                    "run \(index), killed after \(delay) s: only outputs, no temporary file: \(left)")
            #expect(bytes(outputs.file("keep.wav")) == keep, "run \(index): the bystander is untouched")
            for name in left where name != "keep.wav" && !(name == "previous.flac" && bytes(outputs.file(name)) == previous) {
                #expect(try decodedFrames(outputs.file(name)) == expectedFrames[name], "run \(index), killed after \(delay) s: \(name) is whole")
            }
            for name in left where name != "keep.wav" && name != "previous.flac" { try FileManager.default.removeItem(atPath: outputs.file(name)) }
            if bytes(outputs.file("previous.flac")) != previous { try previous!.write(to: URL(fileURLWithPath: outputs.file("previous.flac"))) }
        }
        #expect(runs.count >= 30)
        #expect(killedMidway >= runs.count / 2, "most kills land while rendering: \(killedMidway) of \(runs.count)")
    }
}
