import AudioMetadata
import Foundation
import Testing

@Suite struct TagsTests {
    @Test func aKeyGivenTwiceKeepsBothValuesInOrderAndKeysKeepTheirOrder() {
        let tags = Tags([("TITLE", "Song"), ("ARTIST", "First"), ("GENRE", "Jazz"), ("ARTIST", "Second")])
        #expect(tags.keys == ["TITLE", "ARTIST", "GENRE"])
        #expect(tags["ARTIST"] == ["First", "Second"])
        #expect(tags.pairs.map(\.value) == ["Song", "First", "Second", "Jazz"])
    }

    @Test func keysAreUpperCaseAndAnEmptyListRemovesAKey() {
        var tags = Tags([("title", "Song"), ("Album", "Record")])
        #expect(tags.keys == ["TITLE", "ALBUM"])
        #expect(tags["album"] == ["Record"])
        tags["title"] = []
        #expect(tags.keys == ["ALBUM"])
        tags["DATE"] = ["2021"]
        #expect(tags.keys == ["ALBUM", "DATE"])
        #expect(!tags.isEmpty)
        #expect(Tags().isEmpty)
    }

    @Test func pictureKindsAreNamedAsID3v2NamesThem() {
        #expect(Picture.Kind.frontCover.description == "front cover")
        #expect(Picture.Kind(4).description == "back cover")
        #expect(Picture.Kind(20).description == "publisher logotype")
        #expect(Picture.Kind(21).description == "type 21")
    }
}

@Suite struct TagMappingTests {
    @Test func numbersAndTotalsAreJoinedForID3v2AndMP4() {
        let vorbis = Tags([("TRACKNUMBER", "3"), ("TRACKTOTAL", "12"), ("DISCNUMBER", "1"), ("TOTALDISCS", "2"), ("TITLE", "Song")])
        for system in [TagSystem.id3v2, .mp4] {
            let mapped = TagMapping.tags(vorbis, for: system)
            #expect(mapped["TRACKNUMBER"] == ["3/12"])
            #expect(mapped["DISCNUMBER"] == ["1/2"])
            #expect(mapped.keys == ["TRACKNUMBER", "DISCNUMBER", "TITLE"])
        }
    }

    @Test func aJoinedNumberIsSplitForVorbisComments() {
        let id3 = Tags([("TRACKNUMBER", "3/12"), ("DISCNUMBER", "2/")])
        let mapped = TagMapping.tags(id3, for: .vorbisComments)
        #expect(mapped["TRACKNUMBER"] == ["3"])
        #expect(mapped["TRACKTOTAL"] == ["12"])
        #expect(mapped["DISCNUMBER"] == ["2"])
        #expect(mapped["DISCTOTAL"].isEmpty)
    }

    @Test func aNumberWithoutATotalAndOtherKeysAreLeftAsTheyAre() {
        let tags = Tags([("TRACKNUMBER", "7"), ("COMMENT", "3/4 time")])
        for system in [TagSystem.id3v2, .mp4, .vorbisComments] {
            #expect(TagMapping.tags(tags, for: system) == tags)
        }
    }
}

extension TagMappingTests {
    @Test func whatDescribesTheInputsEncodingIsNotCarried() {
        let tags = Tags([("TITLE", "Song"), ("ENCODING", "LAME 3.100"), ("LENGTH", "1000"), ("ENCODER", "libsndfile"), ("ENCODEDBY", "Me")])
        #expect(TagMapping.carried(tags).keys == ["TITLE", "ENCODEDBY"])
    }
}

@Suite struct MetadataLossTests {
    @Test func anOutputThatHoldsNoneNamesWhatItDrops() {
        let metadata = FileMetadata(tags: Tags([("TITLE", "Song")]), pictures: [Picture(kind: .frontCover, mimeType: "image/png", data: Data([1, 2]))])
        let loss = MetadataLoss(path: "out.au", dropping: metadata, because: "AU holds no tags")
        #expect(loss.description == "out.au: tags and cover art not kept: AU holds no tags")
        let tagsOnly = MetadataLoss(path: "out.au", dropping: FileMetadata(tags: Tags([("TITLE", "Song")])), because: "AU holds no tags")
        #expect(tagsOnly.description == "out.au: tags not kept: AU holds no tags")
        #expect(!tagsOnly.isEmpty)
    }
}
