import AudioFormats
@testable import FFmpegFormats
import Testing
import TestSupport

/// Markers laid out as an MPEG-4 chapter track holds them (each chapter's length, none's start);
/// and an MPEG-4 file's chapters read back by FFmpeg.
@Suite struct MPEG4ChaptersTests {
    @Test func chaptersFollowOneAnotherFromTheStartToTheEnd() {
        let tiled = MPEG4Chapters.tiled([EncoderChapter(start: 4_000, end: 4_000, title: "Point"),
                                         EncoderChapter(start: 10_000, end: 12_000, title: "Region")], frames: 20_000)
        #expect(tiled == [EncoderChapter(start: 0, end: 4_000, title: ""), EncoderChapter(start: 4_000, end: 10_000, title: "Point"),
                          EncoderChapter(start: 10_000, end: 20_000, title: "Region")])
    }

    @Test func chaptersPastTheEndAreLeftOutAndOneAtTheStartNeedsNoLead() {
        let tiled = MPEG4Chapters.tiled([EncoderChapter(start: 0, end: 100, title: "A"), EncoderChapter(start: 1_000, end: 1_500, title: "Past"),
                                         EncoderChapter(start: 900, end: 900, title: "End")], frames: 900)
        #expect(tiled == [EncoderChapter(start: 0, end: 900, title: "A"), EncoderChapter(start: 900, end: 900, title: "End")])
        #expect(MPEG4Chapters.tiled([EncoderChapter(start: 900, end: 950, title: "Region at the end")], frames: 900).isEmpty)
    }

    @Test func anM4AsChaptersAreReadInFramesAtItsRate() {
        let markers = FFmpegChapters.markers(path: fixture("chapters/chapters.m4a"))
        #expect(markers.map(\.frame) == [0, 6_000, 16_000])
        #expect(markers.map(\.length) == [6_000, 10_000, 8_000])
        #expect(markers.map(\.label) == ["Intro", "Verse", "Outro"])
        #expect(FFmpegChapters.markers(path: fixture("ffmpeg/aac.m4a")).isEmpty)
    }
}
