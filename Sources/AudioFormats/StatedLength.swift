/// Holds a decoder to the length its container states: reads stop there, and an input that
/// ends before it is an error naming the file, the frames stated and the frames found, never
/// a short output passed off as whole.
public struct StatedLength: Sendable {
    /// The frames the container states, when it states them exactly.
    public let frames: Int64?
    /// Frames read so far.
    public private(set) var position: Int64 = 0

    public init(_ length: AudioLength) {
        frames = length.exactFrames
    }

    /// How many of `wanted` frames to ask for: at most what is left of the stated length.
    public func framesToRead(_ wanted: Int) -> Int {
        guard let frames else { return wanted }
        return Int(min(Int64(wanted), max(0, frames - position)))
    }

    /// Counts `got` frames read of `asked`; getting fewer before the stated length is reached
    /// throws, naming `path`.
    public mutating func count(_ got: Int, of asked: Int, path: String) throws(AudioFormatError) {
        position += Int64(got)
        if got < asked, let frames {
            throw AudioFormatError(path: path, kind: .invalidFile,
                                   reason: "the file states \(frames) frames but holds only \(position) (truncated or damaged)")
        }
    }

    /// Starts counting again, after the decoder went back to its first frame.
    public mutating func rewind() {
        position = 0
    }
}
