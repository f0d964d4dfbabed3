import AudioFormats
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A destination written through a temporary file beside it, renamed over it on success.
///
/// The temporary file is created exclusively in the destination's folder (so the rename is
/// atomic on one file system). Until `commit()`, an existing destination is untouched;
/// `discard()` removes the temporary file, as does releasing it unsettled. Failures are
/// `AudioFormatError`s of kind `.cannotOpen` whose reason begins "cannot create output". Standard output (`-`) and existing files that are
/// not regular files (`/dev/null`, a named pipe) are written directly: renaming over them would
/// replace the device or pipe itself.
public final class OutputFile {
    /// The destination as the user named it.
    public let path: String
    /// The descriptor to write to; the writer that takes it closes it.
    public let fileDescriptor: Int32
    private let temporaryPath: String?
    private var settled = false
    private var cleanupSlot: Int?

    /// Creates the temporary file for `path`, or takes standard output for `-`.
    public convenience init(path: String) throws(AudioFormatError) {
        try self.init(destination: OutputDestination(path))
    }

    /// Creates the temporary file for a regular file, or opens standard output or a device to
    /// write in place.
    public init(destination: OutputDestination) throws(AudioFormatError) {
        let path = destination.path
        self.path = path
        switch destination {
        case .standardOutput:
            fileDescriptor = STDOUT_FILENO
            temporaryPath = nil
            return
        case .device(let path):
            let descriptor = open(path, O_WRONLY)
            guard descriptor >= 0 else { throw Self.cannotCreate(path, String(cString: strerror(errno))) }
            fileDescriptor = descriptor
            temporaryPath = nil
            return
        case .file(let path):
            var status = stat()
            if stat(path, &status) == 0, (status.st_mode & S_IFMT) == S_IFDIR { throw Self.cannotCreate(path, "is a directory") }
        }
        let slash = path.lastIndex(of: "/")
        let folder = slash.map { String(path[...$0]) } ?? ""
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        // The name is registered for cleanup before the file exists, so a signal arriving on any
        // thread at any moment cannot leave it behind; O_EXCL makes the file ours alone. Read and
        // write: the Ogg serial-number fix reads the pages back.
        var descriptor: Int32 = -1
        var temporary = ""
        for _ in 0..<100 {
            let suffix = String(UInt64.random(in: 0...UInt64.max), radix: 36)
            temporary = "\(folder).\(name).aurender-\(suffix)"
            cleanupSlot = InterruptCleanup.register(temporary)
            descriptor = open(temporary, O_RDWR | O_CREAT | O_EXCL, 0o600)
            if descriptor >= 0 || errno != EEXIST { break }
            InterruptCleanup.unregister(cleanupSlot)
        }
        guard descriptor >= 0 else {
            let reason = String(cString: strerror(errno))
            InterruptCleanup.unregister(cleanupSlot)
            throw Self.cannotCreate(path, reason)
        }
        let mask = umask(0)
        umask(mask)
        fchmod(descriptor, 0o666 & ~mask)
        fileDescriptor = descriptor
        temporaryPath = temporary
    }

    deinit { discard() }

    /// Moves the finished temporary file over the destination.
    public func commit() throws(AudioFormatError) {
        guard !settled else { return }
        settled = true
        defer { InterruptCleanup.unregister(cleanupSlot) }
        guard let temporaryPath else { return }
        if rename(temporaryPath, path) != 0 {
            let reason = String(cString: strerror(errno))
            unlink(temporaryPath)
            throw Self.cannotCreate(path, reason)
        }
    }

    /// The error for a destination that cannot be created or put in place.
    static func cannotCreate(_ path: String, _ reason: String) -> AudioFormatError {
        AudioFormatError(path: path, kind: .cannotOpen, reason: "cannot create output: \(reason)")
    }

    /// Removes the temporary file; the destination stays as it was.
    public func discard() {
        guard !settled else { return }
        settled = true
        if let temporaryPath { unlink(temporaryPath) }
        InterruptCleanup.unregister(cleanupSlot)
    }
}

extension OutputFile {
    /// Writes `text` to `path` through a temporary file renamed into place: a report or a plot
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
