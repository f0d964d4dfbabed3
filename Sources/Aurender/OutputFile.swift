#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A destination written through a temporary file beside it, renamed over it on success.
///
/// The temporary file is created exclusively in the destination's folder (so the rename is
/// atomic on one file system). Until `commit()`, an existing destination is untouched;
/// `discard()` removes the temporary file. Standard output (`-`) and existing files that are
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
    public init(path: String) throws(RenderError) {
        self.path = path
        if path == "-" {
            fileDescriptor = STDOUT_FILENO
            temporaryPath = nil
            return
        }
        var status = stat()
        if stat(path, &status) == 0, (status.st_mode & S_IFMT) != S_IFREG {
            if (status.st_mode & S_IFMT) == S_IFDIR { throw .cannotCreate(path: path, reason: "is a directory") }
            let descriptor = open(path, O_WRONLY)
            guard descriptor >= 0 else { throw .cannotCreate(path: path, reason: String(cString: strerror(errno))) }
            fileDescriptor = descriptor
            temporaryPath = nil
            return
        }
        let slash = path.lastIndex(of: "/")
        let folder = slash.map { String(path[...$0]) } ?? ""
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        var template = Array("\(folder).\(name).aurender-XXXXXX".utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else {
            throw .cannotCreate(path: path, reason: String(cString: strerror(errno)))
        }
        let mask = umask(0)
        umask(mask)
        fchmod(descriptor, 0o666 & ~mask)
        fileDescriptor = descriptor
        temporaryPath = String(cString: template)
        cleanupSlot = InterruptCleanup.register(String(cString: template))
    }

    deinit { discard() }

    /// Moves the finished temporary file over the destination.
    public func commit() throws(RenderError) {
        guard !settled else { return }
        settled = true
        defer { InterruptCleanup.unregister(cleanupSlot) }
        guard let temporaryPath else { return }
        if rename(temporaryPath, path) != 0 {
            let reason = String(cString: strerror(errno))
            unlink(temporaryPath)
            throw .cannotCreate(path: path, reason: reason)
        }
    }

    /// Removes the temporary file; the destination stays as it was.
    public func discard() {
        guard !settled else { return }
        settled = true
        if let temporaryPath { unlink(temporaryPath) }
        InterruptCleanup.unregister(cleanupSlot)
    }
}
