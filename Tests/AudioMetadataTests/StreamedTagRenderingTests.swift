import AudioMetadata
import Foundation
import TestSupport
import Testing

/// Tags rendered for an encoder to write before its audio: Vorbis comments and FLAC picture
/// blocks built here, an MP3's ID3v2 tag by TagLib; and what each form cannot hold.
@Suite struct StreamedTagRenderingTests {
    static let cover = Picture(kind: .frontCover, mimeType: "image/png", description: "Cover", data: Data(TaggedFiles.png),
                               dimensions: Picture.Dimensions(width: 1, height: 1, colourDepth: 24))

    @Test func vorbisCommentsTakeThePropertyNamesAndSplitTheTrackTotal() throws {
        let metadata = FileMetadata(tags: Tags([("TITLE", "Song"), ("ARTIST", "First"), ("ARTIST", "Second"), ("TRACKNUMBER", "3/12")]))
        let streamed = try #require(try StreamedTags.rendering(metadata, as: .oggOpus, path: "out.opus"))
        #expect(streamed.comments == ["TITLE=Song", "ARTIST=First", "ARTIST=Second", "TRACKNUMBER=3", "TRACKTOTAL=12"])
        #expect(streamed.loss == nil && streamed.id3v2.isEmpty)
    }

    @Test func aKeyNoVorbisCommentCanNameIsLost() throws {
        let metadata = FileMetadata(tags: Tags([("TITLE", "Song"), ("A~B", "odd"), ("C=D", "odd")]))
        let streamed = try #require(try StreamedTags.rendering(metadata, as: .flac, path: "out.flac"))
        #expect(streamed.comments == ["TITLE=Song"])
        #expect(streamed.loss?.description == "out.flac: tags not kept: A~B, C=D")
    }

    @Test func aPictureBlockStatesItsKindTypeDescriptionAndSize() throws {
        let streamed = try #require(try StreamedTags.rendering(FileMetadata(pictures: [Self.cover]), as: .flac, path: "out.flac"))
        let block = Array(try #require(streamed.pictureBlocks.first).joined())
        func big32(_ at: Int) -> Int { (0..<4).reduce(0) { $0 << 8 | Int(block[at + $1]) } }
        #expect(big32(0) == 3)
        #expect(big32(4) == 9 && Array(block[8..<17]) == Array("image/png".utf8))
        #expect(big32(17) == 5 && Array(block[21..<26]) == Array("Cover".utf8))
        #expect([big32(26), big32(30), big32(34), big32(38)] == [1, 1, 24, 0] as [Int])
        #expect(big32(42) == TaggedFiles.png.count && Array(block[46...]) == TaggedFiles.png)
        let bytes = try #require(streamed.pictureBlocks.first?.last)
        #expect(bytes.withUnsafeBytes { $0.baseAddress } == Self.cover.data.withUnsafeBytes { $0.baseAddress },
                "the block's image is the picture's own storage, not a copy")
    }

    @Test func aFLACPicturePastSixteenMebibytesIsLeftOutAndNamed() throws {
        let huge = Picture(kind: .frontCover, mimeType: "image/jpeg", data: Data(repeating: 1, count: 1 << 24))
        let streamed = try #require(try StreamedTags.rendering(FileMetadata(tags: Tags([("TITLE", "Big")]), pictures: [huge]), as: .flac, path: "out.flac"))
        #expect(streamed.pictureBlocks.isEmpty && streamed.comments == ["TITLE=Big"])
        #expect(streamed.loss?.description == "out.flac: cover art not kept: 1 picture (a FLAC picture block holds at most 16 MiB)")
        let ogg = try #require(try StreamedTags.rendering(FileMetadata(pictures: [huge]), as: .oggVorbis, path: "out.ogg"))
        #expect(ogg.pictureBlocks.count == 1 && ogg.loss == nil, "an Ogg comment has no such limit")
    }

