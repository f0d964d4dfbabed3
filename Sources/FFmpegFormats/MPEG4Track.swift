import AudioFormats

/// One track of an MPEG-4 file as its index (the `moov` atom) describes it, read by aurender
/// rather than through FFmpeg: whether an edit list says which of its samples are audio, the
/// iTunes gapless statement (`iTunSMPB`) that applies to it, and where its samples' bytes end.
///
/// FFmpeg's duration for a track without an edit list is its sample table's total, which
/// counts the encoder's priming and padding, so it is no statement of the audio's length; and
/// whether a file was cut short is a matter of bytes: its sample table (chunk offsets, chunks'
/// sample counts and sample sizes) locating samples past the end of the file.
struct MPEG4Track: Equatable {
    /// The track's ID (`tkhd`), FFmpeg's stream identifier.
    let trackID: Int64
    /// Whether the track has an edit list with entries (`edts/elst`).
    let hasEditList: Bool
    /// The `iTunSMPB` statement that applies to the track: as FFmpeg reads it, one in the
    /// movie's metadata applies to the track read last before it.
    let gapless: ITunesGapless?
    /// The offset just past the track's last sample's bytes; nil when its sample table is
    /// missing (a fragmented file) or does not add up.
    let mediaEnd: Int64?

    /// The largest index read: larger ones are left to FFmpeg alone.
    static let largestIndex = 64 << 20

    /// The track `trackID` of `input`'s index, read where the input can be read at an offset
    /// (a file) or from its head; nil when the index is out of reach or has no such track.
    static func read(_ input: AudioInput, trackID: Int64) -> MPEG4Track? {
        let head = input.head
        func bytes(_ offset: Int64, _ count: Int) -> [UInt8]? {
            if offset >= 0, offset + Int64(count) <= Int64(head.count) { return Array(head[Int(offset)..<(Int(offset) + count)]) }
            return input.bytes(at: offset, count: count)
        }
        var offset: Int64 = 0
        while let header = bytes(offset, 8), header.count == 8 {
            var size = Int64(integer(header, 0, 4)), headerSize: Int64 = 8
            if size == 1 {
                guard let large = bytes(offset + 8, 8), large.count == 8, integer(large, 0, 8) <= UInt64(Int64.max) else { return nil }
                size = Int64(integer(large, 0, 8))
                headerSize = 16
            }
            let type = String(decoding: header[4..<8], as: UTF8.self)
            if type == "moov" {
                guard size > headerSize, size - headerSize <= Int64(largestIndex),
                      let index = bytes(offset + headerSize, Int(size - headerSize)), index.count == Int(size - headerSize) else { return nil }
                return tracks(inIndex: index).first { $0.trackID == trackID }
            }
            guard size >= headerSize, !offset.addingReportingOverflow(size).overflow else { return nil }
            offset += size
        }
        return nil
    }

    /// Whether the file, `size` bytes long, ends before the track's last sample: it was cut.
    func isCutShort(size: Int64?) -> Bool {
        guard let size, let mediaEnd else { return false }
        return mediaEnd > size
    }

    /// The length this track states for a decoder whose codec is `codec` (FFmpeg's name,
    /// `aac`), lossless or not, when it overrides what FFmpeg reads (`ffmpegFrames`, the
    /// track's duration): the `iTunSMPB` count, exact, where there is no edit list and the
    /// priming is one FFmpeg skips (or none); else, for a lossy codec without an edit list, the
    /// sample table's total as an estimate (it counts the priming and padding the encoder
    /// added). Nil keeps FFmpeg's reading: the edit list's duration, or a lossless codec's
    /// table total, which counts every frame the decoder gives.
    func length(codec: String, isLossless: Bool, ffmpegFrames: Int64?) -> AudioLength? {
        guard !hasEditList else { return nil }
        if let gapless, gapless.priming == 0 || (codec == "aac" && ITunesGapless.primingFFmpegSkips.contains(gapless.priming)) {
            return .exact(gapless.frames)
        }
        guard !isLossless, let ffmpegFrames else { return nil }
        return .estimated(ffmpegFrames)
    }

