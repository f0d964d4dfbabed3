import Foundation
import TestSupport
import Testing

/// `.flac` outputs from the built binary, encoded on every core by libFLAC: `flac` accepts them
/// and decodes the input back, to a file and down a pipe.
@Suite struct FLACOutputTests {
    /// Twelve seconds of 16-bit stereo noise over a tone, as a WAV, and its samples' bytes.
    static func writeSource(to path: String) throws -> [UInt8] {
        let frames = 12 * 44_100
        let noise = Signal.noise(frames: 2 * frames, amplitude: 0.1, seed: 5)
        let samples = (0..<2 * frames).map { index in
            Int16((0.5 * sin(2 * Double.pi * 330 * Double(index / 2) / 44_100) + Double(noise[index])) * 32_767)
        }
        let data = WaveFile.pcm16(samples)
        try WaveFile.write(WaveFile.bytes(channels: 2, sampleRate: 44_100, data: data), to: path)
        return data
    }

    /// `flac -d`'s raw samples of `path`.
    static func decoded(_ path: String) throws -> [UInt8] {
        try ReferenceDecoderTests.run("flac", ["-d", "-s", "-f", "--force-raw-format", "--endian=little", "--sign=signed", "-o", path + ".raw", path])
        return [UInt8](try Data(contentsOf: URL(fileURLWithPath: path + ".raw")))
    }

    @Test func aFLACOutputPassesFlacTestAndDecodesToTheInput() throws {
        let folder = try TemporaryFolder()
        let source = try Self.writeSource(to: folder.file("in.wav"))
        let result = try aurender([folder.file("in.wav"), folder.file("out.flac"), "--quiet"])
        #expect(result.status == 0, "\(result.standardError)")
        try ReferenceDecoderTests.run("flac", ["-t", "-s", "-w", folder.file("out.flac")])
        #expect(try Self.decoded(folder.file("out.flac")) == source)
    }

    /// Down a pipe, where libsndfile's FLAC used to end in 27 bytes `flac -t` lost sync on.
    @Test func aFLACOutputDownAPipeIsValid() throws {
        let folder = try TemporaryFolder()
        let source = try Self.writeSource(to: folder.file("in.wav"))
        let result = try aurender([folder.file("in.wav"), "-", "--type", "flac", "--quiet"])
        #expect(result.status == 0, "\(result.standardError)")
        try result.standardOutput.write(to: URL(fileURLWithPath: folder.file("piped.flac")))
        try ReferenceDecoderTests.run("flac", ["-t", "-s", folder.file("piped.flac")])
        #expect(try Self.decoded(folder.file("piped.flac")) == source)
    }
}
