/// A FLAC file's `CUESHEET` block: its tracks, each with its index points, the last the lead-out;
/// read as markers so a render carries where the tracks start.
///
/// A track is a region from its index 1 (its first index when it has none) to where the next
/// track starts (the lead-out for the last), labelled `Track 02` with its ISRC as the note; every
/// other index (a pregap's index 0) is a point, `Track 02 index 0`. Offsets are in samples, the
/// stream's frames.
public struct FLACCueSheet: Equatable, Sendable {
    /// One track: its offset in samples, number, ISRC ("" when none) and index points, each offset from the track's.
    public struct Track: Equatable, Sendable {
        public var offset: UInt64
        public var number: Int
        public var isrc: String
        public var indices: [Index]
    }

    /// An index point: its offset in samples from its track's, and its number.
    public struct Index: Equatable, Sendable {
        public var offset: UInt64
        public var number: Int
    }

    /// The tracks in the block's order, the lead-out last.
    public var tracks: [Track]

    /// The cue sheet of the FLAC file at `path`; nil when it has none.
    public static func read(path: String) -> FLACCueSheet? { LibFLAC.cueSheet(path: path) }

    /// The tracks and their other indices as markers, in the order of their positions.
    public var markers: [(frame: Int64, length: Int64, label: String, note: String)] {
        guard tracks.count > 1 else { return [] }
        var markers: [(frame: Int64, length: Int64, label: String, note: String)] = []
        for (track, next) in zip(tracks.dropLast(), tracks.dropFirst()) {
            let name = "Track " + (track.number < 10 ? "0" : "") + String(track.number)
            let main = track.indices.first { $0.number == 1 } ?? track.indices.first
            let start = Int64(clamping: track.offset + (main?.offset ?? 0))
            markers.append((start, max(0, Int64(clamping: next.offset) - start), name, track.isrc.isEmpty ? "" : "ISRC \(track.isrc)"))
            for index in track.indices where index.number != main?.number {
                markers.append((Int64(clamping: track.offset + index.offset), 0, "\(name) index \(index.number)", ""))
            }
        }
        return markers.sorted { $0.frame < $1.frame }
    }
}
