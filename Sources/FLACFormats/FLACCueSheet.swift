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

    /// The tracks a cue sheet that is not CD-DA holds before its lead-out (numbered 1 to 254).
    public static let trackLimit = 254

    /// The bytes of a `CUESHEET` block (its header, as the last block, and its body) that is not
    /// CD-DA, with a track at each of `offsets` (in samples, in order, at most `trackLimit`), each
    /// with one index, 1, at its start, and the lead-out at `leadOut`; then, when `room` bytes are
    /// kept for it and it needs fewer, a `PADDING` block over the rest.
    static func block(offsets: [Int64], leadOut: Int64, room: Int? = nil) -> [UInt8] {
        func big(_ value: Int64) -> [UInt8] { (0..<8).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }
        var body = [UInt8](repeating: 0, count: 128) + big(0) + [UInt8](repeating: 0, count: 259) + [UInt8(offsets.count + 1)]
        for (index, offset) in offsets.enumerated() {
            body += big(offset) + [UInt8(index + 1)] + [UInt8](repeating: 0, count: 12 + 14) + [1] + big(0) + [1, 0, 0, 0]
        }
        body += big(leadOut) + [255] + [UInt8](repeating: 0, count: 12 + 14) + [0]
        let spare = (room ?? 0) - 4 - body.count
        guard spare >= 4 else { return FLACStreamHeader.blockHeader(type: 5, length: body.count, isLast: true) + body }
        return FLACStreamHeader.blockHeader(type: 5, length: body.count, isLast: false) + body
            + FLACStreamHeader.blockHeader(type: 1, length: spare - 4, isLast: true) + [UInt8](repeating: 0, count: spare - 4)
    }

    /// The bytes a `CUESHEET` block of `tracks` tracks takes, its header included.
    static func blockSize(tracks: Int) -> Int { 4 + 396 + 48 * tracks + 36 }
}
