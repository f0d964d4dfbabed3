/// An atom (box) of an MPEG-4 file's index held in memory: its four-letter type and where its
/// body lies, so that the index can be walked without copying it.
///
/// The index is read whole once (`MPEG4Track.read`); every atom is then a range of it, and an
/// atom whose size runs past its parent ends the walk, as a damaged index gives no more.
struct MPEG4Atom {
    /// The atom's type (`trak`, `stsz`).
    let type: String
    /// The atom's bytes after its header.
    let body: Range<Int>

    /// The body's length in bytes.
    var count: Int { body.count }

    /// The atoms one after another in `range` of `bytes`, up to the first that does not fit.
    static func children(of bytes: [UInt8], in range: Range<Int>) -> [MPEG4Atom] {
        var atoms: [MPEG4Atom] = [], offset = range.lowerBound
        while offset + 8 <= range.upperBound {
            var size = Int(MPEG4Track.integer(bytes, offset, 4)), headerSize = 8
            if size == 1 {
                guard offset + 16 <= range.upperBound, MPEG4Track.integer(bytes, offset + 8, 8) <= UInt64(range.count) else { break }
                size = Int(MPEG4Track.integer(bytes, offset + 8, 8))
                headerSize = 16
            } else if size == 0 {
                size = range.upperBound - offset
            }
            guard size >= headerSize, size <= range.upperBound - offset else { break }
            atoms.append(MPEG4Atom(type: String(decoding: bytes[(offset + 4)..<(offset + 8)], as: UTF8.self),
                                   body: (offset + headerSize)..<(offset + size)))
            offset += size
        }
        return atoms
    }

    /// The body of the atom reached through `path`'s types from `range` (`minf`, `stbl`).
    static func find(_ path: [String], in bytes: [UInt8], _ range: Range<Int>) -> Range<Int>? {
        var body = range
        for type in path {
            guard let child = children(of: bytes, in: body).first(where: { $0.type == type }) else { return nil }
            body = child.body
        }
        return body
    }
}
