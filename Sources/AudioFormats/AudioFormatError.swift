/// An audio file could not be opened, read or written; the message names the file.
public struct AudioFormatError: Error, Equatable, CustomStringConvertible {
    /// What went wrong, in the terms a caller acts on (exit codes, retries).
    public enum Kind: Equatable, Sendable {
        /// The path is missing, unreadable, a directory or not openable for writing.
        case cannotOpen
        /// The file opened but its contents are not usable audio.
        case invalidFile
        /// The format was recognised, but no decoder in this build reads it.
        case unsupportedInput
        /// No encoder can write the requested container and encoding together.
        case unsupportedFormat
        /// Reading failed after the file was opened.
        case readFailed
        /// Writing failed (a full disk, a closed pipe, a failed header update).
        case writeFailed
        /// The source cannot go back to its start (a pipe).
        case notSeekable
    }

    /// The file, as the user named it (`-` for a standard stream).
    public let path: String
    /// What went wrong.
    public let kind: Kind
    /// The cause, in words, often the decoder's own message.
    public let reason: String

    /// An error about `path` of `kind`, explained by `reason`.
    public init(path: String, kind: Kind, reason: String) {
        self.path = path
        self.kind = kind
        self.reason = reason
    }

    /// `path: reason`, the one line a user sees.
    public var description: String { "\(path): \(reason)" }
}
