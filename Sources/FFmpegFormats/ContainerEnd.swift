import AudioFormats

/// What a container says of its own end, read by aurender where FFmpeg does not act on it: an
/// ASF (WMA) file states its size, a DSF file its samples (its data is padded to whole blocks,
/// which FFmpeg counts in its duration), and an MPEG-4 file cannot be read at all without its
/// index (the `moov` atom), which most encoders write last.
enum ContainerEnd {
    /// The frames a DSF file whose first bytes are `head` states, decoded to PCM at `rate`
    /// (FFmpeg decodes DSD at an eighth of its rate, a frame from each byte of a channel).
    static func dsfFrames(head: [UInt8], rate: Int) -> Int64? {
        guard rate > 0, head.count >= 72, String(decoding: head[0..<4], as: UTF8.self) == "DSD ",
              String(decoding: head[28..<32], as: UTF8.self) == "fmt " else { return nil }
        let dsdRate = littleEndian(head, 56, 4), samples = littleEndian(head, 64, 8)
        guard dsdRate >= UInt64(rate), dsdRate % UInt64(rate) == 0, samples > 0, samples < UInt64(Int64.max) else { return nil }
        return Int64(samples / (dsdRate / UInt64(rate)))
    }

    /// Whether an ASF file whose first bytes are `head` states a size larger than `size`, the
    /// bytes it has: it was cut short. A broadcast stream, whose header leaves the size open,
    /// is never found short.
    static func asfIsCutShort(head: [UInt8], size: Int64?) -> Bool {
        guard let size, head.count >= 30, Array(head[0..<16]) == asfHeaderObject else { return false }
        var offset = 30
        while offset + 24 <= head.count {
            let objectSize = littleEndian(head, offset + 16, 8)
            if Array(head[offset..<(offset + 16)]) == asfFileProperties, offset + 92 <= head.count {
                let statedSize = littleEndian(head, offset + 40, 8), isBroadcast = littleEndian(head, offset + 88, 4) & 1 != 0
                return !isBroadcast && statedSize > UInt64(size)
            }
            guard objectSize >= 24, objectSize <= UInt64(head.count) else { return false }
            offset += Int(objectSize)
        }
        return false
    }

    /// Why an MPEG-4 file FFmpeg cannot open is unreadable, when its top-level atoms tell: its
    /// media data runs past the end of the file with no index after it, the mark of a file cut
    /// short while written or copied. Nil for a file whose atoms do not say so, or a pipe.
    static func mpeg4Unreadable(_ input: AudioInput) -> String? {
        var offset: Int64 = 0, sawMediaData = false
        while let header = input.bytes(at: offset, count: 16), header.count >= 8 {
            var atomSize = Int64(bigEndian(header, 0, 4))
            let type = String(decoding: header[4..<8], as: UTF8.self)
            if atomSize == 1, header.count == 16 { atomSize = Int64(bitPattern: bigEndian(header, 8, 8)) }
            if type == "moov" { return nil }
            if type == "mdat" { sawMediaData = true }
            guard atomSize >= 8 else { break }
            let (next, overflow) = offset.addingReportingOverflow(atomSize)
            guard !overflow else { break }
            if sawMediaData, input.bytes(at: next - 1, count: 1)?.count != 1 {
                return "the file ends inside its audio data, before the index (moov atom) that locates it: it was cut short while written or copied, so none of it can be decoded"
            }
            offset = next
        }
        return nil
    }

    /// ASF's header object and file properties object, as their GUIDs are stored.
    private static let asfHeaderObject: [UInt8] = [0x30, 0x26, 0xB2, 0x75, 0x8E, 0x66, 0xCF, 0x11, 0xA6, 0xD9, 0x00, 0xAA, 0x00, 0x62, 0xCE, 0x6C]
    private static let asfFileProperties: [UInt8] = [0xA1, 0xDC, 0xAB, 0x8C, 0x47, 0xA9, 0xCF, 0x11, 0x8E, 0xE4, 0x00, 0xC0, 0x0C, 0x20, 0x53, 0x65]

    private static func littleEndian(_ bytes: [UInt8], _ offset: Int, _ count: Int) -> UInt64 {
        bytes[offset..<(offset + count)].reversed().reduce(0) { $0 << 8 | UInt64($1) }
    }

    private static func bigEndian(_ bytes: [UInt8], _ offset: Int, _ count: Int) -> UInt64 {
        bytes[offset..<(offset + count)].reduce(0) { $0 << 8 | UInt64($1) }
    }
}
