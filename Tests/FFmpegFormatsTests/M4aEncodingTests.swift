import AudioFiles
import AudioFormats
import FFmpegFormats
import Foundation
import Testing
import TestSupport

/// FFmpeg writes MPEG-4 audio: AAC that decodes to the frames written, aligned with them, and
/// ALAC bit for bit, the same bytes on every run.
@Suite struct M4aEncodingTests {
    /// 44,100 frames of a stereo 440 Hz sine at half scale, in 16-bit steps.
    static let source: [Float] = (0..<44_100).flatMap { frame -> [Float] in
        let value = Float((16_384 * sin(2 * Double.pi * 440 * Double(frame) / 44_100)).rounded()) / 32_768
        return [value, -value]
    }

    /// Writes `source` to `path` as `encoding` with `settings`, in blocks of 1,000 frames.
    static func write(_ path: String, encoding: AudioEncoding, settings: EncoderSettings = EncoderSettings()) throws {
        let descriptor = open(path, O_RDWR | O_CREAT | O_TRUNC, 0o644)
        let encoder = try FormatRegistry.standard.makeEncoder(fileDescriptor: descriptor, path: path, container: .m4a, encoding: encoding,
                                                              sampleRate: 44_100, channelCount: 2, settings: settings)
        try source.withUnsafeBufferPointer { samples in
            for start in stride(from: 0, to: 44_100, by: 1_000) {
                try encoder.write(samples.baseAddress! + start * 2, frames: min(1_000, 44_100 - start))
            }
        }
        try encoder.finish()
    }

    @Test func aacDecodesToTheFramesWrittenAlignedWithThem() throws {
        let folder = try TemporaryFolder()
        let path = folder.file("sine.m4a")
        try Self.write(path, encoding: .aac)
        let (decoder, samples) = try FFmpegDecodingTests.decodeAll(path)
        #expect(decoder.length == .exact(44_100))
        #expect(samples.count == 44_100 * 2)
        #expect(decoder.encoding.identifier == "aac")
        let middle = 2_000..<42_000
        func error(lag: Int) -> Float { middle.reduce(0) { $0 + pow(samples[($1 + lag) * 2] - Self.source[$1 * 2], 2) } }
        func correlation(lag: Int) -> Float { middle.reduce(0) { $0 + samples[($1 + lag) * 2] * Self.source[$1 * 2] } }
        #expect((-64...64).max { correlation(lag: $0) < correlation(lag: $1) } == 0)
        let rmsError = sqrt(error(lag: 0) / Float(middle.count))
        #expect(rmsError < 0.01, "AAC at 128 kb/s stays within -40 dB of the source: \(rmsError)")
    }

    @Test func alacRoundTripsBitForBit() throws {
        let folder = try TemporaryFolder()
        let path = folder.file("sine.m4a")
        try Self.write(path, encoding: .alac)
        let (decoder, samples) = try FFmpegDecodingTests.decodeAll(path)
        #expect(decoder.length == .exact(44_100))
        #expect(decoder.format.sampleType == .int16)
        #expect(samples == Self.source)
    }

    /// 24-bit ALAC takes left-justified 32-bit frames and gives them back exactly, its lowest
    /// eight bits clear; the decoder reports 24-bit samples.
    @Test func alac24RoundTripsBitForBit() throws {
        let folder = try TemporaryFolder()
        let path = folder.file("sine24.m4a")
        let source: [Int32] = (0..<20_000).flatMap { frame -> [Int32] in
            let value = Int32((4_000_000 * sin(2 * Double.pi * 997 * Double(frame) / 48_000)).rounded()) << 8
            return [value, -value]
        }
        let descriptor = open(path, O_RDWR | O_CREAT | O_TRUNC, 0o644)
        let encoder = try FormatRegistry.standard.makeEncoder(fileDescriptor: descriptor, path: path, container: .m4a, encoding: .alac24,
                                                              sampleRate: 48_000, channelCount: 2)
        try source.withUnsafeBufferPointer { try encoder.write($0.baseAddress!, frames: 20_000) }
        try encoder.finish()
        let (decoder, samples) = try FFmpegDecodingTests.decodeAll(path)
        #expect(decoder.length == .exact(20_000))
        #expect(decoder.format.sampleType == .int24)
        #expect(samples == source.map { Float(Double($0) / 2_147_483_648) })
    }

    @Test func alacHoldsSixteenOrTwentyFourBits() {
        #expect(AudioEncoding.alac(bits: 16) == .alac && AudioEncoding.alac(bits: 24) == .alac24)
        #expect(AudioEncoding.alac(bits: 8) == nil && AudioEncoding.alac(bits: 32) == nil)
        #expect(AudioEncoding.alac24.integerBits == 24)
    }

    @Test(arguments: [AudioEncoding.aac, .alac, .alac24])
    func twoRunsWriteTheSameBytes(encoding: AudioEncoding) throws {
        let folder = try TemporaryFolder()
        try Self.write(folder.file("one.m4a"), encoding: encoding)
        try Self.write(folder.file("two.m4a"), encoding: encoding)
        let one = try Data(contentsOf: URL(fileURLWithPath: folder.file("one.m4a")))
        #expect(one.count > 1_000)
        #expect(one == (try Data(contentsOf: URL(fileURLWithPath: folder.file("two.m4a")))))
        #expect(one.range(of: Data("Lavf".utf8)) == nil && one.range(of: Data("Lavc".utf8)) == nil)
    }

    @Test func aLowerBitRateOrQualityGivesASmallerFile() throws {
        let folder = try TemporaryFolder()
        let sizes = try [EncoderSettings(bitRate: 64_000), EncoderSettings(bitRate: 256_000), EncoderSettings(quality: 0.1),
                         EncoderSettings(quality: 0.9)].enumerated().map { index, settings -> Int in
            let path = folder.file("\(index).m4a")
            try Self.write(path, encoding: .aac, settings: settings)
            #expect(try FFmpegDecodingTests.decodeAll(path).1.count == 44_100 * 2)
            return try Data(contentsOf: URL(fileURLWithPath: path)).count
        }
        #expect(sizes[0] < sizes[1] * 2 / 3, "\(sizes)")
        #expect(sizes[2] < sizes[3] * 2 / 3, "\(sizes)")
    }

    @Test func alacTakesNoBitRateAndAPipeIsRefused() throws {
        let folder = try TemporaryFolder()
        let path = folder.file("x.m4a")
        #expect(throws: AudioFormatError(path: path, kind: .unsupportedFormat,
                                         reason: "ALAC (Apple Lossless Audio Codec) has no bit rate or quality to set")) {
            try Self.write(path, encoding: .alac, settings: EncoderSettings(bitRate: 256_000))
        }
        let pipe = Pipe()
        #expect(throws: AudioFormatError(path: "-", kind: .unsupportedFormat,
                                         reason: "MPEG-4 audio (M4A) cannot be written to a pipe: its index is completed at the end")) {
            try FormatRegistry.standard.makeEncoder(fileDescriptor: dup(pipe.fileHandleForWriting.fileDescriptor), path: "-", container: .m4a,
                                                    encoding: .aac, sampleRate: 44_100, channelCount: 2)
        }
    }
}
