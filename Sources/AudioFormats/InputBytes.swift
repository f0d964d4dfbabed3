#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The bytes of one input from its first, as a C library's custom I/O callbacks read them
/// (libsndfile's virtual I/O, FFmpeg's AVIOContext): a regular file read and sought directly,
/// or a pipe that gives the head the sniffer took out of it first.
///
/// On a pipe, seeks work only within the head before anything past it was read, or to where
/// the stream already stands; elsewhere they fail, as on any pipe. (libsndfile's FLAC decoder
/// seeks back to byte 0 after recognising the file: keeping the head is what lets it read a pipe.)
public final class InputBytes {
    private let fileDescriptor: Int32
    private let head: [UInt8]
    private let closing: Bool
    /// Where the input starts in the descriptor (a regular file given at an offset).
    private let start: Int64
    /// Whether the input can seek anywhere (a regular file).
    public let isSeekable: Bool
    /// The input's size in bytes, for a regular file.
    public let size: Int64?
    /// The byte the next read returns.
    public private(set) var position: Int64 = 0
    /// Bytes read from a pipe after the head.
    private var streamed: Int64 = 0

    /// The bytes of `input` from its first: opens its path, or reads its descriptor after its head.
    public init(input: AudioInput) throws(AudioFormatError) {
        if let descriptor = input.fileDescriptor {
            fileDescriptor = descriptor
            closing = input.decoderClosesDescriptor
        } else {
            fileDescriptor = open(input.path, O_RDONLY)
            guard fileDescriptor >= 0 else {
                throw AudioFormatError(path: input.path, kind: .cannotOpen, reason: String(cString: strerror(errno)))
            }
            closing = true
        }
        if input.headIsConsumed {
            head = input.head
            start = 0
            isSeekable = false
            size = nil
        } else {
            head = []
            start = Int64(lseek(fileDescriptor, 0, SEEK_CUR))
            var status = stat()
            isSeekable = fstat(fileDescriptor, &status) == 0
            size = isSeekable ? Int64(status.st_size) - start : nil
        }
    }

    deinit {
        if closing { close(fileDescriptor) }
    }

    /// A second reader of the same regular file with a place of its own, for a decoder that
    /// works on two segments of the file at once; nil for a pipe. It shares this one's
    /// descriptor, which only this one closes, so it must not outlive it.
    public func twin() -> InputBytes? {
        isSeekable ? InputBytes(twinOf: self) : nil
    }

    private init(twinOf other: InputBytes) {
        fileDescriptor = other.fileDescriptor
        head = []
        closing = false
        start = other.start
        isSeekable = true
        size = other.size
    }

    /// Reads up to `count` bytes into `buffer`; returns the bytes read, 0 at the end.
    public func read(_ buffer: UnsafeMutableRawPointer, count: Int) -> Int {
        var done = 0
        while done < count, position < Int64(head.count) {
            let part = min(count - done, head.count - Int(position))
            head.withUnsafeBytes { (buffer + done).copyMemory(from: $0.baseAddress! + Int(position), byteCount: part) }
            done += part
            position += Int64(part)
        }
        while done < count {
            let got = isSeekable ? pread(fileDescriptor, buffer + done, count - done, off_t(start + position))
                : readDescriptor(fileDescriptor, buffer + done, count - done)
            if got < 0, errno == EINTR { continue }
            if got <= 0 { break }
            done += got
            position += Int64(got)
            if !isSeekable { streamed += Int64(got) }
        }
        return done
    }

    /// Moves to `offset` from `whence` (`SEEK_SET`, `SEEK_CUR`, `SEEK_END`); returns the new
    /// position, or -1 where the input cannot go.
    public func seek(_ offset: Int64, whence: Int32) -> Int64 {
        let target: Int64
        switch whence {
        case SEEK_SET: target = offset
        case SEEK_CUR: target = position + offset
        case SEEK_END:
            guard let size else { return -1 }
            target = size + offset
        default: return -1
        }
        guard target >= 0 else { return -1 }
        if !isSeekable, target != position, streamed != 0 || target > Int64(head.count) { return -1 }
        position = target
        return position
    }
}

/// The C library's `read`, out of reach of `InputBytes.read`'s name.
private func readDescriptor(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
    read(descriptor, buffer, count)
}
