import FoundationEssentials

/// An ID3v2.4 tag with `APIC` frames added to the frames TagLib rendered, as the pieces an
/// encoder writes one after another: the picture bytes are each picture's own data, never
/// copied into the tag, so an MP3 with a 20 MB cover is written holding the cover once.
///
/// An `APIC` frame (ID3v2.4, section 4.14 of its frames document) is its 10-byte header, the
/// text encoding (3, UTF-8), the MIME type in Latin-1 ending in a zero byte, the picture type,
/// the description ending in a zero byte, and the picture's bytes. Sizes are synchsafe, 28 bits.
struct ID3v2Pictures {
    /// The tag in the order it is written: header and text frames, then each picture's frame
    /// header and its bytes, then the padding TagLib rendered.
    let pieces: [Data]
    /// The pictures that have a frame in it: all, but for those that would take the tag past the
    /// 256 MiB its size can state.
    let pictures: [Picture]

    /// The largest tag body a synchsafe size states.
    static let largestBody = (1 << 28) - 1

    /// `pictures` added to `tag`, a whole ID3v2.4 tag without an extended header or a footer (as
    /// TagLib renders one); nil when `tag` is not one.
    init?(adding pictures: [Picture], to tag: [UInt8]) {
        guard tag.count >= 10, tag[0..<3].elementsEqual("ID3".utf8), tag[3] == 4, tag[5] & 0x50 == 0 else { return nil }
        var end = 10
        while end + 10 <= tag.count, tag[end] != 0 {
            end += 10 + Self.synchsafe(tag[(end + 4)..<(end + 8)])
        }
        guard end <= tag.count else { return nil }
        let padding = tag.count - end
        var body = end - 10 + padding
        var frames: [Data] = []
        var kept: [Picture] = []
        for picture in pictures {
            let fields = [3] + Array(picture.mimeType.unicodeScalars.map { UInt8(truncatingIfNeeded: $0.value) }) + [0, UInt8(clamping: picture.kind.number)]
                + Array(picture.description.utf8) + [0]
            let size = fields.count + picture.data.count
            guard body + 10 + size <= Self.largestBody else { continue }
            body += 10 + size
            frames += [Data(Array("APIC".utf8) + Self.synchsafeBytes(size) + [0, 0] + fields), picture.data]
            kept.append(picture)
        }
        self.pictures = kept
        pieces = [Data(tag[0..<6] + Self.synchsafeBytes(body) + tag[10..<end])] + frames + (padding > 0 ? [Data(tag[end...])] : [])
    }

    /// The value of four synchsafe bytes (seven bits each, most significant first).
    private static func synchsafe(_ bytes: ArraySlice<UInt8>) -> Int {
        bytes.reduce(0) { $0 << 7 | Int($1 & 0x7F) }
    }

    /// `value` as four synchsafe bytes.
    private static func synchsafeBytes(_ value: Int) -> [UInt8] {
        (0..<4).reversed().map { UInt8((value >> (7 * $0)) & 0x7F) }
    }
}
