import AudioFormats
import FoundationEssentials

/// An Ogg header packet whose bytes are made as they are taken, page by page (`OggPageRelay`).
///
/// A Vorbis or Opus comment packet holds each picture as a `METADATA_BLOCK_PICTURE` field whose
/// base64 text is encoded here a block at a time from the picture's own bytes: a 20 MB cover,
/// 27 MB as text, is never held as text, nor as a packet, nor as pages.
struct OggStreamedPacket {
    /// A run of the packet's bytes: given, or the base64 text of pieces taken one after another.
    private enum Part {
        case bytes([UInt8])
        case base64([Data])
    }

    private var parts: [Part]
    /// The packet's length in bytes.
    let count: Int
    /// Bytes made, taken up to `taken`.
    private var made: [UInt8] = []
    private var taken = 0
    /// Where the next part's reading stands: the part, and in a base64 part the piece and the byte.
    private var part = 0, piece = 0, offset = 0

    /// Input bytes base64-encoded at a time: a multiple of 3, so the blocks' text joins into one.
    private static let block = 48 * 1024

    /// A packet of `bytes`, as they are.
    init(bytes: [UInt8]) {
        parts = [.bytes(bytes)]
        count = bytes.count
    }

    /// The comment packet of `marker` (`OpusTags`, or 3 and `vorbis`), `vendor`, `tags`' comments
    /// then a field for each of its pictures, and a framing bit when `framed` (Vorbis's).
    init(marker: [UInt8], vendor: [UInt8], tags: LeadingTags, framed: Bool) {
        func little32(_ value: Int) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }
        var head = marker + little32(vendor.count) + vendor + little32(tags.comments.count + tags.pictures.count)
        for comment in tags.comments {
            let field = Array(comment.utf8)
            head += little32(field.count) + field
        }
        parts = [.bytes(head)]
        let name = Array("METADATA_BLOCK_PICTURE=".utf8)
        for picture in tags.pictures {
            let text = (picture.reduce(0) { $0 + $1.count } + 2) / 3 * 4
            parts += [.bytes(little32(name.count + text) + name), .base64(picture)]
        }
        if framed { parts.append(.bytes([1])) }
        count = parts.reduce(0) { total, part in
            switch part {
            case .bytes(let bytes): total + bytes.count
            case .base64(let pieces): total + (pieces.reduce(0) { $0 + $1.count } + 2) / 3 * 4
            }
        }
    }

    /// The next `length` bytes of the packet (fewer at its end).
    mutating func take(_ length: Int) -> ArraySlice<UInt8> {
        if taken > Self.block {
            made.removeFirst(taken)
            taken = 0
        }
        while made.count - taken < length, part < parts.count { make() }
        let end = min(made.count, taken + length)
        defer { taken = end }
        return made[taken..<end]
    }

    /// Adds the next run of bytes to `made`: a given part whole, or a block of a base64 part's text.
    private mutating func make() {
        switch parts[part] {
        case .bytes(let bytes):
            made += bytes
            part += 1
        case .base64(let pieces):
            var input: [UInt8] = []
            while input.count < Self.block, piece < pieces.count {
                let data = pieces[piece]
                let end = min(data.count, offset + Self.block - input.count)
                input += data[(data.startIndex + offset)..<(data.startIndex + end)]
                offset = end
                if offset == data.count { (piece, offset) = (piece + 1, 0) }
            }
            made += Data(input).base64EncodedData()
            if piece == pieces.count { (part, piece, offset) = (part + 1, 0, 0) }
        }
    }
}
