import AudioFormats
import Foundation
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where the metadata a format places before its audio ends, read from bytes built here, and a
/// pipe's head that takes it in without losing a byte for the decoder.
@Suite struct LeadingMetadataTests {
    private func ascii(_ text: String) -> [UInt8] { Array(text.utf8) }
    private func big32(_ value: Int) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: value >> (24 - 8 * $0)) } }
    private func little32(_ value: Int) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }

    /// An ID3v2.4 tag of `body` bytes (syncsafe size), with a footer when asked.
    private func id3(body: Int, footer: Bool = false) -> [UInt8] {
        let size = (0..<4).map { UInt8((body >> (21 - 7 * $0)) & 0x7F) }
        return ascii("ID3") + [4, 0, footer ? 0x10 : 0] + size + [UInt8](repeating: 0, count: body) + (footer ? ascii("3DI") + [UInt8](repeating: 0, count: 7) : [])
    }

    /// `fLaC` with a STREAMINFO block and a last block of `padding` bytes.
    private func flac(padding: Int) -> [UInt8] {
        ascii("fLaC") + [0, 0, 0, 34] + [UInt8](repeating: 1, count: 34) + [0x81] + Array(big32(padding).suffix(3)) + [UInt8](repeating: 0, count: padding)
    }

    /// An Ogg page holding packets of the given lengths (each under 255 bytes, so one lacing value each).
    private func oggPage(_ packets: [Int]) -> [UInt8] {
        ascii("OggS") + [UInt8](repeating: 0, count: 22) + [UInt8(packets.count)] + packets.map { UInt8($0) }
            + packets.flatMap { [UInt8](repeating: 7, count: $0) }
    }

    private let frames = [UInt8](repeating: 0xFF, count: 100)

    @Test func anID3v2TagEndsAfterItsStatedSizeAndFooter() {
        #expect(LeadingMetadata.extent(id3(body: 300) + frames) == .complete(length: 310, audioSizeField: nil))
        #expect(LeadingMetadata.extent(id3(body: 300, footer: true) + frames) == .complete(length: 320, audioSizeField: nil))
        #expect(LeadingMetadata.extent(Array(id3(body: 300).prefix(40))) == .needs(length: 314), "the tag and a look past it")
        var damaged = id3(body: 300) + frames
        damaged[6] |= 0x80
        #expect(LeadingMetadata.extent(damaged) == .damaged(reason: "the size of its ID3v2 tag is damaged"))
    }

    @Test func flacEndsAtTheBlockFlaggedLastEvenBehindAnID3v2Tag() {
        #expect(LeadingMetadata.extent(flac(padding: 5000) + frames) == .complete(length: 4 + 38 + 4 + 5000, audioSizeField: nil))
        #expect(LeadingMetadata.extent(Array(flac(padding: 5000).prefix(4096))) == .needs(length: 5046))
        #expect(LeadingMetadata.extent(id3(body: 20) + flac(padding: 10) + frames) == .complete(length: 30 + 56, audioSizeField: nil))
    }

    @Test func oggEndsWithThePageThatCompletesTheSecondPacket() {
        let first = oggPage([30]), second = oggPage([200, 100]), audio = oggPage([50])
        #expect(LeadingMetadata.extent(first + second + audio) == .complete(length: first.count + second.count, audioSizeField: nil))
        #expect(LeadingMetadata.extent(first + Array(second.prefix(40))) == .needs(length: first.count + second.count))
    }

    @Test func oggFLACEndsWithThePageThatCompletesEveryMetadataBlockItsFirstPacketCounts() {
        let mapping: [UInt8] = [0x7F] + ascii("FLAC") + [1, 0, 0, 3] + ascii("fLaC") + [UInt8](repeating: 0, count: 38)
        let first = ascii("OggS") + [UInt8](repeating: 0, count: 22) + [1, UInt8(mapping.count)] + mapping
        let comment = oggPage([40, 30]), picture = oggPage([20]), audio = oggPage([50])
        #expect(LeadingMetadata.extent(first + comment + picture + audio) == .complete(length: first.count + comment.count + picture.count, audioSizeField: nil))
    }

    @Test func chunkedFilesEndAtTheHeaderOfTheirAudioChunk() {
        let wave = BroadcastWaveFiles.wave(samples: [1, 2, 3, 4], sampleRate: 8000,
                                           before: [.init("bext", [UInt8](repeating: 0, count: 602)), .init("LIST", ascii("INFOINAM") + little32(2) + ascii("A\0"))])
        let dataAt = 12 + 24 + 610 + 22
        #expect(LeadingMetadata.extent(wave) == .complete(length: dataAt + 8, audioSizeField: .init(offset: dataAt + 4, width: 4, littleEndian: true)))
        var aiff: [UInt8] = ascii("FORM") + big32(4 + 26 + 16 + 8) + ascii("AIFF")
        aiff += ascii("COMM") + big32(18) + [UInt8](repeating: 0, count: 18)
        aiff += ascii("ID3 ") + big32(8) + [UInt8](repeating: 0, count: 8)
        aiff += ascii("SSND") + big32(8) + [UInt8](repeating: 0, count: 8)
        #expect(LeadingMetadata.extent(aiff) == .complete(length: 12 + 26 + 16 + 8, audioSizeField: .init(offset: 12 + 26 + 16 + 4, width: 4, littleEndian: false)))
        let guid: (String) -> [UInt8] = { self.ascii($0) + [UInt8](repeating: 0, count: 12) }
        var wave64: [UInt8] = [0x72, 0x69, 0x66, 0x66, 0x2E, 0x91, 0xCF, 0x11] + [UInt8](repeating: 0, count: 16)
        wave64 += guid("wave")
        wave64 += guid("fmt ") + little32(24 + 16) + [0, 0, 0, 0] + [UInt8](repeating: 0, count: 16)
        wave64 += guid("data") + little32(24 + 4) + [0, 0, 0, 0] + [1, 2, 3, 4]
        #expect(LeadingMetadata.extent(wave64) == .complete(length: 40 + 40 + 24, audioSizeField: .init(offset: 40 + 40 + 16, width: 8, littleEndian: true)))
    }

    @Test func otherBytesHoldNothingBeforeTheirAudio() {
        #expect(LeadingMetadata.extent(frames) == .none)
        #expect(LeadingMetadata.extent([]) == .none)
    }

    /// Writes `bytes` into a new pipe on a thread of their own; its read end.
    private func pipe(of bytes: [UInt8]) -> Int32 {
        var ends: [Int32] = [0, 0]
        _ = Glibc.pipe(&ends)
        let writeEnd = ends[1]
        Thread {
            var done = 0
            while done < bytes.count {
                let wrote = bytes.withUnsafeBytes { write(writeEnd, $0.baseAddress! + done, bytes.count - done) }
                if wrote <= 0 { break }
                done += wrote
            }
            close(writeEnd)
        }.start()
        return ends[0]
    }

    /// Every byte of `input` from its first, as a decoder reads it.
    private func allBytes(of input: AudioInput) throws -> [UInt8] {
        let source = try InputBytes(input: input)
        var bytes: [UInt8] = [], chunk = [UInt8](repeating: 0, count: 3000)
        while true {
            let got = chunk.withUnsafeMutableBytes { source.read($0.baseAddress!, count: $0.count) }
            if got == 0 { return bytes }
            bytes += chunk[0..<got]
        }
    }

    @Test func aPipesHeadTakesTheLeadingMetadataAndTheDecoderStillGetsEveryByte() throws {
        let file = flac(padding: 20_000) + [UInt8](repeating: 0xAB, count: 9000)
        let descriptor = pipe(of: file)
        defer { close(descriptor) }
        let input = try AudioInput(fileDescriptor: descriptor, path: "-", leadingMetadataLimit: 1 << 20)
        #expect(input.leadingMetadata == .whole(length: 20_046, audioSizeField: nil))
        #expect(input.head.count == 20_046)
        #expect(try allBytes(of: input) == file)
    }

    @Test func metadataPastTheLimitIsNotTakenAndTheDecoderStillGetsEveryByte() throws {
        let file = flac(padding: 20_000) + [UInt8](repeating: 0xAB, count: 9000)
        let descriptor = pipe(of: file)
        defer { close(descriptor) }
        let input = try AudioInput(fileDescriptor: descriptor, path: "-", leadingMetadataLimit: 10_000)
        #expect(input.leadingMetadata == .tooLarge(limit: 10_000))
        #expect(input.head.count == AudioInput.headSize)
        #expect(try allBytes(of: input) == file)
    }

    @Test func withoutALimitAPipesHeadIsTheSniffersAlone() throws {
        let file = flac(padding: 20_000)
        let descriptor = pipe(of: file)
        defer { close(descriptor) }
        let input = try AudioInput(fileDescriptor: descriptor, path: "-")
        #expect(input.leadingMetadata == nil)
        #expect(input.head.count == AudioInput.headSize)
        #expect(try allBytes(of: input) == file)
    }
}
