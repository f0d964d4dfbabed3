@testable import AudioMetadata
import Testing

/// ID3v2 chapters (milliseconds) read as markers (frames) and markers written back as chapters.
@Suite struct ChapterMarkersTests {
    @Test func chaptersBecomeRegionsRoundedToTheNearestFrame() {
        let read = ChapterMarkers.markers(of: [ChapterFrame(elementID: "b", startMilliseconds: 1_001, endMilliseconds: 2_000, title: "Two", note: "second"),
                                               ChapterFrame(elementID: "a", startMilliseconds: 0, endMilliseconds: 1_001, title: "One", note: "")],
                                          dangling: [], rate: 44_100)
        #expect(read.damage.isEmpty)
        // 1.001 s is 44,144.1 frames: 44,144.
        #expect(read.markers == [Marker(frame: 0, length: 44_144, label: "One"), Marker(frame: 44_144, length: 44_056, label: "Two", note: "second")])
    }

    @Test func damageIsNamedAndWhatCanBeReadIsKept() {
        let read = ChapterMarkers.markers(of: [ChapterFrame(elementID: "x", startMilliseconds: 500, endMilliseconds: 100, title: "", note: ""),
                                               ChapterFrame(elementID: "y", startMilliseconds: 0, endMilliseconds: 100, title: "Y", note: "", isListed: false)],
                                          dangling: ["z"], rate: 1_000)
        #expect(read.markers == [Marker(frame: 0, length: 100, label: "Y")])
        #expect(read.damage == ["chapter \"x\" ends at 100 ms, before its start at 500 ms: left out", "chapter \"y\" is in no table of contents: kept",
                                "the table of contents lists \"z\", which no chapter frame holds"])
        let rateless = ChapterMarkers.markers(of: [ChapterFrame(elementID: "y", startMilliseconds: 0, endMilliseconds: 100, title: "", note: "")],
                                              dangling: [], rate: 0)
        #expect(rateless.markers.isEmpty && rateless.damage == ["1 chapter not read: the audio's sample rate is unknown"])
    }

    @Test func pointsRunToTheNextMarkerOrTheEnd() {
        let chapters = ChapterMarkers.chapters(of: [Marker(frame: 48_000, label: "Late"), Marker(frame: 0, label: "Start"),
                                                    Marker(frame: 24_000, length: 12_000, label: "Region", note: "n")],
                                               rate: 48_000, frames: 96_000)
        #expect(chapters == [ChapterFrame(elementID: "chp0", startMilliseconds: 0, endMilliseconds: 500, title: "Start", note: ""),
                             ChapterFrame(elementID: "chp1", startMilliseconds: 500, endMilliseconds: 750, title: "Region", note: "n"),
                             ChapterFrame(elementID: "chp2", startMilliseconds: 1_000, endMilliseconds: 2_000, title: "Late", note: "")])
    }
}
