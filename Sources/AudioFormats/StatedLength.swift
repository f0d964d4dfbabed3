/// Holds a decoder to the length its container states: reads stop there, and an input that
/// ends before it is an error naming the file, the frames stated and the frames found, never
/// a short output passed off as whole. A length stated only roughly (Matroska's milliseconds)
/// fails the same way when the input ends clearly short of it; an input whose header only
/// estimates its length fails when nothing at all decodes; and one its decoder found cut short
/// or damaged without a stated length (an Ogg stream without its last page, a packet that does
/// not decode) fails where it ends.
///
/// A count the codec keeps (a Xing frame count, a `fact` chunk) is held to as a length, since
/// it trims the encoder's padding, but it is no evidence of a cut: such an input that decodes
/// to fewer frames fails only where its bytes say it was cut (`cutShort`).
public struct StatedLength: Sendable {
    /// The frames the container states, when it states them exactly.
    public let frames: Int64?
    /// A length the container states roughly, and how far short of it a whole input may end.
    private let roughly: (frames: Int64, tolerance: Int64)?
    /// Whether the input claims audio (an estimated length above zero) without stating how much.
    private let claimsAudio: Bool
    /// Whether the decoder found the input cut short or damaged.
    private var isCutShort: Bool
    /// Whether an input ending before `frames` was cut: false for a codec's own count.
    private let countIsEvidence: Bool
    /// Frames read so far.
    public private(set) var position: Int64 = 0

    /// Holds reads to `length`; `cutShort` when the input is known to end early though its
    /// length is not stated; `roughly` for a length the container states to within
    /// `tolerance` frames, which a whole input may fall short of by at most that; without
    /// `countIsEvidence`, an exact length is a codec's count, which only `cutShort` makes binding.
    public init(_ length: AudioLength, cutShort: Bool = false, roughly: (frames: Int64, tolerance: Int64)? = nil,
                countIsEvidence: Bool = true) {
        frames = length.exactFrames
        self.countIsEvidence = countIsEvidence
        self.roughly = length.exactFrames == nil ? roughly : nil
        claimsAudio = (length.frames ?? 0) > 0
        isCutShort = cutShort
    }

    /// How many of `wanted` frames to ask for: at most what is left of the stated length.
    public func framesToRead(_ wanted: Int) -> Int {
        guard let frames else { return wanted }
        return Int(min(Int64(wanted), max(0, frames - position)))
    }

    /// Notes that the decoder found the input cut short or damaged where it stopped: its end
    /// is then an error even where no length is stated.
    public mutating func markCutShort() {
        isCutShort = true
    }

    /// Counts `got` frames read of `asked`; getting fewer before the stated length is reached
    /// throws, naming `path`, with the two counts as the error's `shortfall`.
    public mutating func count(_ got: Int, of asked: Int, path: String) throws(AudioFormatError) {
        position += Int64(got)
        guard got < asked else { return }
        let shortfall: Shortfall
        if let frames, countIsEvidence || isCutShort || position == 0 {
            shortfall = Shortfall(stated: frames, found: position)
        } else if frames != nil {
            return
        } else if let roughly, position < roughly.frames - roughly.tolerance {
            shortfall = Shortfall(stated: roughly.frames, found: position, isRough: true)
        } else if isCutShort || (claimsAudio && position == 0) {
            shortfall = Shortfall(stated: nil, found: position)
        } else {
            return
        }
        let reason = claimsAudio && position == 0 && shortfall.stated == nil
            ? "the file claims audio but none of it decodes (truncated or damaged)"
            : "the file \(shortfall.description) (truncated or damaged)"
        throw AudioFormatError(path: path, kind: .invalidFile, reason: reason, shortfall: shortfall)
    }

    /// Reads up to `wanted` frames, no further than the stated length, through `read` (given
    /// the frames to read, returning those it read), and counts them as `count` does.
    public mutating func read(_ wanted: Int, path: String, through read: (Int) throws(AudioFormatError) -> Int) throws(AudioFormatError) -> Int {
        let asked = framesToRead(wanted)
        let got = try read(asked)
        try count(got, of: asked, path: path)
        return got
    }

    /// Starts counting again, after the decoder went back to its first frame.
    public mutating func rewind() {
        position = 0
    }
}
