#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A pipe read through libsndfile's virtual I/O, starting with the bytes already taken out of
/// it to recognise its format.
///
/// libsndfile's FLAC decoder seeks back to byte 0 after recognising the file, which a pipe
/// cannot do (the "lost sync" failure); here the first bytes are kept, so seeks within them
/// work. Seeks elsewhere fail, as on any pipe.
final class SndfileStreamSource {
    private let head: [UInt8]
    private let fileDescriptor: Int32
    /// The byte the next read returns.
    private(set) var position: Int64 = 0
    /// Bytes read from the descriptor after the head.
    private var streamed: Int64 = 0
    private let closing: Bool

    /// A stream that gives `head`, then what remains on `fileDescriptor`, closed at the end
    /// when `closing`.
    init(head: [UInt8], fileDescriptor: Int32, closing: Bool) {
        self.head = head
        self.fileDescriptor = fileDescriptor
        self.closing = closing
    }

    deinit {
        if closing { close(fileDescriptor) }
    }

    static func from(_ context: UnsafeMutableRawPointer?) -> SndfileStreamSource {
        Unmanaged<SndfileStreamSource>.fromOpaque(context!).takeUnretainedValue()
    }

    /// Reads up to `count` bytes into `buffer`; returns the bytes read, 0 at the end.
    func read(_ buffer: UnsafeMutableRawPointer, count: Int64) -> Int64 {
        var done: Int64 = 0
        while done < count, position < Int64(head.count) {
            let part = min(count - done, Int64(head.count) - position)
            head.withUnsafeBytes { (buffer + Int(done)).copyMemory(from: $0.baseAddress! + Int(position), byteCount: Int(part)) }
            done += part
            position += part
        }
        while done < count {
            let got = readDescriptor(fileDescriptor, buffer + Int(done), Int(count - done))
            if got < 0, errno == EINTR { continue }
            if got <= 0 { break }
            done += Int64(got)
            position += Int64(got)
            streamed += Int64(got)
        }
        return done
    }

    /// Moves to `offset` (from `whence`) when that is within the head, before anything past it
    /// was read, or is where the stream already stands; returns the new position or -1.
    func seek(_ offset: Int64, whence: Int32) -> Int64 {
        let target: Int64
        switch whence {
        case SEEK_SET: target = offset
        case SEEK_CUR: target = position + offset
        default: return -1
        }
        guard target == position || (streamed == 0 && target >= 0 && target <= Int64(head.count)) else { return -1 }
        position = target
        return position
    }
}

/// The C library's `read`, out of reach of `SndfileStreamSource.read`'s name.
private func readDescriptor(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
    read(descriptor, buffer, count)
}
