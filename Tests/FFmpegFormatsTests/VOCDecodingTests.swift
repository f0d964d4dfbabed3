import AudioFormats
import FFmpegFormats
import Foundation
import Testing
import TestSupport

/// Creative Voice files go to FFmpeg: libsndfile reads the headers of a VOC file's continuation
/// blocks as samples, and counts them in its length. FFmpeg's demuxer counts them too, so its
/// duration is not taken as a statement of the length.
@Suite struct VOCDecodingTests {
    static func sine(frames: Int, rate: Double) -> [Double] {
        (0..<frames).map { 0.5 * sin(2 * Double.pi * 300 * Double($0) / rate) }
    }

    @Test func eightBitMonoInContinuationBlocksDecodesSampleForSample() throws {
        let folder = try TemporaryFolder()
        let path = folder.file("mono.voc")
        let samples = Self.sine(frames: 4_000, rate: 8_000).map { UInt8(128 + (127 * $0).rounded()) }
        try ByteBuiltFiles.voc(samples, kind: 1, rate: 8_000, bits: 8, channels: 1).write(to: URL(fileURLWithPath: path))
        let (decoder, decoded) = try FFmpegDecodingTests.decodeAll(path)
        #expect(decoder.decoderName == "FFmpeg")
        #expect(decoder.length.exactFrames == nil)
        #expect(decoder.format.sampleType == .int8, "8-bit samples are exact: a 16-bit copy needs no dither")
        #expect(decoded == samples.map { (Float($0) - 128) / 128 })
    }

    @Test func sixteenBitStereoInTheNewerBlocksDecodesSampleForSample() throws {
        let folder = try TemporaryFolder()
        let path = folder.file("stereo.voc")
        let left = Self.sine(frames: 3_000, rate: 11_025).map { Int16((16_000 * $0).rounded()) }
        let interleaved = left.flatMap { [$0, -$0] }
        let bytes = interleaved.flatMap { withUnsafeBytes(of: $0.littleEndian) { Array($0) } }
        try ByteBuiltFiles.voc(bytes, kind: 9, rate: 11_025, bits: 16, channels: 2, blockSize: 4_096).write(to: URL(fileURLWithPath: path))
        let (decoder, decoded) = try FFmpegDecodingTests.decodeAll(path)
        #expect(decoder.decoderName == "FFmpeg")
        #expect(decoder.format.channelCount == 2 && decoder.format.sampleRate == 11_025)
        #expect(decoder.format.sampleType == .int16)
        #expect(decoded == interleaved.map { Float($0) / 32_768 })
    }
}
