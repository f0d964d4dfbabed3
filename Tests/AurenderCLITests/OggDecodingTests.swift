import Foundation
import TestSupport
import Testing

/// The fast Ogg decoding paths against the reference decoders (`oggdec`, `opusdec`; `oggenc` and
/// `opusenc` make the inputs; `make deps` installs vorbis-tools and opus-tools): Vorbis decoded in
/// segments on several threads (by FFmpeg's decoder, where the build has it) stays within one
/// step at 16 bits of `oggdec`, at its length, Opus decoded by libopus's one-stream decoder
/// equals `opusdec` and libsndfile at the same lengths (exactly, or within rounding where a
/// long file is decoded in segments), and what that decoder declines (a pipe, a chained
/// stream) is read by libsndfile as before.
@Suite struct OggDecodingTests {
    /// `frames` frames of noise and a tone, `channels` channels at `rate`, as a float WAV.
    static func writeSource(frames: Int, channels: Int, rate: Int, to path: String) throws {
        let tone = Signal.sine(frequency: 997, sampleRate: Double(rate), frames: frames, amplitude: 0.5)
        let noise = Signal.noise(frames: frames * channels, amplitude: 0.1, seed: UInt64(frames))
        try writeFloats((0..<(frames * channels)).map { tone[$0 / channels] + noise[$0] }, channels: channels, rate: rate, to: path)
    }

    /// `aurender info`'s decoder line for `path`, and the info command's exit status.
    static func decoderName(of path: String, input: Data? = nil) throws -> String? {
        let result = try aurender(["info", path], input: input)
        #expect(result.status == 0, "\(result.standardError)")
        return result.output.split(separator: "\n").first { $0.hasPrefix("Decoder") }?.split(separator: ":").last?
            .trimmingCharacters(in: .whitespaces)
    }

    @Test(arguments: [(frames: 400_001, channels: 2, rate: 44_100), (frames: 300_007, channels: 1, rate: 22_050)])
    func longVorbisFilesDecodeAsOggdecDoes(frames: Int, channels: Int, rate: Int) throws {
        let folder = try TemporaryFolder()
        try Self.writeSource(frames: frames, channels: channels, rate: rate, to: folder.file("source.wav"))
        try ReferenceDecoderTests.run("oggenc", ["-Q", "-q", "4", "-o", folder.file("x.ogg"), folder.file("source.wav")])
        #expect(try aurender([folder.file("x.ogg"), folder.file("ours.wav"), "--bits", "16", "--dither", "none"]).status == 0)
        try ReferenceDecoderTests.run("oggdec", ["-Q", "-o", folder.file("reference.wav"), folder.file("x.ogg")])
        let ours = try samples(of: folder.file("ours.wav")).samples
        let reference = try samples(of: folder.file("reference.wav")).samples
        #expect(ours.count == frames * channels)
        #expect(reference.count == ours.count)
        #expect(zip(ours, reference).allSatisfy { abs($0 - $1) * 32_768 <= 1 }, "within one step of 16 bits")
    }

    /// A short file equals `opusdec` and libsndfile exactly; a long one, decoded in segments on
    /// every core, equals them in its first segment and within rounding after (RFC 6716's
    /// `opus_compare` criterion at its top), at the same length.
    @Test(arguments: [(frames: 480_000, channels: 2), (frames: 100_003, channels: 1)])
    func opusDecodesThroughLibopusAsOpusdecAndLibsndfileDo(frames: Int, channels: Int) throws {
        let folder = try TemporaryFolder()
        try Self.writeSource(frames: frames, channels: channels, rate: 48_000, to: folder.file("source.wav"))
        try ReferenceDecoderTests.run("opusenc", ["--quiet", "--bitrate", "96", folder.file("source.wav"), folder.file("x.opus")])
        #expect(try Self.decoderName(of: folder.file("x.opus")) == "libopus")
        #expect(try aurender([folder.file("x.opus"), folder.file("ours.wav"), "--bits", "float"]).status == 0)
        #expect(try aurender([folder.file("x.opus"), folder.file("sndfile.wav"), "--bits", "float", "--decoder", "sndfile"]).status == 0)
        try ReferenceDecoderTests.run("opusdec", ["--quiet", "--float", "--rate", "48000", folder.file("x.opus"), folder.file("reference.wav")])
        let ours = try samples(of: folder.file("ours.wav")).samples
        let reference = try samples(of: folder.file("reference.wav")).samples
        #expect(ours.count == frames * channels)
        #expect(reference == (try samples(of: folder.file("sndfile.wav")).samples))
        let segment = 131_072  // ParallelSegments.defaultSegmentFrames, the Opus decoder's segment
        guard frames > segment else {
            #expect(ours == reference)
            return
        }
        #expect(ours.prefix(segment * channels) == reference.prefix(segment * channels))
        #expect(zip(ours, reference).allSatisfy { abs($0 - $1) < 1e-5 })
        #expect(try #require(OpusCompare.quality(reference: reference, decoded: ours, channelCount: channels)) >= 99.9)
    }

