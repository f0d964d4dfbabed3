/// How many frames a decoder will give, as far as it can tell before decoding.
public enum AudioLength: Equatable, Sendable {
    /// The container states the length (a WAV's data size, FLAC's total samples).
    case exact(Int64)
    /// A guess from headers or bit rate (MP3 without a frame count).
    case estimated(Int64)
    /// Nothing says (a stream on a pipe whose header leaves the size open).
    case unknown

    /// The frame count, exact or estimated; nil when unknown.
    public var frames: Int64? {
        switch self {
        case .exact(let frames), .estimated(let frames): frames
        case .unknown: nil
        }
    }

    /// The frame count only when it is exact.
    public var exactFrames: Int64? {
        if case .exact(let frames) = self { return frames }
        return nil
    }
}
