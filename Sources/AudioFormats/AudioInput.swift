#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// An input about to be decoded: a path, an open descriptor or standard input, with its first
/// bytes read once so that a decoder can be chosen by content.
///
/// From a regular file the first bytes are read without moving the file's position; from a
/// pipe they are taken out of the pipe, so the decoder chosen must consume `head` before it
/// reads `fileDescriptor` (the pipe is never read twice and never loses its header).
public final class AudioInput: Sendable {
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
    /// What `head` holds of the metadata the format places before the audio, when it was asked
    /// for (`leadingMetadataLimit`); nil when it was not.
    public let leadingMetadata: LeadingMetadataRead?

    /// What the head of an input read with a leading-metadata limit holds of that metadata.
    public enum LeadingMetadataRead: Equatable, Sendable {
        /// All of it, in the head's first `length` bytes (`LeadingMetadata.Extent.complete`).
        case whole(length: Int, audioSizeField: LeadingMetadata.AudioSizeField?)
        /// More than `limit` bytes: the tags are not read (the head holds what it would have).
        case tooLarge(limit: Int)
        /// Its header is damaged (or the input ended inside it), so the tags are not read; `reason` says how.
        case damaged(reason: String)
        /// None: a layout without metadata before its audio, or an input that ended first.
        case none
    }

    /// Peeks at the first `headBytes` bytes of the file at `path`; `-` is standard input.
    /// Missing, unreadable and directory paths are refused here with clear reasons.
    /// With `leadingMetadataLimit`, the head of a pipe or device is extended to hold the metadata
    /// its format places before the audio (`LeadingMetadata`), up to that many bytes.
    public convenience init(path: String, headBytes: Int = headSize, leadingMetadataLimit: Int? = nil) throws(AudioFormatError) {
        if path == "-" {
            try self.init(fileDescriptor: STDIN_FILENO, path: path, headBytes: headBytes, leadingMetadataLimit: leadingMetadataLimit)
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
                let (head, leading) = try Self.readHead(descriptor, path: path, consuming: true, size: headBytes, leadingMetadataLimit: leadingMetadataLimit)
                self.init(path: path, fileDescriptor: descriptor, head: head, headIsConsumed: true, decoderClosesDescriptor: true,
                          leadingMetadata: leading)
            } catch {
                close(descriptor)
                throw error
            }
            return
        }
        defer { close(descriptor) }
        self.init(path: path, fileDescriptor: nil, head: try Self.readHead(descriptor, path: path, consuming: true, size: headBytes),
                  headIsConsumed: false, decoderClosesDescriptor: false, leadingMetadata: nil)
    }

    /// Takes the input open on `fileDescriptor` (not closed here), named `path` in messages,
    /// with its first `headBytes` bytes (none for a headerless input, which is not sniffed);
    /// `leadingMetadataLimit` as `init(path:headBytes:leadingMetadataLimit:)`, for a pipe or device.
    public convenience init(fileDescriptor: Int32, path: String, headBytes: Int = headSize, leadingMetadataLimit: Int? = nil) throws(AudioFormatError) {
        var status = stat()
        guard fstat(fileDescriptor, &status) == 0 else { throw Self.systemError(path) }
        let isRegular = (status.st_mode & S_IFMT) == S_IFREG
        let (head, leading) = try Self.readHead(fileDescriptor, path: path, consuming: !isRegular, size: headBytes,
                                                leadingMetadataLimit: isRegular ? nil : leadingMetadataLimit)
        self.init(path: path, fileDescriptor: fileDescriptor, head: head, headIsConsumed: !isRegular, decoderClosesDescriptor: false,
                  leadingMetadata: leading)
    }

    private init(path: String, fileDescriptor: Int32?, head: [UInt8], headIsConsumed: Bool, decoderClosesDescriptor: Bool,
                 leadingMetadata: LeadingMetadataRead?) {
        self.path = path
        self.fileDescriptor = fileDescriptor
        self.head = head
        self.headIsConsumed = headIsConsumed
        self.decoderClosesDescriptor = decoderClosesDescriptor
        self.leadingMetadata = leadingMetadata
    }

    /// Whether `path` (`-` is standard input) is a pipe or device, whose bytes can be read only
    /// once, rather than a regular file (or a missing one).
    public static func isPipe(_ path: String) -> Bool {
        var status = stat()
        return path == "-" ? fstat(STDIN_FILENO, &status) == 0 && (status.st_mode & S_IFMT) != S_IFREG
            : stat(path, &status) == 0 && ![S_IFREG, S_IFDIR].contains(status.st_mode & S_IFMT)
    }

    /// The inputs read from pipes so far, by path, and whether a decoder has taken each.
    private static let pipes = Mutex<[String: (input: AudioInput, decoded: Bool)]>([:])

    /// The input at `path` (`-` is standard input) as this process reads it. A pipe or device
    /// can be read only once, yet its tags are read (`MetadataCarriage`) before its decoder
    /// opens it: so its one `AudioInput` is kept for the process, and the tag reader and the
    /// decoder get the same object, whichever asks first (`leadingMetadataLimit` counts only
    /// for the first). `decoding` takes it for a decoder: a second decoder of the same pipe gets
    /// a new input of what remains, as it would without this. A regular file is opened anew each time.
    public static func shared(path: String, headBytes: Int = headSize, leadingMetadataLimit: Int? = nil,
                              decoding: Bool) throws(AudioFormatError) -> AudioInput {
        guard isPipe(path) else { return try AudioInput(path: path, headBytes: headBytes, leadingMetadataLimit: leadingMetadataLimit) }
        let kept: AudioInput? = pipes.withLock { pipes in
            guard let entry = pipes[path] else { return nil }
            guard decoding else { return entry.input }
            if entry.decoded { return nil }
            pipes[path]?.decoded = true
            return entry.input
        }
        if let kept { return kept }
        let input = try AudioInput(path: path, headBytes: headBytes, leadingMetadataLimit: leadingMetadataLimit)
        pipes.withLock { $0[path] = (input, decoding) }
        return input
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

    /// Up to `size` bytes from the descriptor (read on, up to `leadingMetadataLimit`, while
    /// they end inside the metadata before the audio), and what they hold of that metadata.
    private static func readHead(_ descriptor: Int32, path: String, consuming: Bool, size: Int,
                                 leadingMetadataLimit: Int?) throws(AudioFormatError) -> ([UInt8], LeadingMetadataRead?) {
        var head = try readHead(descriptor, path: path, consuming: consuming, size: size)
        guard let limit = leadingMetadataLimit, size > 0 else { return (head, nil) }
        while true {
            switch LeadingMetadata.extent(head) {
            case .complete(let length, let field):
                return (head, .whole(length: length, audioSizeField: field))
            case .none:
                return (head, LeadingMetadataRead.none)
            case .damaged(let reason):
                return (head, .damaged(reason: reason))
            case .needs(let length):
                guard length <= limit else { return (head, .tooLarge(limit: limit)) }
                let more = try readHead(descriptor, path: path, consuming: consuming, size: length - head.count, after: head.count)
                if more.count < length - head.count { return (head + more, .damaged(reason: "it ends inside the metadata its header states before the audio")) }
                head += more
            }
        }
    }

    /// Up to `size` bytes from the descriptor: read (and so consumed) from a pipe, or
    /// peeked at the current position of a regular file (`after` bytes on).
    private static func readHead(_ descriptor: Int32, path: String, consuming: Bool, size headSize: Int, after: Int = 0) throws(AudioFormatError) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: headSize)
        var count = 0
        let start = consuming ? 0 : lseek(descriptor, 0, SEEK_CUR) + off_t(after)
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
