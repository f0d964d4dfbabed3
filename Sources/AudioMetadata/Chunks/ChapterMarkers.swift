/// An ID3v2 chapter as its `CHAP` frame states it: element ID, times in milliseconds, title
/// (`TIT2`) and description (`TIT3`), and whether a table of contents (`CTOC`) lists it.
struct ChapterFrame: Equatable, Sendable {
    var elementID: String
    var startMilliseconds: UInt32
    var endMilliseconds: UInt32
    var title: String
    var note: String
    var isListed = true
}

/// ID3v2 chapters read as markers and markers written as chapters: a chapter is a region from its
/// start to its end, labelled by its title, its description the marker's note; a point becomes a
/// chapter that ends where the next marker starts, or at the end of the file.
///
/// Chapters state milliseconds and markers frames, so a file's chapters are placed at its rate,
/// each time rounded to the nearest frame (and back to the nearest millisecond).
enum ChapterMarkers {
    /// The markers of `chapters` at `rate` frames a second, in the order of their positions, and
    /// what of them is damaged, in words: a chapter that ends before it starts is left out, one
    /// no table of contents lists is kept, a listed element ID no frame holds is named.
    static func markers(of chapters: [ChapterFrame], dangling: [String], rate: Double) -> (markers: [Marker], damage: [String]) {
        guard !chapters.isEmpty else { return ([], dangling.map(danglingReason)) }
        guard rate > 0 else { return ([], ["\(ChunkLoss.count(chapters.count, "chapter")) not read: the audio's sample rate is unknown"]) }
        var markers: [Marker] = []
        var damage: [String] = []
        for chapter in chapters {
            guard chapter.endMilliseconds >= chapter.startMilliseconds else {
                damage.append("chapter \"\(chapter.elementID)\" ends at \(chapter.endMilliseconds) ms, before its start at \(chapter.startMilliseconds) ms: left out")
                continue
            }
            if !chapter.isListed { damage.append("chapter \"\(chapter.elementID)\" is in no table of contents: kept") }
            let start = frame(chapter.startMilliseconds, rate: rate)
            markers.append(Marker(frame: start, length: frame(chapter.endMilliseconds, rate: rate) - start, label: chapter.title, note: chapter.note))
        }
        return (markers.sorted { $0.frame < $1.frame }, damage + dangling.map(danglingReason))
    }

    /// The chapters of `markers` (in frames at `rate`) in a file of `frames` frames, numbered
    /// `chp0`, `chp1`, … in the order of their positions.
    static func chapters(of markers: [Marker], rate: Double, frames: Int64) -> [ChapterFrame] {
        Marker.chapterSpans(of: markers, frames: frames).enumerated().map { index, span in
            ChapterFrame(elementID: "chp\(index)", startMilliseconds: milliseconds(span.marker.frame, rate: rate),
                         endMilliseconds: milliseconds(span.end, rate: rate), title: span.marker.label, note: span.marker.note)
        }
    }

    private static func danglingReason(_ id: String) -> String { "the table of contents lists \"\(id)\", which no chapter frame holds" }

    private static func frame(_ milliseconds: UInt32, rate: Double) -> Int64 { Int64((Double(milliseconds) * rate / 1000).rounded()) }

    private static func milliseconds(_ frame: Int64, rate: Double) -> UInt32 { UInt32(clamping: Int64((Double(frame) * 1000 / rate).rounded())) }
}

extension Marker {
    /// `markers` in the order of their positions, each with the frame after its last as a chapter
    /// in a file of `frames` frames: a region's own end; a point's where the next marker starts,
    /// or the file's end.
    static func chapterSpans(of markers: [Marker], frames: Int64) -> [(marker: Marker, end: Int64)] {
        let sorted = markers.sorted { $0.frame < $1.frame }
        return sorted.enumerated().map { index, marker in
            (marker, marker.isRegion ? marker.frame + marker.length
                : sorted[(index + 1)...].first { $0.frame > marker.frame }?.frame ?? max(frames, marker.frame))
        }
    }
}
