/// The frame count an input's header states, read from its first bytes by aurender itself, so
/// that a file holding less than its header says is found out whatever a decoder makes of it.
///
/// libsndfile shrinks a WAV's, AIFF's or AU's frame count to the bytes present, so a truncated
/// file would otherwise pass for a shorter whole one. Known here: WAV (RIFF, RIFX, RF64/BW64),
/// Sony Wave64, AIFF/AIFC, AU with PCM, float or G.711 samples, and MP3 whose Xing/Info header
/// counts its frames (with the LAME tag's encoder delay and padding taken off, as gapless
/// decoders do). Nil when the header leaves the size open, its chunks lie beyond the bytes
/// given, or the encoding's frames do not follow from its byte count (ADPCM).
public enum HeaderLength {
    /// The frames `head`, the first bytes of an input, says the input holds.
    public static func statedFrames(_ head: [UInt8]) -> Int64? {
        let bytes = Bytes(head)
        switch bytes.text(0, 4) {
        case "RIFF": return wave(bytes, bigEndian: false, dataSize64: nil)
        case "RIFX": return wave(bytes, bigEndian: true, dataSize64: nil)
        case "RF64", "BW64": return bytes.text(12, 4) == "ds64" ? wave(bytes, bigEndian: false, dataSize64: bytes.uint64LE(28)) : nil
        case "FORM": return aiff(bytes)
        case ".snd": return au(bytes, bigEndian: true)
        case "dns.": return au(bytes, bigEndian: false)
        case "riff": return wave64(bytes)
        default: return mp3(bytes)
        }
    }

    /// A RIFF WAVE: the data chunk's size over the frame size, for PCM, float and G.711.
    private static func wave(_ bytes: Bytes, bigEndian: Bool, dataSize64: UInt64?) -> Int64? {
        guard bytes.text(8, 4) == "WAVE" else { return nil }
        var offset = 12, blockAlign: Int?
        while let id = bytes.text(offset, 4), let size = bytes.uint32(offset + 4, bigEndian: bigEndian) {
            switch id {
            case "fmt ":
                guard let tag = bytes.uint16(offset + 8, bigEndian: bigEndian), [1, 3, 6, 7, 0xFFFE].contains(tag),
                      let align = bytes.uint16(offset + 20, bigEndian: bigEndian), align > 0 else { return nil }
                blockAlign = Int(align)
            case "data":
                guard let blockAlign else { return nil }
                let dataSize = size == 0xFFFF_FFFF ? dataSize64 : (size == 0 ? nil : UInt64(size))
                return dataSize.map { Int64($0 / UInt64(blockAlign)) }
            default: break
            }
            offset += 8 + Int(size) + Int(size & 1)
        }
        return nil
    }

    /// An AIFF or AIFC file: the common chunk's frame count.
    private static func aiff(_ bytes: Bytes) -> Int64? {
        guard let form = bytes.text(8, 4), form == "AIFF" || form == "AIFC" else { return nil }
        var offset = 12
        while let id = bytes.text(offset, 4), let size = bytes.uint32(offset + 4, bigEndian: true) {
            if id == "COMM" { return bytes.uint32(offset + 10, bigEndian: true).map(Int64.init) }
            offset += 8 + Int(size) + Int(size & 1)
        }
        return nil
    }

    /// An AU file: its data size over the frame size, unless the size is left open.
    private static func au(_ bytes: Bytes, bigEndian: Bool) -> Int64? {
        guard let size = bytes.uint32(8, bigEndian: bigEndian), size != 0xFFFF_FFFF,
              let encoding = bytes.uint32(12, bigEndian: bigEndian), let channels = bytes.uint32(20, bigEndian: bigEndian), channels > 0,
              let sampleBytes = [1: 1, 2: 1, 3: 2, 4: 3, 5: 4, 6: 4, 7: 8, 27: 1][Int(encoding)] else { return nil }
        return Int64(size) / Int64(sampleBytes * Int(channels))
    }

