import AudioFormats
import FFmpegFormats
import Foundation
import Testing
import TestSupport

/// Creative Voice files go to FFmpeg: libsndfile reads the headers of a VOC file's continuation
/// blocks as samples, and counts them in its length. FFmpeg's demuxer counts them too, so its
/// duration is not taken as a statement of the length.
@Suite struct VOCDecodingTests {
    /// A VOC file holding `data` in blocks of at most `blockSize` bytes: a first block of
    /// `kind` (1: 8-bit sound data; 9: the newer format, which carries rate, bits and channels)
    /// with the rest in continuation blocks (type 2), then a terminator.
    static func vocFile(_ data: [UInt8], kind: UInt8, rate: Int, bits: UInt8, channels: UInt8, blockSize: Int = 1_024) -> Data {
        var file = Data(Array("Creative Voice File\u{1A}".utf8))
        func little<Value: FixedWidthInteger>(_ value: Value) -> [UInt8] { withUnsafeBytes(of: value.littleEndian) { Array($0) } }
        file.append(contentsOf: little(UInt16(26)) + little(UInt16(0x010A)) + little(UInt16(0x1129)))
        func block(_ type: UInt8, _ bytes: [UInt8]) { file.append(contentsOf: [type] + little(UInt32(bytes.count)).prefix(3) + bytes) }
        let first = Array(data.prefix(blockSize))
        if kind == 1 {
            block(1, [UInt8(256 - 1_000_000 / rate), 0] + first)
        } else {
            block(9, little(UInt32(rate)) + [bits, channels] + little(UInt16(bits == 16 ? 4 : 0)) + [0, 0, 0, 0] + first)
        }
        for start in stride(from: blockSize, to: data.count, by: blockSize) {
            block(2, Array(data[start..<min(start + blockSize, data.count)]))
        }
        file.append(0)
        return file
    }

    static func sine(frames: Int, rate: Double) -> [Double] {
        (0..<frames).map { 0.5 * sin(2 * Double.pi * 300 * Double($0) / rate) }
    }

    @Test func eightBitMonoInContinuationBlocksDecodesSampleForSample() throws {
        let folder = try TemporaryFolder()
        let path = folder.file("mono.voc")
        let samples = Self.sine(frames: 4_000, rate: 8_000).map { UInt8(128 + (127 * $0).rounded()) }
        try Self.vocFile(samples, kind: 1, rate: 8_000, bits: 8, channels: 1).write(to: URL(fileURLWithPath: path))
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
        try Self.vocFile(bytes, kind: 9, rate: 11_025, bits: 16, channels: 2, blockSize: 4_096).write(to: URL(fileURLWithPath: path))
        let (decoder, decoded) = try FFmpegDecodingTests.decodeAll(path)
        #expect(decoder.decoderName == "FFmpeg")
        #expect(decoder.format.channelCount == 2 && decoder.format.sampleRate == 11_025)
        #expect(decoder.format.sampleType == .int16)
        #expect(decoded == interleaved.map { Float($0) / 32_768 })
    }
}
