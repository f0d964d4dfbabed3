import AudioFormats
import FFmpegFormats
import Foundation
import Testing
import TestSupport

/// Amiga 8SVX goes to FFmpeg: a stereo file stores its left channel's samples, then its right
/// channel's, and libsndfile reads them as interleaved frames, scrambling both channels.
@Suite struct AmigaAudioTests {
    static func sine(_ frequency: Double, frames: Int, rate: Double) -> [Int8] {
        (0..<frames).map { Int8((100 * sin(2 * Double.pi * frequency * Double($0) / rate)).rounded()) }
    }

    @Test func aStereo8SVXDecodesEachChannelFromItsOwnHalfOfTheBody() throws {
        let folder = try TemporaryFolder()
        let path = folder.file("stereo.8svx")
        let left = Self.sine(300, frames: 4_000, rate: 8_000), right = Self.sine(1_200, frames: 4_000, rate: 8_000)
        try ByteBuiltFiles.stereo8SVX(left: left, right: right, rate: 8_000).write(to: URL(fileURLWithPath: path))
        let (decoder, samples) = try FFmpegDecodingTests.decodeAll(path)
        #expect(decoder.decoderName == "FFmpeg")
        #expect(decoder.format.channelCount == 2 && decoder.format.sampleRate == 8_000)
        #expect(decoder.format.sampleType == .int8)
        #expect(samples.count == 8_000)
        #expect(stride(from: 0, to: samples.count, by: 2).map { samples[$0] } == left.map { Float($0) / 128 })
        #expect(stride(from: 1, to: samples.count, by: 2).map { samples[$0] } == right.map { Float($0) / 128 })
    }

    @Test func theSnifferNames8SVXForTheRegistryToRoute() {
        let head = Array(ByteBuiltFiles.stereo8SVX(left: [1, 2], right: [3, 4], rate: 8_000))
        #expect(FormatSniffer.sniff(head) == .container(AudioContainer(identifier: "8svx", name: "Amiga 8SVX audio"), nil))
        #expect(FormatSniffer.isAudioFileName("drums.8svx") && FormatSniffer.isAudioFileName("DRUMS.SVX"))
    }
}
