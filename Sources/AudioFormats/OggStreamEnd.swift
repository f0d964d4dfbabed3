/// Whether an Ogg file ends whole, told from its last bytes: its last complete page carries
/// the end-of-stream flag. A file cut part way ends in a part page or a page without the flag.
///
/// This is the container's own statement of its end, the Ogg counterpart of a WAV data chunk
/// running past the end of the file: an Ogg decoder (libvorbisfile) decodes up to the last
/// complete page and says nothing of what is missing.
public enum OggStreamEnd {
    /// The bytes to read from the end of a file: two of the largest pages (27 + 255 + 255 × 255
    /// bytes), so that a complete page starts in them even after a part page.
    public static let tailLength = 2 * 65_307

    /// Whether the last complete page in `tail` (the file's last bytes) ends its stream. Bytes
    /// after that page (a cut page, a tag some program appended) do not change the answer, and
    /// an ID3v1 tag at the end is no part of a page: a page cut short before one is cut.
    public static func endsWhole(tail: ArraySlice<UInt8>) -> Bool {
        let bytes = Array(tail.dropLast(ID3v1Tag.length(atEndOf: tail)))
        var start = bytes.count - 27
        while start >= 0 {
            if bytes[start] == 0x4F, bytes[start + 1] == 0x67, bytes[start + 2] == 0x67, bytes[start + 3] == 0x53, bytes[start + 4] == 0,
               let end = pageEnd(bytes, at: start), end <= bytes.count {
                return bytes[start + 5] & 0x04 != 0
            }
            start -= 1
        }
        return false
    }

    /// Where the page whose header starts at `start` ends, by its segment table; nil when the
    /// table runs past the bytes.
    private static func pageEnd(_ bytes: [UInt8], at start: Int) -> Int? {
        let segments = Int(bytes[start + 26])
        let table = start + 27
        guard table + segments <= bytes.count else { return nil }
        return table + segments + bytes[table..<(table + segments)].reduce(0) { $0 + Int($1) }
    }
}
