import AudioGraph

/// An open audio file being decoded, frame by frame, to interleaved Float32.
///
/// Implementations stream: they hold a bounded amount of memory whatever the file's length.
/// A `FormatRegistry` opens one for each input, chosen by the input's content.
public protocol AudioDecoder: AnyObject {
    /// The file as the user named it; `-` is standard input.
    var path: String { get }
    /// The implementation decoding it, by its format kind's name (`libsndfile`, `FFmpeg`).
    var decoderName: String { get }
    /// The container the file is in.
    var container: AudioContainer { get }
    /// How the file stores its samples.
    var encoding: AudioEncoding { get }
    /// Rate and channels, with the sample type the file holds exactly (Float32 for codecs).
    var format: StreamFormat { get }
    /// The frames the file will give, as far as is known before decoding.
    var length: AudioLength { get }
    /// Whether `read(into:frames:)` for Int16 copies without converting (a 16-bit PCM file).
    var readsInt16Natively: Bool { get }
    /// Whether `rewind()` can go back to the first frame (false for a pipe).
    var isSeekable: Bool { get }

    /// Reads up to `frames` interleaved frames as Float32 in [-1, 1); returns the frames read,
    /// fewer only at the end of the file.
    func read(into buffer: UnsafeMutablePointer<Float>, frames: Int) throws(AudioFormatError) -> Int
    /// Reads up to `frames` interleaved frames as 16-bit integers; returns the frames read,
    /// fewer only at the end of the file.
    func read(into buffer: UnsafeMutablePointer<Int16>, frames: Int) throws(AudioFormatError) -> Int
    /// Goes back to the first frame; throws `.notSeekable` for a pipe.
    func rewind() throws(AudioFormatError)
    /// Releases the file; reading afterwards returns no frames.
    func close()
}

/// The format of a headerless (raw) input, which the file cannot tell.
public struct RawFormat: Sendable, Equatable {
    /// Frames per second.
    public var sampleRate: Int
    /// Interleaved channels.
    public var channelCount: Int
    /// How each sample is stored.
    public var encoding: AudioEncoding

    /// A raw format of `channelCount` channels of `encoding` at `sampleRate` Hz.
    public init(sampleRate: Int, channelCount: Int, encoding: AudioEncoding) {
        self.sampleRate = sampleRate
        self.channelCount = channelCount
        self.encoding = encoding
    }
}
