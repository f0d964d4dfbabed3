#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An input about to be decoded: a path, an open descriptor or standard input, with its first
/// bytes read once so that a decoder can be chosen by content.
///
/// From a regular file the first bytes are read without moving the file's position; from a
/// pipe they are taken out of the pipe, so the decoder chosen must consume `head` before it
/// reads `fileDescriptor` (the pipe is never read twice and never loses its header).
public final class AudioInput {
    /// How many bytes `head` holds at most: enough for every magic number the registry knows.
    public static let headSize = 4096

    /// The file as the user named it; `-` is standard input.
    public let path: String
    /// The descriptor to read, or nil when the input is a path a decoder opens itself.
    public let fileDescriptor: Int32?
    /// The first bytes of the input (fewer only for a shorter input).
    public let head: [UInt8]
    /// Whether `head` was taken out of the descriptor (a pipe), rather than peeked at.
    public let headIsConsumed: Bool
    /// Whether the decoder made from this input must close `fileDescriptor` when done: a named
    /// pipe or device given by path, which can be opened only once.
    public let decoderClosesDescriptor: Bool

    /// Peeks at the first `headBytes` bytes of the file at `path`; `-` is standard input.
    /// Missing, unreadable and directory paths are refused here with clear reasons.
    public convenience init(path: String, headBytes: Int = headSize) throws(AudioFormatError) {
        if path == "-" {
            try self.init(fileDescriptor: STDIN_FILENO, path: path, headBytes: headBytes)
            return
        }
        var status = stat()
        guard stat(path, &status) == 0 else { throw Self.systemError(path) }
        if (status.st_mode & S_IFMT) == S_IFDIR {
            throw AudioFormatError(path: path, kind: .cannotOpen, reason: "is a directory, not a sound file")
        }
        guard access(path, R_OK) == 0 else { throw Self.systemError(path) }
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { throw Self.systemError(path) }
        if (status.st_mode & S_IFMT) != S_IFREG {
            do {
                self.init(path: path, fileDescriptor: descriptor, head: try Self.readHead(descriptor, path: path, consuming: true, size: headBytes),
                          headIsConsumed: true, decoderClosesDescriptor: true)
            } catch {
                close(descriptor)
                throw error
            }
            return
        }
        defer { close(descriptor) }
        self.init(path: path, fileDescriptor: nil, head: try Self.readHead(descriptor, path: path, consuming: true, size: headBytes),
                  headIsConsumed: false, decoderClosesDescriptor: false)
    }

    /// Takes the input open on `fileDescriptor` (not closed here), named `path` in messages,
    /// with its first `headBytes` bytes (none for a headerless input, which is not sniffed).
    public convenience init(fileDescriptor: Int32, path: String, headBytes: Int = headSize) throws(AudioFormatError) {
        var status = stat()
        guard fstat(fileDescriptor, &status) == 0 else { throw Self.systemError(path) }
        let isRegular = (status.st_mode & S_IFMT) == S_IFREG
        self.init(path: path, fileDescriptor: fileDescriptor,
                  head: try Self.readHead(fileDescriptor, path: path, consuming: !isRegular, size: headBytes), headIsConsumed: !isRegular,
                  decoderClosesDescriptor: false)
    }

    private init(path: String, fileDescriptor: Int32?, head: [UInt8], headIsConsumed: Bool, decoderClosesDescriptor: Bool) {
        self.path = path
        self.fileDescriptor = fileDescriptor
        self.head = head
        self.headIsConsumed = headIsConsumed
        self.decoderClosesDescriptor = decoderClosesDescriptor
    }

    /// Whether the input is empty.
    public var isEmpty: Bool { head.isEmpty }

    /// The bytes of a regular file from where the input starts (a descriptor's position); nil
    /// for a pipe or a device.
    public var size: Int64? {
        guard !headIsConsumed else { return nil }
        let descriptor = fileDescriptor ?? open(path, O_RDONLY)
        guard descriptor >= 0 else { return nil }
        defer { if fileDescriptor == nil { close(descriptor) } }
        var status = stat()
        let start = fileDescriptor == nil ? 0 : lseek(descriptor, 0, SEEK_CUR)
        guard start >= 0, fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else { return nil }
        return Int64(status.st_size) - Int64(start)
    }

    /// Up to `count` bytes at `offset` from the input's first byte, read without moving any
    /// position, for a header that lies beyond `head`; nil from a pipe, whose bytes past the head
    /// cannot be read twice, and where the read fails.
    public func bytes(at offset: Int64, count: Int) -> [UInt8]? {
        guard !headIsConsumed, offset >= 0, count >= 0 else { return nil }
        let descriptor = fileDescriptor ?? open(path, O_RDONLY)
        guard descriptor >= 0 else { return nil }
        defer { if fileDescriptor == nil { close(descriptor) } }
        let start = fileDescriptor == nil ? 0 : lseek(descriptor, 0, SEEK_CUR)
        guard start >= 0, offset <= Int64.max - Int64(start) - Int64(count) else { return nil }
        var bytes = [UInt8](repeating: 0, count: count)
        var got = 0
        while got < count {
            let part = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress! + got, count - got, start + off_t(offset) + off_t(got)) }
            if part < 0, errno == EINTR { continue }
            if part < 0 { return nil }
            if part == 0 { break }
            got += part
        }
        return Array(bytes[0..<got])
    }

    /// Up to `size` bytes from the descriptor: read (and so consumed) from a pipe, or
    /// peeked at the current position of a regular file.
    private static func readHead(_ descriptor: Int32, path: String, consuming: Bool, size headSize: Int) throws(AudioFormatError) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: headSize)
        var count = 0
        let start = consuming ? 0 : lseek(descriptor, 0, SEEK_CUR)
        while count < headSize {
            let got = bytes.withUnsafeMutableBytes { buffer in
                consuming ? read(descriptor, buffer.baseAddress! + count, headSize - count)
                    : pread(descriptor, buffer.baseAddress! + count, headSize - count, start + off_t(count))
            }
            if got < 0, errno == EINTR { continue }
            if got < 0 {
                throw AudioFormatError(path: path, kind: .readFailed, reason: String(cString: strerror(errno)))
            }
            if got == 0 { break }
            count += got
        }
        return Array(bytes[0..<count])
    }

    private static func systemError(_ path: String) -> AudioFormatError {
        AudioFormatError(path: path, kind: .cannotOpen, reason: String(cString: strerror(errno)))
    }
}
