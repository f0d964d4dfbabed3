import FLACFormats
import Testing
import TestSupport

/// A FLAC's `CUESHEET` block, written by metaflac (`fixtures/chapters/cuesheet.flac`), read as markers.
@Suite struct FLACCueSheetTests {
    @Test func tracksAreRegionsToTheNextTrackAndOtherIndicesPoints() throws {
        let sheet = try #require(FLACCueSheet.read(path: fixture("chapters/cuesheet.flac")))
        #expect(sheet.tracks.map(\.number) == [1, 2, 3, 255], "the lead-out of a cue sheet that is not CD-DA is track 255")
        let markers = sheet.markers
        #expect(markers.map(\.frame) == [0, 5_600, 6_000, 16_000])
        #expect(markers.map(\.length) == [5_600, 0, 10_000, 8_000])
        #expect(markers.map(\.label) == ["Track 01", "Track 02 index 0", "Track 02", "Track 03"])
    }

    @Test func aFLACWithoutACueSheetHasNone() {
        #expect(FLACCueSheet.read(path: fixture("music.flac")) == nil)
        #expect(FLACCueSheet.read(path: fixture("music.wav")) == nil)
    }
}
