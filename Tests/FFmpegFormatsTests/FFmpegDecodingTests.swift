import AudioFiles
import AudioFormats
import FFmpegFormats
import Foundation
import Testing
import TestSupport

/// FFmpeg's tenant decodes what libsndfile cannot, to the source's length and samples. The
/// fixtures (fixtures/ffmpeg, made by its script) encode a 440 Hz sine at half scale in 16 bits.
@Suite struct FFmpegDecodingTests {
    /// The fixtures' source: `frames` of the sine at `rate`, as the script rounds it.
    static func source(rate: Double, frames: Int) -> [Float] {
        (0..<frames).map { Float((16_384 * sin(2 * Double.pi * 440 * Double($0) / rate)).rounded()) / 32_768 }
    }

    static func decodeAll(_ decoder: any AudioDecoder) throws -> [Float] {
        var samples: [Float] = []
        var block = [Float](repeating: 0, count: 1000 * decoder.format.channelCount)
        while true {
            let got = try block.withUnsafeMutableBufferPointer { try decoder.read(into: $0.baseAddress!, frames: 1000) }
            samples += block[0..<(got * decoder.format.channelCount)]
            if got < 1000 { return samples }
        }
    }

    static func decodeAll(_ path: String) throws -> (any AudioDecoder, [Float]) {
        let decoder = try FormatRegistry.standard.openDecoder(path: path)
        return (decoder, try decodeAll(decoder))
    }

    /// The sine's frequency from its rising zero crossings.
    static func frequency(_ samples: [Float], rate: Double) -> Double {
        let crossings = (1..<samples.count).filter { samples[$0 - 1] < 0 && samples[$0] >= 0 }
        guard let first = crossings.first, let last = crossings.last, last > first else { return 0 }
        return Double(crossings.count - 1) * rate / Double(last - first)
    }

    @Test func aacInM4aDecodesToTheSourceLengthAlignedWithIt() throws {
        let (decoder, samples) = try Self.decodeAll(fixture("ffmpeg/aac.m4a"))
        let source = Self.source(rate: 44_100, frames: 44_100)
        #expect(decoder.length == .exact(44_100))
        #expect(samples.count == 44_100)
        #expect(decoder.container.identifier == "mp4" && decoder.encoding.identifier == "aac")
        let middle = 2_000..<42_000
        func error(lag: Int) -> Float { middle.reduce(0) { $0 + pow(samples[$1 + lag] - source[$1], 2) } }
        let bestLag = (-32...32).min { error(lag: $0) < error(lag: $1) }
        #expect(bestLag == 0)
        let rmsError = sqrt(error(lag: 0) / Float(middle.count))
        #expect(rmsError < 0.01, "AAC at 64 kb/s stays within -40 dB of the source: \(rmsError)")
    }

    @Test(arguments: ["alac.m4a", "wavpack.wv", "true-audio.tta", "ogg-flac.oga"])
    func losslessFormatsDecodeBitExact(name: String) throws {
        let (decoder, samples) = try Self.decodeAll(fixture("ffmpeg/" + name))
        #expect(decoder.length == .exact(11_025))
        #expect(decoder.format.sampleType == .int16)
        #expect(samples == Self.source(rate: 44_100, frames: 11_025))
    }

    /// Speex's source was resampled to 16 kHz, so it holds a quarter second in 4,000 frames.
    @Test(arguments: [("opus.webm", 48_000.0, "opus", 11_025), ("vorbis.mkv", 44_100, "vorbis", 11_025), ("dolby.ac3", 44_100, "ac3", 11_025),
                      ("dolby-plus.eac3", 44_100, "eac3", 11_025), ("raw.aac", 44_100, "aac", 11_025), ("mobile.3g2", 44_100, "aac", 11_025),
                      ("audiobook.m4b", 44_100, "aac", 11_025), ("video.mp4", 44_100, "aac", 11_025), ("speex.spx", 16_000, "speex", 4_000)])
    func lossyFormatsAndVideoContainersDecodeTheSine(name: String, rate: Double, codec: String, frames: Int) throws {
        let (decoder, samples) = try Self.decodeAll(fixture("ffmpeg/" + name))
        #expect(decoder.encoding.identifier == codec)
        #expect(decoder.format.sampleRate == rate && decoder.format.channelCount == 1)
        #expect(samples.count >= frames && samples.count <= frames + 2_048, "\(samples.count) frames")
        let body = Array(samples[(frames / 5)..<(frames * 9 / 10)])
        #expect(abs(Self.frequency(body, rate: rate) - 440) < 1)
        #expect(abs(Signal.rms(body) - 0.5 / 2.0.squareRoot()) < 0.03)
    }

    /// FFmpeg's WMA encoder drops the last partial block: its own CLI decodes 10,240 frames too.
    @Test func windowsMediaDecodesAsFFmpegsCommandLineDoes() throws {
        let (decoder, samples) = try Self.decodeAll(fixture("ffmpeg/windows-media.wma"))
        #expect(decoder.container.identifier == "asf" && decoder.encoding.identifier == "wmav2")
        #expect(samples.count == 10_240)
        #expect(Signal.rms(Array(samples[2_048...])) > 0.3)
    }

