#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads and writes at a given offset of a file through `pread` and `pwrite`, on a descriptor the
/// caller owns, going on after a short or interrupted call: the chunk and atom editors' file access.
enum PositionedIO {
    /// Up to `count` bytes from `offset`: fewer where the file ends first.
    static func read(_ descriptor: Int32, at offset: Int64, count: Int) -> [UInt8] {
        guard count > 0 else { return [] }
        var bytes = [UInt8](repeating: 0, count: count)
        var done = 0
        while done < count {
            let got = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress! + done, count - done, off_t(offset) + off_t(done)) }
            if got < 0, errno == EINTR { continue }
            guard got > 0 else { break }
            done += got
        }
        return Array(bytes[0..<done])
    }

    /// Writes all of `bytes` at `offset`; false when a write fails (`errno` says why).
    static func write(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer, at offset: Int64) -> Bool {
        var done = 0
        while done < bytes.count {
            let put = pwrite(descriptor, bytes.baseAddress! + done, bytes.count - done, off_t(offset) + off_t(done))
            if put < 0, errno == EINTR { continue }
            guard put > 0 else { return false }
            done += put
        }
        return true
    }

    /// Writes all of `bytes` at `offset`; false when a write fails.
    static func write(_ descriptor: Int32, _ bytes: [UInt8], at offset: Int64) -> Bool {
        bytes.withUnsafeBytes { write(descriptor, $0, at: offset) }
    }
}