    @Test func anMP3GetsAnID3v2TagFromTagLibAndNoneWhenThereIsNothing() throws {
        let metadata = FileMetadata(tags: Tags([("TITLE", "Song"), ("TRACKNUMBER", "3"), ("TRACKTOTAL", "12")]), pictures: [Self.cover])
        let streamed = try #require(try StreamedTags.rendering(metadata, as: .mpeg, path: "out.mp3"))
        let frames = try #require(Self.id3v2Frames(Array(streamed.id3v2.joined())))
        #expect(frames.version == 4, "an ID3v2.4 tag")
        #expect(frames.bodies["TIT2"] == [3] + Array("Song".utf8) || frames.bodies["TIT2"] == [0] + Array("Song".utf8))
        #expect(frames.bodies["TRCK"].map { Array($0.dropFirst()) } == Array("3/12".utf8))
        #expect(frames.bodies["APIC"] == [3] + Array("image/png".utf8) + [0, 3] + Array("Cover".utf8) + [0] + TaggedFiles.png)
        #expect(streamed.loss == nil)
        let empty = try #require(try StreamedTags.rendering(FileMetadata(), as: .mpeg, path: "out.mp3"))
        #expect(empty.id3v2.isEmpty, "no tag at all, not an empty one")
    }

    @Test func anMP3TagWritesItsPicturesFromTheirOwnBytesNotACopy() throws {
        let unicode = Picture(kind: Picture.Kind(4), mimeType: "image/jpeg", description: "Рисунок 封面", data: Data(repeating: 9, count: 300_000))
        let streamed = try #require(try StreamedTags.rendering(FileMetadata(pictures: [Self.cover, unicode]), as: .mpeg, path: "out.mp3"))
        let pieces = streamed.id3v2.filter { $0.count == unicode.data.count }
        #expect(pieces.count == 1 && pieces[0].withUnsafeBytes { $0.baseAddress } == unicode.data.withUnsafeBytes { $0.baseAddress },
                "the tag's piece is the picture's own storage")
        let frames = try #require(Self.id3v2Frames(Array(streamed.id3v2.joined())))
        #expect(frames.bodies["APIC"] == [3] + Array("image/jpeg".utf8) + [0, 4] + Array("Рисунок 封面".utf8) + [0] + [UInt8](repeating: 9, count: 300_000),
                "the last APIC frame: UTF-8 description, back cover")
        #expect(frames.padding > 0, "TagLib's padding stays after the pictures, for a tagger to edit in place")
    }

    /// The version, each frame's body by ID (the last of an ID given twice) and the padding of
    /// the ID3v2 tag `bytes`, whose header must state its size exactly; nil when it does not.
    static func id3v2Frames(_ bytes: [UInt8]) -> (version: UInt8, bodies: [String: [UInt8]], padding: Int)? {
        func synchsafe(_ at: Int) -> Int { bytes[at..<(at + 4)].reduce(0) { $0 << 7 | Int($1) } }
        guard bytes.count >= 10, bytes.starts(with: Array("ID3".utf8)), synchsafe(6) == bytes.count - 10 else { return nil }
        var bodies: [String: [UInt8]] = [:]
        var at = 10
        while at + 10 <= bytes.count, bytes[at] != 0 {
            let size = synchsafe(at + 4)
            guard at + 10 + size <= bytes.count else { return nil }
            bodies[String(decoding: bytes[at..<(at + 4)], as: UTF8.self)] = Array(bytes[(at + 10)..<(at + 10 + size)])
            at += 10 + size
        }
        guard bytes[at...].allSatisfy({ $0 == 0 }) else { return nil }
        return (bytes[3], bodies, bytes.count - at)
    }

    @Test func formatsWhoseTagsGoIntoTheFinishedFileHaveNone() throws {
        for format in [TagFormat.mp4, .wav, .aiff, .oggFLAC] {
            #expect(try StreamedTags.rendering(FileMetadata(tags: Tags([("TITLE", "Song")])), as: format, path: "out") == nil)
        }
    }
}
