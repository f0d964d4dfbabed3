import AudioFormats
import Foundation
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The lengths headers state, read from their first bytes alone.
@Suite struct HeaderLengthTests {
    @Test func aWaveHeaderStatesItsDataOverItsFrameSize() {
        let header = WaveFile.bytes(channels: 2, sampleRate: 44_100, data: [UInt8](repeating: 0, count: 4 * 1000))
        #expect(HeaderLength.statedFrames(Array(header.prefix(44))) == 1000, "the header alone says it, whatever follows")
        var open = header
        open[40...43] = [0xFF, 0xFF, 0xFF, 0xFF]
        #expect(HeaderLength.statedFrames(open) == nil, "a size left open by a streaming writer states nothing")
        let adpcm = WaveFile.bytes(channels: 1, sampleRate: 8000, bitsPerSample: 4, data: [UInt8](repeating: 0, count: 256), formatTag: 0x11)
        #expect(HeaderLength.statedFrames(adpcm) == nil, "an IMA ADPCM format chunk without its samples per block states nothing")
    }

    /// A WAV in a block-coded encoding: a format chunk with `samplesPerBlock` in its extension,
    /// a `fact` chunk when `fact` is given, and `dataSize` bytes of data.
    static func codedWave(formatTag: UInt16, channels: UInt16, blockAlign: UInt16, samplesPerBlock: UInt16, fact: UInt32?,
                          dataSize: Int) -> [UInt8] {
        var bytes: [UInt8] = []
        func append<T: FixedWidthInteger>(_ value: T) { withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) } }
        bytes += Array("RIFF".utf8); append(UInt32(4 + 28 + (fact == nil ? 0 : 12) + 8 + dataSize)); bytes += Array("WAVE".utf8)
        bytes += Array("fmt ".utf8); append(UInt32(20)); append(formatTag); append(channels); append(UInt32(8000))
        append(UInt32(4000)); append(blockAlign); append(UInt16(4)); append(UInt16(2)); append(samplesPerBlock)
        if let fact { bytes += Array("fact".utf8); append(UInt32(4)); append(fact) }
        bytes += Array("data".utf8); append(UInt32(dataSize))
        return bytes + [UInt8](repeating: 0, count: dataSize)
    }

    @Test func aCodedWaveStatesItsFactCount() {
        // Microsoft ADPCM, 256-byte blocks of 500 frames, as libsndfile writes 8002 frames: 17 blocks.
        func msADPCM(fact: UInt32?, dataSize: Int = 17 * 256) -> Int64? {
            HeaderLength.statedFrames(Self.codedWave(formatTag: 0x02, channels: 1, blockAlign: 256, samplesPerBlock: 500, fact: fact, dataSize: dataSize))
        }
        #expect(msADPCM(fact: 8002) == 8002, "the fact count takes off the last block's padding")
        #expect(msADPCM(fact: 8500) == 8500)
        #expect(msADPCM(fact: 20_000) == 20_000, "a count past the data is stated, so the file is found short")
        #expect(msADPCM(fact: nil) == 8500, "without a count, the data's whole blocks")
        #expect(msADPCM(fact: nil, dataSize: 17 * 256 - 100) == nil, "a part block's frames depend on the codec")
        #expect(msADPCM(fact: 0) == 8500, "a count that ends before the last block gives way to the data")
        // libsndfile's stereo IMA ADPCM: 22 blocks of 2041 frames, with a fact count of half of them.
        let ima = Self.codedWave(formatTag: 0x11, channels: 2, blockAlign: 2048, samplesPerBlock: 2041, fact: 22_451, dataSize: 22 * 2048)
        #expect(HeaderLength.statedFrames(ima) == 44_902)
        // GSM 6.10: 65-byte blocks of 320 frames.
        let gsm = Self.codedWave(formatTag: 0x31, channels: 1, blockAlign: 65, samplesPerBlock: 320, fact: 8002, dataSize: 26 * 65)
        #expect(HeaderLength.statedFrames(gsm) == 8002)
        // SoX's GSM 6.10 WAV: 25 blocks and a stray byte, with a fact count of the 25 blocks' frames.
        let soxGSM = Self.codedWave(formatTag: 0x31, channels: 1, blockAlign: 65, samplesPerBlock: 320, fact: 8000, dataSize: 25 * 65 + 1)
        #expect(HeaderLength.statedFrames(soxGSM) == 8000, "a count ending in the last whole block, before a part block")
        #expect(msADPCM(fact: 8002, dataSize: 16 * 256 + 10) == 8002, "a count ending in a part block")
        #expect(msADPCM(fact: 7000, dataSize: 16 * 256 + 10) == nil, "a count ending before the last whole block gives way")
        // A Sony Wave64 believes its count only up to its data's end (libsndfile writes 2^63 - 10001 there).
        func wave64(fact: UInt64) -> [UInt8] {
            var bytes: [UInt8] = []
            func chunk(_ name: String, _ body: [UInt8]) {
                bytes += Array(name.utf8) + [UInt8](repeating: 0, count: 12)
                withUnsafeBytes(of: UInt64(24 + body.count).littleEndian) { bytes.append(contentsOf: $0) }
                bytes += body + [UInt8](repeating: 0, count: (8 - body.count % 8) % 8)
            }
            let format = Array(Self.codedWave(formatTag: 0x02, channels: 1, blockAlign: 256, samplesPerBlock: 500, fact: nil, dataSize: 0)[20..<40])
            bytes += Array("riff".utf8) + [UInt8](repeating: 0, count: 20) + Array("wave".utf8) + [UInt8](repeating: 0, count: 12)
            chunk("fmt ", format)
            chunk("fact", withUnsafeBytes(of: fact.littleEndian) { Array($0) })
            chunk("data", [UInt8](repeating: 0, count: 17 * 256))
            return bytes
        }
        #expect(HeaderLength.statedFrames(wave64(fact: 8002)) == 8002)
        #expect(HeaderLength.statedFrames(wave64(fact: UInt64(Int64.max) - 10_000)) == 8500)
        let unknown = Self.codedWave(formatTag: 0x40, channels: 1, blockAlign: 256, samplesPerBlock: 500, fact: 8002, dataSize: 17 * 256)
        #expect(HeaderLength.statedFrames(unknown) == nil, "G.721 and other codecs are not known here")
    }

    @Test func anAIFCInIMAADPCMCountsPackets() {
        /// An AIFC with `packets` in its common chunk and `dataPackets` of 34 bytes per channel.
        func ima4(channels: UInt16, packets: UInt32, dataPackets: Int) -> [UInt8] {
            var bytes: [UInt8] = []
            func append<T: FixedWidthInteger>(_ value: T) { withUnsafeBytes(of: value.bigEndian) { bytes.append(contentsOf: $0) } }
            let dataSize = dataPackets * 34 * Int(channels)
            bytes += Array("FORM".utf8); append(UInt32(4 + 32 + 16 + dataSize)); bytes += Array("AIFC".utf8)
            bytes += Array("COMM".utf8); append(UInt32(24)); append(channels); append(packets); append(UInt16(16))
            bytes += [0x40, 0x0B, 0xFA] + [UInt8](repeating: 0, count: 7) + Array("ima4".utf8) + [0, 0]
            bytes += Array("SSND".utf8); append(UInt32(8 + dataSize)); append(UInt32(0)); append(UInt32(0))
            return bytes + [UInt8](repeating: 0, count: dataSize)
        }
        #expect(HeaderLength.statedFrames(ima4(channels: 1, packets: 126, dataPackets: 126)) == 8064, "64 frames a packet")
        #expect(HeaderLength.statedFrames(ima4(channels: 1, packets: 200, dataPackets: 126)) == 12_800, "more packets than the data holds")
        #expect(HeaderLength.statedFrames(ima4(channels: 2, packets: 345, dataPackets: 690)) == 44_160, "libsndfile's stereo count")
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

    /// An ID3v2 tag of `size` bytes of body (version 2.4 with a footer when `footer`).
    static func id3v2(size: Int, footer: Bool = false) -> [UInt8] {
        let sizeBytes = [21, 14, 7, 0].map { UInt8((size >> $0) & 0x7F) }
        let header = [UInt8](footer ? [4, 0, 0x10] : [3, 0, 0]) + sizeBytes
        return Array("ID3".utf8) + header + [UInt8](repeating: 0, count: size) + (footer ? Array("3DI".utf8) + header : [])
    }

    /// A 417-byte MPEG-1 Layer III frame (128 kbit/s, 44.1 kHz, joint stereo) carrying an Info
    /// header counting 40 frames and a LAME tag with a delay of 576 and a padding of 1000:
    /// 40 × 1152 − 1576 = 44504 frames.
    static let infoFrame: [UInt8] = {
        var frame: [UInt8] = [0xFF, 0xFB, 0x90, 0x64] + [UInt8](repeating: 0, count: 32) + Array("Info".utf8) + [0, 0, 0, 0x0F, 0, 0, 0, 40]
        frame += [0, 0, 0x41, 0x28] + [UInt8](repeating: 0, count: 100) + [0, 0, 0, 50]
        frame += Array("LAME3.100".utf8) + [UInt8](repeating: 0, count: 12) + [36, 3, 0xE8]
        return frame + [UInt8](repeating: 0, count: 417 - frame.count)
    }()

    @Test func anMP3StatesItsFramesPastItsTagsAndJunk() {
        #expect(HeaderLength.statedFrames(Self.infoFrame) == 44_504)
        #expect(HeaderLength.statedFrames(Self.id3v2(size: 1000) + Self.infoFrame) == 44_504)
        #expect(HeaderLength.statedFrames(Self.id3v2(size: 1000, footer: true) + Self.infoFrame) == 44_504, "a v2.4 tag's footer skipped")
        #expect(HeaderLength.statedFrames(Self.id3v2(size: 300) + Self.id3v2(size: 200) + Self.infoFrame) == 44_504, "two tags")
        #expect(HeaderLength.statedFrames(Self.id3v2(size: 300) + [UInt8](repeating: 0, count: 700) + Self.infoFrame) == 44_504,
                "padding before the first frame")
        #expect(HeaderLength.statedFrames(Array("junk".utf8) + [0xFF, 0x00] + Self.infoFrame) == 44_504, "junk before the first frame")
        let lameTagCut = Self.id3v2(size: 4000) + Self.infoFrame
        #expect(HeaderLength.statedFrames(Array(lameTagCut.prefix(AudioInput.headSize))) == nil,
                "an Info header whose LAME tag is out of reach states nothing rather than its untrimmed 46080 frames")
    }

    /// `bytes` written to a file in `folder`, opened as an input.
    static func input(_ bytes: [UInt8], in folder: TemporaryFolder) throws -> AudioInput {
        let path = folder.file("input")
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return try AudioInput(path: path)
    }

    /// `bytes` through a pipe, opened as an input on its reading end.
    static func pipeInput(_ bytes: [UInt8]) throws -> AudioInput {
        let pipe = Pipe()
        try pipe.fileHandleForWriting.write(contentsOf: Data(bytes))
        try pipe.fileHandleForWriting.close()
        return try AudioInput(fileDescriptor: pipe.fileHandleForReading.fileDescriptor, path: "-")
    }

    @Test func headersPastTheHeadAreReadWhereTheyLieInAFile() throws {
        let folder = try TemporaryFolder()
        let tagged = Self.id3v2(size: 100_000) + Self.infoFrame
        let file = try Self.input(tagged, in: folder)
        #expect(HeaderLength.statedFrames(file.head) == nil, "the head holds only the tag")
        #expect(HeaderLength.statedFrames(file) == 44_504, "the Info header read past a 100 KB tag")
        #expect(HeaderLength.statedFrames(try Self.pipeInput(Array(tagged.prefix(20_000)))) == nil, "a pipe is not read twice")

        let lameTagCut = Self.id3v2(size: 4000) + Self.infoFrame
        #expect(HeaderLength.statedFrames(try Self.input(lameTagCut, in: folder)) == 44_504)
        #expect(HeaderLength.statedFrames(try Self.pipeInput(lameTagCut)) == nil)

        var wave = WaveFile.bytes(channels: 2, sampleRate: 44_100, data: [UInt8](repeating: 0, count: 4 * 1000))
        let list = Array("LIST".utf8) + [0x10, 0x27, 0, 0] + [UInt8](repeating: 0x20, count: 10_000)
        wave.insert(contentsOf: list, at: 36)
        #expect(HeaderLength.statedFrames(try Self.input(wave, in: folder)) == 1000, "a data chunk after a 10 KB LIST chunk")
        #expect(HeaderLength.statedFrames(Array(wave.prefix(AudioInput.headSize))) == nil)
    }

    /// A 1000-frame stereo 16-bit WAV cut by 20 bytes, then tagged: its data ends where the
    /// tag starts, 995 frames in; a whole WAV tagged after its data, and a pipe, have no such end.
    @Test func aWaveCutBeforeAnID3v1TagEndsThere() throws {
        let folder = try TemporaryFolder()
        let whole = WaveFile.bytes(channels: 2, sampleRate: 44_100, data: [UInt8](repeating: 0, count: 4 * 1000))
        let tag = Array("TAG".utf8) + [UInt8](repeating: 0x41, count: 125)
        let cut = try Self.input(Array(whole.dropLast(20)) + tag, in: folder)
        let start = try #require(ID3v1Tag.start(in: cut))
        #expect(start == Int64(whole.count - 20))
        #expect(HeaderLength.waveFrames(before: start, cut) == 995)
        let tagged = try Self.input(whole + tag, in: folder)
        #expect(ID3v1Tag.start(in: tagged) == Int64(whole.count))
        #expect(HeaderLength.waveFrames(before: Int64(whole.count), tagged) == nil, "the data ends before the tag")
        #expect(ID3v1Tag.start(in: try Self.pipeInput(Array(whole.dropLast(20)) + tag)) == nil)
        #expect(ID3v1Tag.start(in: try Self.input(whole, in: folder)) == nil)
    }

    @Test func anMP3WithoutAXingHeaderStatesNothing() {
        #expect(HeaderLength.statedFrames([0xFF, 0xFB, 0x90, 0x64] + [UInt8](repeating: 0, count: 400)) == nil)
        #expect(HeaderLength.statedFrames(Array("not audio at all".utf8)) == nil)
    }

    /// A CAF of `chunks` (type and body) after its file header.
    static func caf(_ chunks: [(String, [UInt8])]) -> [UInt8] {
        func bigEndian(_ value: UInt64, _ count: Int) -> [UInt8] { (0..<count).reversed().map { UInt8(truncatingIfNeeded: value >> UInt64($0 * 8)) } }
        return Array("caff".utf8) + [0, 1, 0, 0] + chunks.flatMap { type, body in Array(type.utf8) + bigEndian(UInt64(body.count), 8) + body }
    }

    /// A `desc` chunk's body: 44.1 kHz, `format`, `bytesPerPacket`, `framesPerPacket`, 2 channels.
    static func description(_ format: String, bytesPerPacket: UInt32, framesPerPacket: UInt32) -> [UInt8] {
        func bigEndian(_ value: UInt32) -> [UInt8] { [24, 16, 8, 0].map { UInt8((value >> $0) & 0xFF) } }
        let rate = (44_100.0).bitPattern
        return (0..<8).reversed().map { UInt8((rate >> UInt64($0 * 8)) & 0xFF) } + Array(format.utf8) + bigEndian(0)
            + bigEndian(bytesPerPacket) + bigEndian(framesPerPacket) + bigEndian(2) + bigEndian(16)
    }

    @Test func aCAFStatesItsDataOverItsPacketsOrItsPacketTable() {
        let pcm = Self.caf([("desc", Self.description("lpcm", bytesPerPacket: 4, framesPerPacket: 1)), ("free", [0, 0, 0]),
                            ("data", [0, 0, 0, 0] + [UInt8](repeating: 0, count: 4 * 1_000))])
        #expect(HeaderLength.statedFrames(pcm) == 1_000)
        var open = pcm
        open.replaceSubrange((8 + 12 + 32 + 12 + 3 + 4)..<(8 + 12 + 32 + 12 + 3 + 12), with: [UInt8](repeating: 0xFF, count: 8))
        #expect(HeaderLength.statedFrames(open) == nil, "a data size of -1 leaves the length open")
        let pakt: [UInt8] = [0, 0, 0, 0, 0, 0, 0, 3] + [0, 0, 0, 0, 0, 0, 0x2F, 0xA0] + [0, 0, 0, 0, 0, 0, 0, 0]
        let alac = Self.caf([("desc", Self.description("alac", bytesPerPacket: 0, framesPerPacket: 4_096)), ("pakt", pakt),
                             ("data", [0, 0, 0, 0] + [UInt8](repeating: 0, count: 300))])
        #expect(HeaderLength.statedFrames(alac) == 12_192, "the packet table's valid frames")
        let noTable = Self.caf([("desc", Self.description("alac", bytesPerPacket: 0, framesPerPacket: 4_096)), ("data", [0, 0, 0, 0])])
        #expect(HeaderLength.statedFrames(noTable) == nil)
    }
}
