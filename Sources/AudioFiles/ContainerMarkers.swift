import AudioFormats
#if FFmpeg
import FFmpegFormats
#endif
import FLACFormats

/// The markers a file's container holds beside chunks and tags: a FLAC's `CUESHEET` (read by
/// libFLAC) and an MPEG-4 file's chapters (read by FFmpeg, when the build has it, less the
/// untitled one a chapter track needs before a first chapter that starts later), each a region
/// in frames at the file's rate, for a render to carry; and what a FLAC output's cue sheet holds.
public enum ContainerMarkers {
    /// The tracks a FLAC output's cue sheet holds (its encoder writes one at each marker).
    public static let flacCueSheetTrackLimit = FLACCueSheet.trackLimit

    /// The markers of the file at `path`, chosen by its first bytes, in the order of their
    /// positions; none for a file of another format or one that holds none.
    public static func read(path: String) -> [(frame: Int64, length: Int64, label: String, note: String)] {
        guard let head = (try? AudioInput(path: path, headBytes: 12))?.head, head.count >= 8 else { return [] }
        if head.starts(with: Array("fLaC".utf8)) { return FLACCueSheet.read(path: path)?.markers ?? [] }
        #if FFmpeg
        if Array(head[4..<8]) == Array("ftyp".utf8) {
            let chapters = FFmpegChapters.markers(path: path)
            // A chapter track covers its file from the start, so a writer puts an untitled chapter
            // before a first one that starts later (aurender's encoder does): that is no marker.
            let filler = chapters.count > 1 && chapters[0].frame == 0 && chapters[0].label.isEmpty
            return chapters.dropFirst(filler ? 1 : 0).map { ($0.frame, $0.length, $0.label, "") }
        }
        #endif
        return []
    }
}
