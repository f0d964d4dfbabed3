import AudioFormats

/// Chapters as an MPEG-4 file holds them: its chapter track states each chapter's length and
/// none's start, so they follow one another from the file's start to its end.
enum MPEG4Chapters {
    /// `chapters` (in the order of their starts) in a file of `frames` frames, as its chapter
    /// track can hold them: those that start past its end left out (a region that starts at it
    /// too), an untitled chapter before the first when it starts later than the file, and each
    /// running on to the next, the last to the end.
    static func tiled(_ chapters: [EncoderChapter], frames: Int64) -> [EncoderChapter] {
        let kept = chapters.filter { $0.start < frames || ($0.start == frames && $0.end == $0.start) }.sorted { $0.start < $1.start }
        guard let first = kept.first else { return [] }
        let lead = first.start > 0 ? [EncoderChapter(start: 0, end: first.start, title: "")] : []
        return lead + kept.enumerated().map { index, chapter in
            EncoderChapter(start: chapter.start, end: index + 1 < kept.count ? kept[index + 1].start : frames, title: chapter.title)
        }
    }
}
