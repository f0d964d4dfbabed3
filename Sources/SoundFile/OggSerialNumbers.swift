#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Makes Ogg files byte-identical run to run.
///
/// libsndfile gives each Ogg stream a random serial number (seeded from the clock), so two
/// renders of the same input differ in the serial and in every page's checksum. This rewrites
/// every page's serial to a fixed value and recomputes its CRC, in place, before the output is
/// renamed into place. The audio data is untouched.
public enum OggSerialNumbers {
    /// The serial aurender writes: "aure" in ASCII.
    public static let fixedSerial: UInt32 = 0x6175_7265

    /// Rewrites the serial number of every page of the Ogg file open on `fileDescriptor`.
    public static func normalize(fileDescriptor: Int32, path: String) throws(SoundFileError) {
        var offset: off_t = 0
        var page = [UInt8](repeating: 0, count: 27 + 255 + 255 * 255)
        while true {
            let headerRead = page.withUnsafeMutableBytes { pread(fileDescriptor, $0.baseAddress, 27, offset) }
            if headerRead == 0 { return }
            guard headerRead == 27, page[0] == 0x4F, page[1] == 0x67, page[2] == 0x67, page[3] == 0x53 else {
                throw SoundFileError(path: path, kind: .writeFailed, reason: "the Ogg stream written by libsndfile has a damaged page at byte \(offset)")
            }
            let segments = Int(page[26])
            let tableRead = page.withUnsafeMutableBytes { pread(fileDescriptor, $0.baseAddress! + 27, segments, offset + 27) }
            guard tableRead == segments else { throw truncated(path, offset) }
            let bodySize = page[27..<(27 + segments)].reduce(0) { $0 + Int($1) }
            let size = 27 + segments + bodySize
            let bodyRead = page.withUnsafeMutableBytes { pread(fileDescriptor, $0.baseAddress! + 27 + segments, bodySize, offset + off_t(27 + segments)) }
            guard bodyRead == bodySize else { throw truncated(path, offset) }
            withUnsafeBytes(of: fixedSerial.littleEndian) { page.replaceSubrange(14..<18, with: $0) }
            page.replaceSubrange(22..<26, with: [0, 0, 0, 0])
            let crc = checksum(page[0..<size])
            withUnsafeBytes(of: crc.littleEndian) { page.replaceSubrange(22..<26, with: $0) }
            let written = page.withUnsafeBytes { pwrite(fileDescriptor, $0.baseAddress, size, offset) }
            guard written == size else {
                throw SoundFileError(path: path, kind: .writeFailed, reason: String(cString: strerror(errno)))
            }
            offset += off_t(size)
        }
    }

    private static func truncated(_ path: String, _ offset: off_t) -> SoundFileError {
        SoundFileError(path: path, kind: .writeFailed, reason: "the Ogg stream written by libsndfile ends inside the page at byte \(offset)")
    }

    /// Ogg's page checksum: CRC-32 with polynomial 0x04C11DB7, not reflected, starting at 0.
    static func checksum(_ bytes: ArraySlice<UInt8>) -> UInt32 {
        var crc: UInt32 = 0
        for byte in bytes { crc = (crc << 8) ^ table[Int(((crc >> 24) ^ UInt32(byte)) & 0xFF)] }
        return crc
    }

    private static let table: [UInt32] = (0..<256).map { index in
        var value = UInt32(index) << 24
        for _ in 0..<8 { value = value & 0x8000_0000 != 0 ? (value << 1) ^ 0x04C1_1DB7 : value << 1 }
        return value
    }
}
