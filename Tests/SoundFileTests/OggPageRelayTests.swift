import AudioFormats
import Foundation
import SoundFile
import TestSupport
import Testing

/// libsndfile's Ogg streams pass through a page relay: written front to back, so a file open
/// only for writing (standard output sent to a file) and a pipe get the same bytes as a file,
/// with aurender's serial number and the comment header given in place of libsndfile's.
@Suite struct OggPageRelayTests {
    /// One second of stereo noise as `encoding`, written to `path` opened for writing only, with `tags`.
    static func encode(_ encoding: AudioEncoding, rate: Int, tags: LeadingTags?, to path: String) throws -> [UInt8] {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        try #require(descriptor >= 0)
        var settings = EncoderSettings()
        settings.leadingTags = tags
        let encoder = try LibSndfileFormats().makeEncoder(fileDescriptor: descriptor, path: path, container: .ogg, encoding: encoding,
                                                          sampleRate: rate, channelCount: 2, settings: settings)
        let noise = Signal.noise(frames: rate * 2, amplitude: 0.5)
        try noise.withUnsafeBufferPointer { try encoder.write($0.baseAddress!, frames: rate) }
        try encoder.finish()
        #expect(encoder.wroteLeadingTags == (tags != nil))
        return [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    @Test(arguments: [(AudioEncoding.vorbis, 44_100), (.opus, 48_000)])
    func theCommentHeaderIsReplacedAndEveryPageSealedAgain(encoding: AudioEncoding, rate: Int) throws {
        let folder = try TemporaryFolder()
        let tags = LeadingTags(comments: ["TITLE=Relayed", "ARTIST=" + String(repeating: "x", count: 70_000)])
        let first = try Self.encode(encoding, rate: rate, tags: tags, to: folder.file("a.ogg"))
        let second = try Self.encode(encoding, rate: rate, tags: tags, to: folder.file("b.ogg"))
        #expect(first == second, "the same bytes every run")
        let pages = OggPage.pages(of: first)
        #expect(pages.reduce(0) { $0 + 27 + $1.lacing.count + $1.body.count } == first.count, "whole pages only")
        #expect(pages.allSatisfy { $0.serial == 0x6175_7265 })
        #expect(pages.enumerated().allSatisfy { $0.element.sequence == UInt32($0.offset) })
        #expect(pages.allSatisfy { $0.bytes == first.pageBytes(of: $0, in: pages) }, "every checksum is right")
        let header = pages.prefix(4).flatMap(\.body)
        #expect(header.firstRange(of: Array("TITLE=Relayed".utf8)) != nil)
        #expect(header.firstRange(of: Array("libsndfile".utf8)) == nil, "no ENCODER=libsndfile")
        #expect(pages[1].flags & 1 == 0 && pages[2].flags & 1 == 1, "the 70 kB comment continues onto a second page")
        let reader = try SoundFileReader(path: folder.file("a.ogg"))
        #expect(reader.frameCount == Int64(rate), "libsndfile reads every frame back")
    }

    @Test(arguments: [(AudioEncoding.vorbis, 44_100), (.opus, 48_000)])
    func aPictureGoesIntoTheCommentPacketAsBase64MadePageByPage(encoding: AudioEncoding, rate: Int) throws {
        let folder = try TemporaryFolder()
        let image = Data((0..<300_001).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ $0 >> 9) })
        let block = [Data([0, 0, 0, 3, 0, 0, 0, 9] + Array("image/png".utf8) + [0, 0, 0, 0] + [UInt8](repeating: 0, count: 16) + [0x00, 0x04, 0x93, 0xE1]), image]
        let tags = LeadingTags(comments: ["TITLE=Pictured"], pictures: [block])
        let stream = try Self.encode(encoding, rate: rate, tags: tags, to: folder.file("a.ogg"))
        #expect(try Self.encode(encoding, rate: rate, tags: tags, to: folder.file("b.ogg")) == stream, "the same bytes every run")
        let pages = OggPage.pages(of: stream)
        #expect(pages.enumerated().allSatisfy { $0.element.sequence == UInt32($0.offset) })
        #expect(pages.allSatisfy { $0.bytes == stream.pageBytes(of: $0, in: pages) }, "every checksum is right")
        let comment = try #require(Self.packets(of: pages).dropFirst().first)
        let marker = encoding == .opus ? Array("OpusTags".utf8) : [3] + Array("vorbis".utf8)
        #expect(comment.starts(with: marker))
        let field = Array("METADATA_BLOCK_PICTURE=".utf8) + Array(Data(block.joined()).base64EncodedData())
        let fieldStart = try #require(comment.firstRange(of: field)).lowerBound
        let stated = (0..<4).reduce(0) { $0 | Int(comment[fieldStart - 4 + $1]) << (8 * $1) }
        #expect(stated == field.count, "the field's length is stated before it")
        #expect(comment.count == fieldStart + field.count + (encoding == .vorbis ? 1 : 0), "the picture is the last field, then Vorbis's framing bit")
        let countAt = marker.count + 4 + (0..<4).reduce(0) { $0 | Int(comment[marker.count + $1]) << (8 * $1) }
        #expect((0..<4).reduce(0) { $0 | Int(comment[countAt + $1]) << (8 * $1) } == 2, "two fields: the title and the picture")
        let reader = try SoundFileReader(path: folder.file("a.ogg"))
        #expect(reader.frameCount == Int64(rate), "libsndfile reads every frame back")
    }

    /// The packets `pages` hold, joined across pages by their lacing.
    static func packets(of pages: [OggPage]) -> [[UInt8]] {
        var packets: [[UInt8]] = [], packet: [UInt8] = []
        for page in pages {
            var offset = 0
            for length in page.lacing {
                packet += page.body[offset..<(offset + Int(length))]
                offset += Int(length)
                if length < 255 {
                    packets.append(packet)
                    packet = []
                }
            }
        }
        return packets
    }
}

private extension Array where Element == UInt8 {
    /// The bytes of `page` as they stand in this stream, found by its place among `pages`.
    func pageBytes(of page: OggPage, in pages: [OggPage]) -> [UInt8] {
        var start = 0
        for other in pages {
            let size = 27 + other.lacing.count + other.body.count
            if other == page { return Array(self[start..<(start + size)]) }
            start += size
        }
        return []
    }
}
