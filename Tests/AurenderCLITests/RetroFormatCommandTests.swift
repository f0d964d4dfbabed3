import Foundation
import TestSupport
import Testing

/// Creative VOC and Amiga 8SVX through the command line: FFmpeg decodes them (libsndfile reads a
/// VOC's block headers as samples and scrambles a stereo 8SVX), and their 8-bit samples are
/// copied to 16 bits exactly, without dither.
@Suite struct RetroFormatCommandTests {
    @Test func aVOCInContinuationBlocksCopiesSampleForSample() throws {
        let folder = try TemporaryFolder()
        let source = (0..<4_000).map { UInt8(128 + (100 * sin(2 * Double.pi * 300 * Double($0) / 8_000)).rounded()) }
        try ByteBuiltFiles.voc(source, kind: 1, rate: 8_000, bits: 8, channels: 1).write(to: URL(fileURLWithPath: folder.file("in.voc")))
        let info = try aurender(["info", folder.file("in.voc")])
        #expect(info.status == 0)
        #expect(info.output.contains("Decoder     : FFmpeg"))
        let result = try aurender([folder.file("in.voc"), folder.file("out.wav"), "--bits", "16"])
        #expect(result.status == 0, "\(result.standardError)")
        let expected: [Float] = source.map { (Float($0) - 128) / 128 }
        #expect(try samples(of: folder.file("out.wav")).samples == expected)
    }

    @Test func aStereo8SVXKeepsEachChannelApart() throws {
        let folder = try TemporaryFolder()
        let left = (0..<4_000).map { Int8((100 * sin(2 * Double.pi * 300 * Double($0) / 8_000)).rounded()) }
        let right = left.map { $0 == -128 ? 127 : -$0 }
        try ByteBuiltFiles.stereo8SVX(left: left, right: right, rate: 8_000).write(to: URL(fileURLWithPath: folder.file("in.8svx")))
        let result = try aurender([folder.file("in.8svx"), folder.file("out.wav")])
        #expect(result.status == 0, "\(result.standardError)")
        let decoded = try samples(of: folder.file("out.wav")).samples
        let expected: [Float] = zip(left, right).flatMap { pair -> [Float] in [Float(pair.0) / 128, Float(pair.1) / 128] }
        #expect(decoded == expected)
    }
}
