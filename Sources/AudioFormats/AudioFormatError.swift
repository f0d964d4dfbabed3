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
        /// A decoder that reads only part of a format (libopus: plain Ogg Opus files) leaves
        /// this input, having read nothing of a pipe, to the next decoder that claims it.
        case declined
    }

    /// The file, as the user named it (`-` for a standard stream).
    public let path: String
    /// What went wrong.
    public let kind: Kind
    /// The cause, in words, often the decoder's own message.
    public let reason: String
    /// For an input that holds fewer frames than its container states: the two counts, so
    /// that a caller salvaging what decodes knows where it ended.
    public let shortfall: Shortfall?

    /// An error about `path` of `kind`, explained by `reason`; `shortfall` for a short input.
    public init(path: String, kind: Kind, reason: String, shortfall: Shortfall? = nil) {
        self.path = path
        self.kind = kind
        self.reason = reason
        self.shortfall = shortfall
    }

    /// `path: reason`, the one line a user sees.
    public var description: String { "\(path): \(reason)" }
}

/// An input that ended before the length its container states (truncated, or a header that lies).
public struct Shortfall: Equatable, Sendable, CustomStringConvertible {
    /// The frames the container states; nil when it shows it was cut short without saying its
    /// length (an Ogg stream without its last page).
    public let stated: Int64?
    /// The frames that decoded before the input ended.
    public let found: Int64
    /// Whether `stated` is a rough statement (Matroska's milliseconds), not a frame count.
    public let isRough: Bool

    /// A shortfall of `found` frames against `stated`, `isRough` when that is stated roughly.
    public init(stated: Int64?, found: Int64, isRough: Bool = false) {
        self.stated = stated
        self.found = found
        self.isRough = isRough && stated != nil
    }

    /// `states 88200 frames but holds only 52915`, the clause messages use.
    public var description: String {
        guard let stated else {
            return found == 0 ? "ends early, without the end of its stream, before any frame decodes"
                : "ends early, without the end of its stream, after \(found) frames"
        }
        let states = isRough ? "states about \(stated) frames" : "states \(stated) frames"
        return found == 0 ? "\(states) but holds none that decode" : "\(states) but holds only \(found)"
    }
}
