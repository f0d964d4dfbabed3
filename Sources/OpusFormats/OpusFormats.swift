import AudioFormats

/// libopus (with libogg) as a tenant of the format registry: it decodes plain Ogg Opus files
/// with the lengths of libsndfile and `opusdec` and their samples (within rounding where a long
/// file is decoded in segments on several cores), about twice as fast on one core, and declines
/// every other Ogg Opus input (pipes, chained or multiplexed streams, surround mappings, a header
/// gain, a file with a gap or cut short), which libsndfile after it reads as before. It writes
/// nothing (libsndfile writes Opus).
public struct OpusFormats: AudioDecoderKind {
    /// libopus's kind, as the registry lists it.
    public init() {}

    /// `libopus`.
    public var name: String { "libopus" }

    /// Ogg, of which it claims only the files whose first stream is Opus (`decodedEncodings`).
    public var decodedContainers: Set<AudioContainer> { [.ogg] }

    /// Opus only.
    public var decodedEncodings: [AudioContainer: [AudioEncoding]] { [.ogg: [.opus]] }

    /// Only what the sniffer names Ogg Opus.
    public var triesUnrecognisedInputs: Bool { false }

    /// An `OggOpusDecoder` on `input`, which must be Ogg Opus by its first bytes.
    public func makeDecoder(for input: AudioInput, raw: RawFormat?) throws(AudioFormatError) -> any AudioDecoder {
        guard raw == nil else {
            throw AudioFormatError(path: input.path, kind: .unsupportedInput, reason: "libopus does not read headerless (raw) audio")
        }
        guard case .container(let container, let encoding) = FormatSniffer.sniff(input.head), claims(container, encoding: encoding) else {
            throw AudioFormatError(path: input.path, kind: .invalidFile, reason: "not Ogg Opus, which is all libopus decodes")
        }
        return try OggOpusDecoder(input: input)
    }
}
