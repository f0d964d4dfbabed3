#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import FoundationEssentials

/// The pictures of an MP4 output, added as a `covr` atom to the `ilst` TagLib wrote the text
/// into: each `data` atom's image is written from the picture's own bytes, where TagLib would
/// copy it into the atom, the list and the `moov` it rewrites, so a 20 MB cover is held once.
///
/// Only where the `moov` is the file's last atom (as aurender's muxer writes it, after `mdat`):
/// then growing it moves no audio and no chunk offset. `covr` holds one `data` atom a picture:
/// its type (13 JPEG, 14 PNG, 27 BMP, 12 GIF, 0 for another), a zero locale, the image. It
/// states no kind and no description, so a picture reads back as TagLib reads any `covr`.
enum MP4CoverAtoms {
    /// An atom: its type, where its header starts, its header's length and its whole size.
    private struct Atom {
        var type: String
        var start: Int64
        var headerSize: Int64
        var size: Int64
    }

    /// Adds `pictures` as a `covr` atom at the end of the `ilst` of the file on `descriptor`;
    /// gives them as they read back (front covers, MIME type from the atom's type, no
    /// description), or nil, having written nothing, when the file's atoms are not laid out for
    /// it (no `moov/udta/meta/ilst`, or a `moov` that is not last). Errors name `path`.
    static func add(_ pictures: [Picture], descriptor: Int32, path: String) throws(MetadataError) -> [Picture]? {
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { return nil }
        let fileSize = Int64(status.st_size)
        guard let moov = atoms(in: descriptor, from: 0, to: fileSize).last, moov.type == "moov", moov.start + moov.size == fileSize,
              let udta = child("udta", of: moov, in: descriptor), let meta = child("meta", of: udta, in: descriptor),
              let ilst = child("ilst", of: meta, in: descriptor, skipping: 4) else { return nil }
        var pieces: [Data] = []
        var covrSize: Int64 = 8
        for picture in pictures {
            let size = 16 + Int64(picture.data.count)
            pieces += [Data(big32(size) + Array("data".utf8) + big32(Int64(typeCode(picture.mimeType))) + big32(0)), picture.data]
            covrSize += size
        }
        guard [ilst, meta, udta, moov].allSatisfy({ $0.headerSize == 16 || $0.size + covrSize <= Int64(UInt32.max) }) else { return nil }
        let end = ilst.start + ilst.size
        let following = PositionedIO.read(descriptor, at: end, count: Int(fileSize - end))
        var at = end
        for piece in [Data(big32(covrSize) + Array("covr".utf8))] + pieces + [Data(following)] {
            guard piece.withUnsafeBytes({ PositionedIO.write(descriptor, $0, at: at) }) else { throw failed(path) }
            at += Int64(piece.count)
        }
        for atom in [ilst, meta, udta, moov] {
            let size = atom.size + covrSize
            let field = atom.headerSize == 16 ? (atom.start + 8, (0..<8).reversed().map { UInt8(truncatingIfNeeded: size >> (8 * $0)) })
                : (atom.start, big32(size))
            guard field.1.withUnsafeBytes({ PositionedIO.write(descriptor, $0, at: field.0) }) else { throw failed(path) }
        }
        guard ftruncate(descriptor, off_t(at)) == 0 else { throw failed(path) }
        return pictures.map { Picture(kind: .frontCover, mimeType: mimeType(typeCode($0.mimeType)), data: $0.data) }
    }

    /// The `data` atom's type for a picture of `mimeType`, as TagLib's `CoverArt` formats number them.
    private static func typeCode(_ mimeType: String) -> Int {
        switch mimeType {
        case "image/jpeg", "image/jpg": 13
        case "image/png": 14
        case "image/bmp": 27
        case "image/gif": 12
        default: 0
        }
    }

    /// The MIME type TagLib reads for a `data` atom of `type`.
    private static func mimeType(_ type: Int) -> String {
        [13: "image/jpeg", 14: "image/png", 27: "image/bmp", 12: "image/gif"][type] ?? ""
    }

    /// The atoms from `start` to `end` of the file, in order; those past a damaged one are left out.
    private static func atoms(in descriptor: Int32, from start: Int64, to end: Int64) -> [Atom] {
        var atoms: [Atom] = []
        var position = start
        while position + 8 <= end {
            let header = PositionedIO.read(descriptor, at: position, count: 16)
            guard header.count >= 8 else { break }
            var size = Int64(header[0..<4].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }), headerSize: Int64 = 8
            if size == 1, header.count == 16 {
                size = Int64(bitPattern: header[8..<16].reduce(UInt64(0)) { $0 << 8 | UInt64($1) })
                headerSize = 16
            } else if size == 0 {
                size = end - position
            }
            guard size >= headerSize, position + size <= end else { break }
            atoms.append(Atom(type: String(decoding: header[4..<8], as: UTF8.self), start: position, headerSize: headerSize, size: size))
            position += size
        }
        return atoms
    }

    /// The last child atom of `parent` of `type`, its children starting `skipping` bytes into its
    /// body (a full atom's version and flags).
    private static func child(_ type: String, of parent: Atom, in descriptor: Int32, skipping: Int64 = 0) -> Atom? {
        atoms(in: descriptor, from: parent.start + parent.headerSize + skipping, to: parent.start + parent.size).last { $0.type == type }
    }

    private static func big32(_ value: Int64) -> [UInt8] { (0..<4).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }

    private static func failed(_ path: String) -> MetadataError {
        MetadataError(path: path, kind: .writeFailed, reason: "cover art not written: \(String(cString: strerror(errno)))")
    }
}
