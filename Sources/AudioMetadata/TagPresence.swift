#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Whether a file may hold tags, judged from its chunk headers alone, so that a plain WAV or
/// AIFF (the usual input of a render) is not handed to TagLib, whose loading costs more than
/// the rest of a short render's start-up.
///
/// Only RIFF WAVE and AIFF/AIFC files are judged: they may hold tags only in the chunks TagLib
/// reads there (`LIST`, `id3 ` and `ID3 `; AIFF's text chunks `NAME`, `AUTH`, `(c) `, `ANNO` and
/// `COMT`). Every other file, and any file whose chunks cannot be walked to its end, may.
enum TagPresence {
    /// The chunks that hold a WAV's tags.
    static let waveTagChunks: Set<String> = ["LIST", "id3 ", "ID3 "]
    /// The chunks that hold an AIFF's tags.
    static let aiffTagChunks: Set<String> = ["NAME", "AUTH", "(c) ", "ANNO", "COMT", "id3 ", "ID3 "]

    /// False only for a WAV or AIFF file whose chunks, walked to its end, include none that holds tags.
    static func mayHoldTags(path: String) -> Bool {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return true }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { return true }
        let size = Int64(status.st_size)
        guard let header = read(descriptor, at: 0, count: 12) else { return true }
        let form = String(decoding: header[0..<4], as: UTF8.self), type = String(decoding: header[8..<12], as: UTF8.self)
        let littleEndian: Bool, tagChunks: Set<String>
        switch (form, type) {
        case ("RIFF", "WAVE"): (littleEndian, tagChunks) = (true, waveTagChunks)
        case ("FORM", "AIFF"), ("FORM", "AIFC"): (littleEndian, tagChunks) = (false, aiffTagChunks)
        default: return true
        }
        var offset: Int64 = 12
        while offset + 8 <= size {
            guard let chunk = read(descriptor, at: offset, count: 8) else { return true }
            let identifier = String(decoding: chunk[0..<4], as: UTF8.self)
            if tagChunks.contains(identifier) { return true }
            let bytes = chunk[4..<8].reversed(littleEndian).reduce(Int64(0)) { $0 << 8 | Int64($1) }
            offset += 8 + bytes + bytes % 2
        }
        return offset != size && offset != size + 1
    }

    /// The name of the file's format when it is one TagLib does not read and it shows that it
    /// holds tags: a DSF (Sony's DSD stream file) whose header points at its ID3v2 tag.
    static func tagsTagLibCannotRead(path: String) -> String? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        guard let header = read(descriptor, at: 0, count: 28), header[0..<4].elementsEqual("DSD ".utf8) else { return nil }
        let tagOffset = header[20..<28].reversed().reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        return tagOffset != 0 ? "DSF" : nil
    }

    /// `count` bytes at `offset`, or nil when the file ends before them.
    private static func read(_ descriptor: Int32, at offset: Int64, count: Int) -> [UInt8]? {
        var bytes = [UInt8](repeating: 0, count: count)
        let got = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, count, off_t(offset)) }
        return got == count ? bytes : nil
    }
}

private extension ArraySlice<UInt8> {
    /// The bytes most significant first: reversed when they are little-endian.
    func reversed(_ littleEndian: Bool) -> [UInt8] { littleEndian ? Array(self.reversed()) : Array(self) }
}
