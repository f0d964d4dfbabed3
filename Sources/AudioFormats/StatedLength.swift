/// Holds a decoder to the length its container states: reads stop there, and an input that
/// ends before it is an error naming the file, the frames stated and the frames found, never
/// a short output passed off as whole. An input whose header only estimates its length fails
/// the same way when nothing at all decodes, and one its decoder found cut short without a
/// stated length (an Ogg stream without its last page) fails where it ends.
public struct StatedLength: Sendable {
    /// The frames the container states, when it states them exactly.
    public let frames: Int64?
    /// Whether the input claims audio (an estimated length above zero) without stating how much.
    private let claimsAudio: Bool
    /// Whether the decoder found the input cut short before reading it.
    private let isCutShort: Bool
    /// Frames read so far.
    public private(set) var position: Int64 = 0

    /// Holds reads to `length`; `cutShort` when the input is known to end early though its
    /// length is not stated.
    public init(_ length: AudioLength, cutShort: Bool = false) {
        frames = length.exactFrames
        claimsAudio = (length.frames ?? 0) > 0
        isCutShort = cutShort
    }

    /// How many of `wanted` frames to ask for: at most what is left of the stated length.
    public func framesToRead(_ wanted: Int) -> Int {
        guard let frames else { return wanted }
        return Int(min(Int64(wanted), max(0, frames - position)))
    }

    /// Counts `got` frames read of `asked`; getting fewer before the stated length is reached
    /// throws, naming `path`, with the two counts as the error's `shortfall`.
    public mutating func count(_ got: Int, of asked: Int, path: String) throws(AudioFormatError) {
        position += Int64(got)
        guard got < asked else { return }
        let shortfall: Shortfall
        if let frames {
            shortfall = Shortfall(stated: frames, found: position)
        } else if isCutShort || (claimsAudio && position == 0) {
            shortfall = Shortfall(stated: nil, found: position)
        } else {
            return
        }
        let reason = claimsAudio && position == 0 && frames == nil
            ? "the file claims audio but none of it decodes (truncated or damaged)"
            : "the file \(shortfall.description) (truncated or damaged)"
        throw AudioFormatError(path: path, kind: .invalidFile, reason: reason, shortfall: shortfall)
    }

    /// Starts counting again, after the decoder went back to its first frame.
    public mutating func rewind() {
        position = 0
    }
}