    /// Every track of an index (the body of a `moov` atom), with the gapless statements of the
    /// movie's metadata given to the track before them.
    static func tracks(inIndex index: [UInt8]) -> [MPEG4Track] {
        var tracks: [MPEG4Track] = []
        for atom in MPEG4Atom.children(of: index, in: 0..<index.count) {
            switch atom.type {
            case "trak":
                if let track = track(index, atom.body) { tracks.append(track) }
            case "udta":
                guard let last = tracks.last, let gapless = gapless(inUserData: index, atom.body) else { continue }
                tracks[tracks.count - 1] = MPEG4Track(trackID: last.trackID, hasEditList: last.hasEditList, gapless: gapless,
                                                      mediaEnd: last.mediaEnd)
            default: continue
            }
        }
        return tracks
    }

    /// A `trak` atom's track; nil without a track header.
    private static func track(_ bytes: [UInt8], _ body: Range<Int>) -> MPEG4Track? {
        let atoms = MPEG4Atom.children(of: bytes, in: body)
        guard let header = atoms.first(where: { $0.type == "tkhd" })?.body, header.count >= 24 else { return nil }
        let idOffset = header.lowerBound + (bytes[header.lowerBound] == 1 ? 20 : 12)
        let edits = atoms.first { $0.type == "edts" }.flatMap { MPEG4Atom.find(["elst"], in: bytes, $0.body) }
        let hasEditList = edits.map { $0.count >= 8 && integer(bytes, $0.lowerBound + 4, 4) > 0 } ?? false
        let statement = atoms.first { $0.type == "udta" }.flatMap { gapless(inUserData: bytes, $0.body) }
        let table = atoms.first { $0.type == "mdia" }.flatMap { MPEG4Atom.find(["minf", "stbl"], in: bytes, $0.body) }
        return MPEG4Track(trackID: Int64(integer(bytes, idOffset, 4)), hasEditList: hasEditList, gapless: statement,
                          mediaEnd: table.flatMap { MPEG4SampleTable(bytes, $0)?.mediaEnd })
    }

    /// The `iTunSMPB` statement in a `udta` atom's `meta/ilst`, as a `----` item whose mean is
    /// `com.apple.iTunes`.
    private static func gapless(inUserData bytes: [UInt8], _ body: Range<Int>) -> ITunesGapless? {
        guard let meta = MPEG4Atom.children(of: bytes, in: body).first(where: { $0.type == "meta" })?.body else { return nil }
        // MPEG-4's meta atom has a version and flags before its children; QuickTime's has not.
        let children = meta.count >= 4 && integer(bytes, meta.lowerBound, 4) == 0 ? meta.dropFirst(4) : meta
        guard let items = MPEG4Atom.children(of: bytes, in: children).first(where: { $0.type == "ilst" })?.body else { return nil }
        for item in MPEG4Atom.children(of: bytes, in: items) where item.type == "----" {
            var mean: String?, name: String?, data: String?
            for part in MPEG4Atom.children(of: bytes, in: item.body) {
                switch part.type {
                case "mean" where part.count >= 4: mean = text(bytes, part.body.dropFirst(4))
                case "name" where part.count >= 4: name = text(bytes, part.body.dropFirst(4))
                case "data" where part.count >= 8: data = text(bytes, part.body.dropFirst(8))
                default: continue
                }
            }
            if mean == "com.apple.iTunes", name == "iTunSMPB", let data { return ITunesGapless(text: data) }
        }
        return nil
    }

    /// The UTF-8 text of `range` of `bytes`.
    private static func text(_ bytes: [UInt8], _ range: Range<Int>) -> String {
        String(decoding: bytes[range], as: UTF8.self)
    }

    /// The big-endian unsigned integer of `count` bytes at `offset` of `bytes`, as MPEG-4 stores them.
    static func integer(_ bytes: [UInt8], _ offset: Int, _ count: Int) -> UInt64 {
        bytes[offset..<(offset + count)].reduce(0) { $0 << 8 | UInt64($1) }
    }
}
