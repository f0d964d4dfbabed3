/// An ID3v1 tag: the 128 bytes (`TAG` and fixed fields) some programs append to a file of any
/// format, for example after a download that was cut short. They are not the format's data, so
/// what tells where a file's data ends looks before them.
public enum ID3v1Tag {
    /// The bytes of an ID3v1 tag.
    public static let length = 128

    /// Where the ID3v1 tag at the end of `input`, a regular file, starts; nil where it ends in none.
    public static func start(in input: AudioInput) -> Int64? {
        guard let size = input.size, size >= Int64(length), let tail = input.bytes(at: size - Int64(length), count: length),
              Self.length(atEndOf: tail[...]) == length else { return nil }
        return size - Int64(length)
    }

    /// The bytes at the end of `tail` (a file's last bytes) that an ID3v1 tag takes: `length`,
    /// or 0 where the file does not end in one.
    public static func length(atEndOf tail: ArraySlice<UInt8>) -> Int {
        guard tail.count >= length else { return 0 }
        let start = tail.endIndex - length
        return tail[start] == 0x54 && tail[start + 1] == 0x41 && tail[start + 2] == 0x47 ? length : 0
    }
}
