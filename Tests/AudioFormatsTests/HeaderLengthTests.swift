import AudioFormats
import Testing
import TestSupport

/// The lengths headers state, read from their first bytes alone.
@Suite struct HeaderLengthTests {
    @Test func aWaveHeaderStatesItsDataOverItsFrameSize() {
        let header = WaveFile.bytes(channels: 2, sampleRate: 44_100, data: [UInt8](repeating: 0, count: 4 * 1000))
        #expect(HeaderLength.statedFrames(Array(header.prefix(44))) == 1000, "the header alone says it, whatever follows")
        var open = header
        open[40...43] = [0xFF, 0xFF, 0xFF, 0xFF]
        #expect(HeaderLength.statedFrames(open) == nil, "a size left open by a streaming writer states nothing")
        let adpcm = WaveFile.bytes(channels: 1, sampleRate: 8000, bitsPerSample: 4, data: [UInt8](repeating: 0, count: 256), formatTag: 0x11)
        #expect(HeaderLength.statedFrames(adpcm) == nil, "IMA ADPCM frames do not follow from the byte count")
    }

    @Test func auHeadersInEitherByteOrder() {
        func au(_ fields: [UInt32], littleEndian: Bool) -> [UInt8] {
            Array((littleEndian ? "dns." : ".snd").utf8)
                + fields.flatMap { value in (0..<4).map { UInt8(truncatingIfNeeded: value >> (littleEndian ? 8 * $0 : 24 - 8 * $0)) } }
        }
        // Offset 24, 12000 bytes of 16-bit PCM (encoding 3) at 8 kHz in 2 channels: 3000 frames.
        #expect(HeaderLength.statedFrames(au([24, 12_000, 3, 8000, 2], littleEndian: false)) == 3000)
        #expect(HeaderLength.statedFrames(au([24, 12_000, 3, 8000, 2], littleEndian: true)) == 3000)
        #expect(HeaderLength.statedFrames(au([24, 0xFFFF_FFFF, 3, 8000, 2], littleEndian: false)) == nil)
    }

    @Test func anMP3WithoutAXingHeaderStatesNothing() {
        #expect(HeaderLength.statedFrames([0xFF, 0xFB, 0x90, 0x64] + [UInt8](repeating: 0, count: 400)) == nil)
        #expect(HeaderLength.statedFrames(Array("not audio at all".utf8)) == nil)
    }
}
