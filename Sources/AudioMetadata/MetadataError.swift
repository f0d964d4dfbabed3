/// Why a file's metadata could not be read or written, naming the file and the part.
public struct MetadataError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What went wrong.
    public enum Kind: Equatable, Sendable {
        /// The file could not be opened.
        case cannotOpen
        /// The tags are damaged: TagLib knows the format but not this file.
        case damaged
        /// Writing the tags into the file failed.
        case writeFailed
        /// TagLib's shim library could not be opened (not installed beside the binary).
        case unavailable
        /// The file holds tags in a format TagLib does not read (a DSF's ID3v2).
        case unsupported
    }

    /// The file as the user named it.
    public let path: String
    public let kind: Kind
    /// What failed, for the user: `the tags cannot be read`.
    public let reason: String

    /// The error for `path`.
    public init(path: String, kind: Kind, reason: String) {
        self.path = path
        self.kind = kind
        self.reason = reason
    }

    /// `in.flac: tags not read: TagLib finds the file damaged`.
    public var description: String { "\(path): \(reason)" }
}
