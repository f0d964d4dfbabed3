import Foundation
import SoundFile
import TestSupport
import Testing

/// Dither only where it does something: samples a 16-bit file holds exactly are written as they
/// are, digital silence stays exact zeros, and everything else is dithered as before.
@Suite struct DitherPolicyTests {
    /// A second of silence, then a second of a 440 Hz tone at half scale, at 44.1 kHz.
    static let silenceThenTone = [Float](repeating: 0, count: 44_100)
        + Signal.sine(frequency: 440, sampleRate: 44_100, frames: 44_100)

    /// Writes mono `samples` through libsndfile in `type` and `encoding`.
    static func write(_ samples: [Float], rate: Int, type: SoundFileType, encoding: SoundFileEncoding, to path: String) throws {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        let writer = try SoundFileWriter(fileDescriptor: descriptor, path: path, type: type, encoding: encoding,
                                         sampleRate: rate, channelCount: 1)
        try samples.withUnsafeBufferPointer { try writer.write($0.baseAddress!, frames: samples.count) }
        try writer.finish()
    }

    /// Every sample of `path` as libsndfile decodes it to 16 bits (`sf_readf_short`).
    static func shorts(_ path: String) throws -> [Int16] {
        let reader = try SoundFileReader(path: path)
        var result: [Int16] = []
        var chunk = [Int16](repeating: 0, count: 4096 * reader.format.channelCount)
        while true {
            let frames = try chunk.withUnsafeMutableBufferPointer { try reader.read(into: $0.baseAddress!, frames: 4096) }
            result.append(contentsOf: chunk.prefix(frames * reader.format.channelCount))
            if frames < 4096 { return result }
        }
    }

    @Test(arguments: [("ulaw", SoundFileEncoding(rawValue: 0x10)), ("alaw", SoundFileEncoding(rawValue: 0x11)),
                      ("u8", SoundFileEncoding.pcmU8), ("ima-adpcm", SoundFileEncoding(rawValue: 0x12)),
                      ("ms-adpcm", SoundFileEncoding(rawValue: 0x13)), ("pcm16", SoundFileEncoding.pcm16)])
    func sourcesOf16BitsOrFewerAreCopiedWithoutDither(name: String, encoding: SoundFileEncoding) throws {
        let folder = try TemporaryFolder()
        let input = folder.file("\(name).wav"), output = folder.file("out.wav")
        try Self.write(Signal.sine(frequency: 440, sampleRate: 8000, frames: 8000, amplitude: 0.3), rate: 8000, type: .wav,
                       encoding: encoding, to: input)
        let result = try aurender([input, output, "--bits", "16", "-v"])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(!result.standardError.contains("dither"), "\(result.standardError)")
        let expected = try Self.shorts(input)
        #expect(expected.count >= 8000 && expected.contains { $0 != 0 }, "IMA ADPCM rounds up to whole blocks")
        #expect(try Self.shorts(output) == expected, "\(name) to 16-bit WAV equals libsndfile's own 16-bit decode")
    }

    @Test func deeperSourcesAreStillDitheredToTheSameBytesEveryTime() throws {
        let folder = try TemporaryFolder()
        let input = folder.file("in24.wav")
        try Self.write(Signal.noise(frames: 44_100, amplitude: 0.3), rate: 44_100, type: .wav, encoding: .pcm24, to: input)
        for name in ["a", "b", "plain"] {
            let result = try aurender([input, folder.file("\(name).wav"), "--bits", "16"] + (name == "plain" ? ["--dither", "none"] : []))
            #expect(result.status == 0, "\(result.standardError)")
        }
        #expect(bytes(folder.file("a.wav")) == bytes(folder.file("b.wav")), "seeded: the same bytes every run")
        let dithered = try Self.shorts(folder.file("a.wav")), rounded = try Self.shorts(folder.file("plain.wav"))
        let moved = zip(dithered, rounded).filter { $0 != $1 }.count
        #expect(moved > 44_100 / 4, "24 to 16 bits is dithered: \(moved) of 44100 samples differ from plain rounding")
        #expect(zip(dithered, rounded).allSatisfy { abs(Int($0) - Int($1)) <= 1 })
    }

    /// Where silence is guaranteed to stay exact zeros: through gain and EQ (linear, from zero
    /// state) all of it; after a lossy codec or a resampler, all but the codec's block or the
    /// filter's reach before the tone (here, up to 0.1 s before it).
    @Test(arguments: [
        ("eq", "wav", ["--eq", "Rock", "--gain", "-3"], 44_100),
        ("vorbis", "ogg", [], 39_690),
        ("mp3", "mp3", [], 39_690),
        ("resampled", "wav", ["--rate", "48000"], 43_200),
    ])
    func digitalSilenceStaysExactZeros(name: String, container: String, options: [String], silentFrames: Int) throws {
        let folder = try TemporaryFolder()
        let source = folder.file("source.wav"), input = folder.file("in.\(container)"), output = folder.file("out.wav")
        try Self.write(Self.silenceThenTone, rate: 44_100, type: .wav, encoding: .float, to: source)
        if container != "wav" { #expect(try aurender([source, input]).status == 0) }
        let result = try aurender([container == "wav" ? source : input, output, "--bits", "16", "-v"] + options)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardError.contains("TPDF dither (seed 1)"), "the render is dithered: \(result.standardError)")
        let written = try Self.shorts(output)
        #expect(written.prefix(silentFrames).allSatisfy { $0 == 0 }, "\(name): the silent second has no dither noise")
        #expect(written.suffix(20_000).contains { $0 != 0 })
    }
}
