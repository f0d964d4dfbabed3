import AudioMetadata
import Foundation
import TestSupport
import Testing

/// Tags rendered for an encoder to write before its audio: Vorbis comments and FLAC picture
/// blocks built here, an MP3's ID3v2 tag by TagLib; and what each form cannot hold.
@Suite struct StreamedTagRenderingTests {
    static let cover = Picture(kind: .frontCover, mimeType: "image/png", description: "Cover", data: TaggedFiles.png,
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
        let block = try #require(streamed.pictureBlocks.first)
        func big32(_ at: Int) -> Int { (0..<4).reduce(0) { $0 << 8 | Int(block[at + $1]) } }
        #expect(big32(0) == 3)
        #expect(big32(4) == 9 && Array(block[8..<17]) == Array("image/png".utf8))
        #expect(big32(17) == 5 && Array(block[21..<26]) == Array("Cover".utf8))
        #expect([big32(26), big32(30), big32(34), big32(38)] == [1, 1, 24, 0] as [Int])
        #expect(big32(42) == TaggedFiles.png.count && Array(block[46...]) == TaggedFiles.png)
    }

    @Test func aFLACPicturePastSixteenMebibytesIsLeftOutAndNamed() throws {
        let huge = Picture(kind: .frontCover, mimeType: "image/jpeg", data: [UInt8](repeating: 1, count: 1 << 24))
        let streamed = try #require(try StreamedTags.rendering(FileMetadata(tags: Tags([("TITLE", "Big")]), pictures: [huge]), as: .flac, path: "out.flac"))
        #expect(streamed.pictureBlocks.isEmpty && streamed.comments == ["TITLE=Big"])
        #expect(streamed.loss?.description == "out.flac: cover art not kept: 1 picture (a FLAC picture block holds at most 16 MiB)")
        let ogg = try #require(try StreamedTags.rendering(FileMetadata(pictures: [huge]), as: .oggVorbis, path: "out.ogg"))
        #expect(ogg.pictureBlocks.count == 1 && ogg.loss == nil, "an Ogg comment has no such limit")
    }

    @Test func anMP3GetsAnID3v2TagFromTagLibAndNoneWhenThereIsNothing() throws {
        let metadata = FileMetadata(tags: Tags([("TITLE", "Song"), ("TRACKNUMBER", "3"), ("TRACKTOTAL", "12")]), pictures: [Self.cover])
        let streamed = try #require(try StreamedTags.rendering(metadata, as: .mpeg, path: "out.mp3"))
        #expect(Array(streamed.id3v2.prefix(4)) == Array("ID3".utf8) + [4], "an ID3v2.4 tag")
        let bytes = streamed.id3v2
        let hasFrame = { (id: String, text: String) in
            bytes.indices.contains { bytes[$0...].starts(with: Array(id.utf8)) } && bytes.indices.contains { bytes[$0...].starts(with: Array(text.utf8)) }
        }
        #expect(hasFrame("TIT2", "Song") && hasFrame("TRCK", "3/12") && hasFrame("APIC", "Cover"))
        #expect(streamed.loss == nil)
        let empty = try #require(try StreamedTags.rendering(FileMetadata(), as: .mpeg, path: "out.mp3"))
        #expect(empty.id3v2.isEmpty, "no tag at all, not an empty one")
    }

    @Test func formatsWhoseTagsGoIntoTheFinishedFileHaveNone() throws {
        for format in [TagFormat.mp4, .wav, .aiff, .oggFLAC] {
            #expect(try StreamedTags.rendering(FileMetadata(tags: Tags([("TITLE", "Song")])), as: format, path: "out") == nil)
        }
    }
}