    /// A Sony Wave64 file: chunks named by GUIDs whose first four bytes spell the RIFF names,
    /// with 64-bit sizes that count their 24-byte headers.
    private static func wave64(_ bytes: Bytes) -> Int64? {
        guard bytes.text(24, 4) == "wave" else { return nil }
        var offset = 40, blockAlign: Int?
        while let id = bytes.text(offset, 4), let size = bytes.uint64LE(offset + 16), size >= 24 {
            switch id {
            case "fmt ":
                guard let tag = bytes.uint16(offset + 24, bigEndian: false), [1, 3, 6, 7, 0xFFFE].contains(tag),
                      let align = bytes.uint16(offset + 36, bigEndian: false), align > 0 else { return nil }
                blockAlign = Int(align)
            case "data":
                return blockAlign.map { Int64((size - 24) / UInt64($0)) }
            default: break
            }
            offset += Int((size + 7) & ~7)
        }
        return nil
    }

    /// An MP3 whose first frame is a Xing or Info header counting the frames: that many frames
    /// of 1152 (MPEG-1) or 576 (MPEG-2 and 2.5) samples, less the LAME tag's delay and padding.
    private static func mp3(_ bytes: Bytes) -> Int64? {
        var start = 0
        if bytes.text(0, 3) == "ID3", let flags = bytes.byte(5) {
            let size = (6...9).reduce(0) { ($0 << 7) | Int((bytes.byte($1) ?? 0) & 0x7F) }
            start = 10 + size + (flags & 0x10 != 0 ? 10 : 0)
        }
        guard let sync = bytes.byte(start), sync == 0xFF, let second = bytes.byte(start + 1), second & 0xE0 == 0xE0,
              (second >> 1) & 3 == 1, let fourth = bytes.byte(start + 3) else { return nil }
        let isMPEG1 = (second >> 3) & 3 == 3, isMono = fourth >> 6 == 3
        let xing = start + 4 + (isMPEG1 ? (isMono ? 17 : 32) : (isMono ? 9 : 17))
        guard let name = bytes.text(xing, 4), name == "Xing" || name == "Info",
              let flags = bytes.uint32(xing + 4, bigEndian: true), flags & 1 != 0,
              let frames = bytes.uint32(xing + 8, bigEndian: true) else { return nil }
        var total = Int64(frames) * (isMPEG1 ? 1152 : 576)
        let lame = xing + 8 + [1, 2, 4, 8].reduce(0) { $0 + (flags & UInt32($1) == 0 ? 0 : ($1 == 4 ? 100 : 4)) }
        if bytes.text(lame, 4) == "LAME", let high = bytes.byte(lame + 21), let middle = bytes.byte(lame + 22), let low = bytes.byte(lame + 23) {
            let delay = Int64(high) << 4 | Int64(middle >> 4), padding = Int64(middle & 0x0F) << 8 | Int64(low)
            total -= delay + padding
        }
        return total > 0 ? total : nil
    }

    /// Bounds-checked reads of the first bytes.
    private struct Bytes {
        let bytes: [UInt8]
        init(_ bytes: [UInt8]) { self.bytes = bytes }

        func byte(_ offset: Int) -> UInt8? { offset >= 0 && offset < bytes.count ? bytes[offset] : nil }

        func text(_ offset: Int, _ count: Int) -> String? {
            guard offset >= 0, offset + count <= bytes.count else { return nil }
            return String(decoding: bytes[offset..<(offset + count)], as: UTF8.self)
        }

        func uint16(_ offset: Int, bigEndian: Bool) -> UInt16? { integer(offset, 2, bigEndian: bigEndian).map { UInt16($0) } }
        func uint32(_ offset: Int, bigEndian: Bool) -> UInt32? { integer(offset, 4, bigEndian: bigEndian).map { UInt32($0) } }
        func uint64LE(_ offset: Int) -> UInt64? { integer(offset, 8, bigEndian: false) }

        private func integer(_ offset: Int, _ count: Int, bigEndian: Bool) -> UInt64? {
            guard offset >= 0, offset + count <= bytes.count else { return nil }
            let slice = bytes[offset..<(offset + count)]
            return (bigEndian ? Array(slice) : slice.reversed()).reduce(0) { $0 << 8 | UInt64($1) }
        }
    }
}
