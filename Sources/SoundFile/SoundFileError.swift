/// A sound file could not be opened, read or written; the message names the file.
public struct SoundFileError: Error, Equatable, CustomStringConvertible {
    /// What went wrong, in the terms a caller acts on (exit codes, retries).
    public enum Kind: Equatable, Sendable {
        /// The path is missing, unreadable, a directory or not openable for writing.
        case cannotOpen
        /// The file opened but its contents are not usable audio.
        case invalidFile
        /// libsndfile cannot write the requested container and encoding together.
        case unsupportedFormat
        /// Reading failed after the file was opened.
        case readFailed
        /// Writing failed (a full disk, a closed pipe, a failed header update).
        case writeFailed
    }

    /// The file, as the user named it (`-` for a standard stream).
    public let path: String
    public let kind: Kind
    /// The cause, in words, often libsndfile's own message.
    public let reason: String

    public init(path: String, kind: Kind, reason: String) {
        self.path = path
        self.kind = kind
        self.reason = reason
    }

    public var description: String { "\(path): \(reason)" }
}