    @Test(arguments: ["alac.m4a", "wavpack.wv", "true-audio.tta", "aac.m4a"])
    func aTruncatedFileIsAnErrorNamingIt(name: String) throws {
        let folder = try TemporaryFolder()
        let bytes = try Data(contentsOf: URL(fileURLWithPath: fixture("ffmpeg/" + name)))
        let path = folder.file("cut-" + name)
        try bytes.prefix(bytes.count * 3 / 5).write(to: URL(fileURLWithPath: path))
        let failure = #expect(throws: AudioFormatError.self) { _ = try Self.decodeAll(path) }
        #expect(failure?.path == path)
        #expect(failure?.kind == .invalidFile)
    }

    @Test func standardInputIsDecodedFromAPipeLikeTheFile() throws {
        let bytes = try Data(contentsOf: URL(fileURLWithPath: fixture("ffmpeg/aac.m4a")))
        let pipe = Pipe()
        let writer = Thread {
            pipe.fileHandleForWriting.write(bytes)
            try? pipe.fileHandleForWriting.close()
        }
        writer.start()
        let decoder = try FormatRegistry.standard.openDecoder(fileDescriptor: pipe.fileHandleForReading.fileDescriptor, path: "-")
        #expect(!decoder.isSeekable)
        #expect(try Self.decodeAll(decoder) == Self.decodeAll(fixture("ffmpeg/aac.m4a")).1)
    }

    @Test func rewindingDecodesTheSameSamplesAgain() throws {
        let (decoder, first) = try Self.decodeAll(fixture("ffmpeg/aac.m4a"))
        try decoder.rewind()
        #expect(try Self.decodeAll(decoder) == first)
    }

    @Test func readingAsInt16GivesTheSourceOfALosslessFile() throws {
        let decoder = try FormatRegistry.standard.openDecoder(path: fixture("ffmpeg/alac.m4a"))
        var shorts = [Int16](repeating: 0, count: 12_000)
        let got = try shorts.withUnsafeMutableBufferPointer { try decoder.read(into: $0.baseAddress!, frames: 12_000) }
        #expect(got == 11_025)
        #expect(shorts[0..<got].map { Float($0) / 32_768 } == Self.source(rate: 44_100, frames: 11_025))
    }

    @Test func theRegistryPicksFFmpegForM4aLibsndfileForWavAndFlacAndVorbisfileForVorbis() throws {
        let kind = { (path: String) throws -> String in String(describing: type(of: try FormatRegistry.standard.openDecoder(path: path))) }
        #expect(try kind(fixture("ffmpeg/aac.m4a")) == "FFmpegDecoder")
        #expect(try kind(fixture("music.wav")) == "SndfileDecoder")
        #expect(try kind(fixture("music.flac")) == "SndfileDecoder")
        #expect(try kind(fixture("music.ogg")) == "VorbisFileDecoder")
    }

    @Test func aFileWithNoAudioStreamIsRefusedByName() throws {
        let folder = try TemporaryFolder()
        let path = folder.file("text.mkv")
        try WaveFile.write([0x1A, 0x45, 0xDF, 0xA3] + [UInt8](repeating: 0x42, count: 300), to: path)
        let failure = #expect(throws: AudioFormatError.self) { _ = try FormatRegistry.standard.openDecoder(path: path) }
        #expect(failure?.reason.hasPrefix("Matroska/WebM media that FFmpeg cannot read") == true)
    }
}

/// A decoder can be forced by name, whatever the input holds.
@Suite struct ForcedDecoderTests {
    @Test func aWavIsDecodedByFFmpegWhenNamedAndGivesLibsndfilesSamples() throws {
        let forced = try FormatRegistry.standard.openDecoder(path: fixture("music.wav"), decoder: "ffmpeg")
        let chosen = try FormatRegistry.standard.openDecoder(path: fixture("music.wav"))
        #expect(forced.decoderName == "FFmpeg" && chosen.decoderName == "libsndfile")
        #expect(forced.length == chosen.length)
        #expect(try FFmpegDecodingTests.decodeAll(forced) == FFmpegDecodingTests.decodeAll(chosen))
    }

    @Test func libsndfileForcedOnAnM4aRefusesIt() throws {
        let path = fixture("ffmpeg/aac.m4a")
        let failure = #expect(throws: AudioFormatError.self) { _ = try FormatRegistry.standard.openDecoder(path: path, decoder: "sndfile") }
        #expect(failure?.path == path && failure?.kind == .invalidFile)
    }

    @Test func anUnknownDecoderIsRefusedWithTheNamesThereAre() throws {
        #expect(throws: AudioFormatError(path: "x.wav", kind: .unsupportedInput,
                                         reason: "no decoder called gstreamer in this build (it has vorbisfile, libopus, libsndfile, mpg123, FFmpeg)")) {
            try FormatRegistry.standard.openDecoder(path: "x.wav", decoder: "gstreamer")
        }
    }
}
