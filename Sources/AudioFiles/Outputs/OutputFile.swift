import AudioFormats
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A destination written through a file with no name in its folder, linked into place on success.
///
/// A regular file is written to an unnamed file (`O_TMPFILE`) in the destination's folder: a
/// process killed at any moment, even by SIGKILL, leaves nothing behind, since the system
/// removes a file nobody names once its descriptor closes. `commit()` links it into place: under
/// the destination's name when that is free; over an existing file through a hidden name
/// (`.NAME.aurender-XXXX`) renamed over it, the one moment a named temporary exists. Where
/// the folder's file system has no unnamed files (or `/proc` is missing, through which an
/// unprivileged process links one), a hidden named temporary is created exclusively instead, as
/// the only way left; SIGINT and SIGTERM remove it (`InterruptCleanup`), SIGKILL cannot.
///
/// A replaced file's permission bits are kept, and its owner and group as far as the process may
/// set them; a new file gets 0666 less the umask. Until `commit()`, an existing destination is
/// untouched; `discard()` drops the unfinished file, as does releasing it unsettled. Failures are
/// `AudioFormatError`s of kind `.cannotOpen` whose reason begins "cannot create output",
/// `.writeFailed` when flushing to storage fails, and `.unsupportedFormat` for `.synchronized`
/// asked of standard output or a device. Standard output (`-`) and existing files that
/// are not regular files (`/dev/null`, a named pipe) are written directly: putting a file in
/// their place would replace the device or pipe itself.
public final class OutputFile {
    /// The destination as the user named it.
    public let path: String
    /// The descriptor to write to; the writer that takes it closes it (for a regular file it is a
    /// duplicate: the `OutputFile` keeps its own until the file is in place).
    public let fileDescriptor: Int32
    /// Whether `commit()` flushes the file and its folder to storage.
    public let durability: OutputDestination.Durability
    private let pending: PendingFile?
    private var settled = false

    /// Creates the unfinished file for `path`, or takes standard output for `-`.
    public convenience init(path: String, durability: OutputDestination.Durability = .committed) throws(AudioFormatError) {
        try self.init(destination: OutputDestination(path), durability: durability)
    }

    /// Creates the unfinished file for a regular file, or opens standard output or a device to
    /// write in place; `.synchronized` is refused for those, which have no storage to flush.
    public convenience init(destination: OutputDestination, durability: OutputDestination.Durability = .committed) throws(AudioFormatError) {
        try self.init(destination: destination, durability: durability, unnamed: true)
    }

    /// `unnamed: false` writes through a named temporary, as on a file system without `O_TMPFILE`.
    init(destination: OutputDestination, durability: OutputDestination.Durability, unnamed: Bool) throws(AudioFormatError) {
        path = destination.path
        self.durability = durability
        if durability == .synchronized, !destination.isFile {
            throw AudioFormatError(path: path, kind: .unsupportedFormat,
                                   reason: "only a regular file can be synchronized to storage, not \(destination.isStandardOutput ? "standard output" : "a device or pipe")")
        }
        switch destination {
        case .standardOutput:
            fileDescriptor = STDOUT_FILENO
            pending = nil
        case .device(let path):
            let descriptor = open(path, O_WRONLY)
            guard descriptor >= 0 else { throw Self.cannotCreate(path, String(cString: strerror(errno))) }
            fileDescriptor = descriptor
            pending = nil
        case .file(let path):
            let file = try PendingFile(path: path, unnamed: unnamed)
            if durability == .synchronized, !file.folderCanBeFlushed {
                file.discard()
                throw Self.cannotCreate(path, "its folder cannot be synchronized to storage: it may be written in but not read")
            }
            let duplicate = fcntl(file.descriptor, F_DUPFD_CLOEXEC, 0)
            guard duplicate >= 0 else {
                let reason = String(cString: strerror(errno))
                file.discard()
                throw Self.cannotCreate(path, reason)
            }
            fileDescriptor = duplicate
            pending = file
        }
    }

    deinit { discard() }

    /// Where the next write to `fileDescriptor` lands, for a regular file (nil for standard
    /// output and devices): after an encoder has written its header, where its first frame goes.
    public var position: Int64? {
        guard pending != nil else { return nil }
        let offset = lseek(fileDescriptor, 0, SEEK_CUR)
        return offset >= 0 ? Int64(offset) : nil
    }

    /// The unfinished file itself, open to read and write until `commit()`, for a regular file
    /// (nil for standard output and devices, and once settled): to add what goes in after the
    /// encoder has closed its descriptor, such as the tags.
    public var unfinishedFileDescriptor: Int32? { settled ? nil : pending?.descriptor }

    /// Puts the finished file in place (flushing it and its folder first and after, when
    /// `.synchronized`).
    public func commit() throws(AudioFormatError) {
        guard !settled else { return }
        settled = true
        guard let pending else { return }
        defer { pending.discard() }
        if durability == .synchronized, fsync(pending.descriptor) != 0 { throw Self.flushFailed(path, "the file") }
        try pending.putInPlace()
        if durability == .synchronized, fsync(pending.folder) != 0 { throw Self.flushFailed(path, "its folder (the file is in place)") }
    }

    /// Drops the unfinished file; the destination stays as it was.
    public func discard() {
        guard !settled else { return }
        settled = true
        pending?.discard()
    }

    /// The error for a destination that cannot be created or put in place.
    static func cannotCreate(_ path: String, _ reason: String) -> AudioFormatError {
        AudioFormatError(path: path, kind: .cannotOpen, reason: "cannot create output: \(reason)")
    }

    /// The error for a flush to storage that failed, with `errno`'s reason.
    private static func flushFailed(_ path: String, _ what: String) -> AudioFormatError {
        AudioFormatError(path: path, kind: .writeFailed, reason: "flushing \(what) to storage failed: \(String(cString: strerror(errno)))")
    }
}

extension OutputFile {
    /// Writes `text` to `path` through an unfinished file put into place: a report or a plot
    /// appears whole or not at all, as audio outputs do.
    public static func write(text: String, to path: String) throws(AudioFormatError) {
        let file = try OutputFile(path: path)
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { writeBytes(file.fileDescriptor, $0) }
            if written <= 0 {
                let reason = String(cString: strerror(errno))
                close(file.fileDescriptor)
                file.discard()
                throw Self.cannotCreate(path, reason)
            }
            bytes = bytes.dropFirst(written)
        }
        close(file.fileDescriptor)
        try file.commit()
    }
}

/// The C library's `write`, out of reach of `OutputFile.write(text:to:)`'s name.
private func writeBytes(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) -> Int {
    write(descriptor, bytes.baseAddress, bytes.count)
}
