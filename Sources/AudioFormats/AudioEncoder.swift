/// An audio file being encoded from interleaved frames.
///
/// Call `finish()` when done: it completes the header and reports a failure a silent close
/// would hide. A `FormatRegistry` makes one for a container and an encoding.
public protocol AudioEncoder: AnyObject {
    /// The file as the user named it; `-` is standard output.
    var path: String { get }
    /// The container being written.
    var container: AudioContainer { get }
    /// How the samples are stored.
    var encoding: AudioEncoding { get }
    /// Interleaved channels per frame.
    var channelCount: Int { get }

    /// Writes interleaved Float32 frames (for float and lossy encodings).
    func write(_ samples: UnsafePointer<Float>, frames: Int) throws(AudioFormatError)
    /// Writes interleaved 16-bit frames (for 16-bit PCM: copied without converting).
    func write(_ samples: UnsafePointer<Int16>, frames: Int) throws(AudioFormatError)
    /// Writes interleaved left-justified 32-bit integer frames (for PCM encodings).
    func write(_ samples: UnsafePointer<Int32>, frames: Int) throws(AudioFormatError)
    /// Completes and closes the file, reporting any failure.
    func finish() throws(AudioFormatError)
    /// Whether the encoder writes `EncoderSettings.leadingTags` before its audio; one that does
    /// not leaves the tags to be written into the finished file, or named as lost on a pipe.
    var wroteLeadingTags: Bool { get }
}

extension AudioEncoder {
    /// None, but for the encoders whose formats place their tags before the audio.
    public var wroteLeadingTags: Bool { false }
}
