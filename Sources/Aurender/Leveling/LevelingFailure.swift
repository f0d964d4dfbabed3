import AudioFormats

/// Why one file of `aurender loudness` was not measured or not tagged, naming the file.
public struct LevelingFailure: Error, Sendable, CustomStringConvertible {
    /// What kind of failure, for the exit status.
    public enum Kind: Sendable {
        /// The file is missing or cannot be read.
        case cannotOpen
        /// Its audio cannot be decoded, or holds no loudness to level by.
        case invalid
        /// Its container holds no loudness tags aurender writes.
        case unsupported
        /// It cannot be rewritten (read-only, or writing failed).
        case cannotWrite
    }

    public let path: String
    public let kind: Kind
    /// What failed, for the user.
    public let reason: String

    public init(path: String, kind: Kind, reason: String) {
        self.path = path
        self.kind = kind
        self.reason = reason
    }

    /// A decoder's error, as a failure of its file.
    init(_ error: AudioFormatError) {
        self.init(path: error.path, kind: error.kind == .cannotOpen ? .cannotOpen : .invalid, reason: error.reason)
    }

    /// `song.mp3: the file is read-only; tags not written`.
    public var description: String { "\(path): \(reason)" }
}
