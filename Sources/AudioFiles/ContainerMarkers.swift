import AudioFormats
#if FFmpeg
import FFmpegFormats
#endif
import FLACFormats

/// The markers a file's container holds beside chunks and tags: a FLAC's `CUESHEET` (read by
/// libFLAC) and an MPEG-4 file's chapters (read by FFmpeg, when the build has it), each a region
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
            return FFmpegChapters.markers(path: path).map { ($0.frame, $0.length, $0.label, "") }
        }
        #endif
        return []
    }
}