    /// Opus on standard input is not surveyed (a pipe is read once): libsndfile decodes it, to
    /// the same samples.
    @Test func opusOnAPipeIsReadByLibsndfileToTheSameSamples() throws {
        let folder = try TemporaryFolder()
        try Self.writeSource(frames: 96_000, channels: 2, rate: 48_000, to: folder.file("source.wav"))
        try ReferenceDecoderTests.run("opusenc", ["--quiet", "--bitrate", "96", folder.file("source.wav"), folder.file("x.opus")])
        let bytes = try Data(contentsOf: URL(fileURLWithPath: folder.file("x.opus")))
        #expect(try Self.decoderName(of: "-", input: bytes) == "libsndfile")
        #expect(try aurender(["-", folder.file("piped.wav"), "--bits", "float"], input: bytes).status == 0)
        #expect(try aurender([folder.file("x.opus"), folder.file("file.wav"), "--bits", "float"]).status == 0)
        let piped = try samples(of: folder.file("piped.wav")).samples
        #expect(piped.count == 96_000 * 2)
        #expect(piped == (try samples(of: folder.file("file.wav")).samples))
    }

    /// Two Opus streams one after the other (a chained file) are not plain: libsndfile reads
    /// them as before, and forcing libopus says why it does not.
    @Test func aChainedOpusFileIsLeftToLibsndfile() throws {
        let folder = try TemporaryFolder()
        try Self.writeSource(frames: 48_000, channels: 2, rate: 48_000, to: folder.file("source.wav"))
        try ReferenceDecoderTests.run("opusenc", ["--quiet", "--serial", "1", folder.file("source.wav"), folder.file("a.opus")])
        try ReferenceDecoderTests.run("opusenc", ["--quiet", "--serial", "2", folder.file("source.wav"), folder.file("b.opus")])
        let chained = try Data(contentsOf: URL(fileURLWithPath: folder.file("a.opus"))) + Data(contentsOf: URL(fileURLWithPath: folder.file("b.opus")))
        try chained.write(to: URL(fileURLWithPath: folder.file("chained.opus")))
        #expect(try Self.decoderName(of: folder.file("chained.opus")) == "libsndfile")
        #expect(try aurender([folder.file("chained.opus"), folder.file("default.wav"), "--bits", "float"]).status == 0)
        #expect(try aurender([folder.file("chained.opus"), folder.file("sndfile.wav"), "--bits", "float", "--decoder", "sndfile"]).status == 0)
        #expect(try samples(of: folder.file("default.wav")).samples == (try samples(of: folder.file("sndfile.wav")).samples))
        let forced = try aurender([folder.file("chained.opus"), folder.file("forced.wav"), "--decoder", "opus"])
        #expect(forced.status == 65)
        #expect(forced.standardError.contains("chained.opus: libopus reads only whole, regular Ogg Opus files"), "\(forced.standardError)")
        #expect(!FileManager.default.fileExists(atPath: folder.file("forced.wav")))
    }

    /// A Vorbis page in the middle whose checksum fails is a gap: the render fails naming both
    /// counts (exit 65, nothing written) and `--salvage` writes what decodes. (The build before
    /// the segments aborted here, on an exclusive-access conflict in marking the gap.)
    @Test func aVorbisFileWithADamagedPageFailsNamingItsCounts() throws {
        let folder = try TemporaryFolder()
        try Self.writeSource(frames: 400_000, channels: 2, rate: 44_100, to: folder.file("source.wav"))
        try ReferenceDecoderTests.run("oggenc", ["-Q", "-q", "4", "-o", folder.file("x.ogg"), folder.file("source.wav")])
        var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: folder.file("x.ogg"))))
        let pages = OggPage.pages(of: bytes)
        let offset = pages.prefix(pages.count / 2).reduce(0) { $0 + $1.bytes.count }
        bytes[offset + 100] ^= 0xFF
        try Data(bytes).write(to: URL(fileURLWithPath: folder.file("damaged.ogg")))
        let failed = try aurender([folder.file("damaged.ogg"), folder.file("out.wav")])
        #expect(failed.status == 65)
        #expect(failed.standardError.contains("damaged.ogg: the file states 400000 frames but holds only "), "\(failed.standardError)")
        #expect(!FileManager.default.fileExists(atPath: folder.file("out.wav")))
        let salvaged = try aurender([folder.file("damaged.ogg"), folder.file("out.wav"), "--salvage"])
        #expect(salvaged.status == 0, "\(salvaged.standardError)")
        let frames = try samples(of: folder.file("out.wav")).samples.count / 2
        #expect(frames > 300_000 && frames < 400_000)
    }
}
