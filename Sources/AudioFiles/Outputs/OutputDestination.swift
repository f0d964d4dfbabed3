#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where a render's output goes, decided once from what the user named.
///
/// A regular file (new or existing) is written through a temporary file renamed over it on
/// success; standard output and existing devices or pipes (`/dev/null`, a named pipe) are
/// written in place, since renaming over them would replace the device or pipe itself.
public enum OutputDestination: Equatable, Sendable, CustomStringConvertible {
    /// A regular file, written through a temporary beside it.
    case file(String)
    /// Standard output (`-`).
    case standardOutput
    /// An existing device, pipe or socket, written in place.
    case device(String)

    /// The destination `path` names: `-` is standard output; an existing file that is not a
    /// regular file (nor a directory, which cannot be written) is a device.
    public init(_ path: String) {
        if path == "-" {
            self = .standardOutput
            return
        }
        var status = stat()
        let type = stat(path, &status) == 0 ? status.st_mode & S_IFMT : S_IFREG
        self = type == S_IFREG || type == S_IFDIR ? .file(path) : .device(path)
    }

    /// The path as the user named it (`-` for standard output), for messages.
    public var path: String {
        switch self {
        case .file(let path), .device(let path): path
        case .standardOutput: "-"
        }
    }

    /// Whether the output is a stream that cannot go back (a pipe or standard output), as some containers need.
    public var isStandardOutput: Bool { self == .standardOutput }

    /// Whether the output is a regular file (written through an unfinished file put in place).
    public var isFile: Bool {
        if case .file = self { return true }
        return false
    }

    public var description: String { path }
}

extension OutputDestination {
    /// How far a finished output is pushed towards storage before the render reports it done.
    ///
    /// Either way the output appears whole or not at all; the difference is a power cut or a
    /// kernel crash soon after the render returns, which may lose a `.committed` output (or leave
    /// the file it replaced) but not a `.synchronized` one.
    public enum Durability: Sendable, Equatable {
        /// Put in place atomically; the system writes it to storage when it chooses.
        case committed
        /// Flushed to storage before it counts as done: the file (`fsync`), then its folder, so
        /// its name survives too. Only a regular file can be; standard output and devices are refused.
        case synchronized
    }
}
