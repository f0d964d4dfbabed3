import AudioFormats

/// libmpg123 as a tenant of the format registry: it decodes MPEG audio — MP3, and MP2 and MP1
/// — alone or inside a WAV (format tags 0x55 and 0x50), as its reference decoder `mpg123`
/// does, gapless whatever encoder wrote the LAME tag. It writes nothing (libsndfile writes MP3).
///
/// It takes MP3 over from libsndfile, which decodes through libmpg123 too but stopped at length
/// estimates, failed on some tags ("Unspecified internal error") and refused MP3 in WAV.
public struct Mpg123Formats: AudioDecoderKind {
    /// libmpg123's kind, as the registry lists it.
    public init() {}

    /// `mpg123`.
    public var name: String { "mpg123" }

    /// MPEG audio, and WAV files holding it.
    public var decodedContainers: Set<AudioContainer> { [.mp3, .mpegInWAV] }

    /// libmpg123 would take text and noise for MPEG frames after a long enough resync: it claims
    /// only what the sniffer names.
    public var triesUnrecognisedInputs: Bool { false }

    /// An `Mpg123Decoder` on `input`, which must be MPEG audio by its first bytes.
    public func makeDecoder(for input: AudioInput, raw: RawFormat?) throws(AudioFormatError) -> any AudioDecoder {
        guard raw == nil else {
            throw AudioFormatError(path: input.path, kind: .unsupportedInput, reason: "libmpg123 does not read headerless (raw) audio")
        }
        // libmpg123 resyncs through anything to something frame-like: a forced input must be MPEG audio.
        guard case .container(let container, _) = FormatSniffer.sniff(input.head), decodedContainers.contains(container) else {
            throw AudioFormatError(path: input.path, kind: .invalidFile, reason: "not MPEG audio (MP3, MP2 or MP1), which is all libmpg123 decodes")
        }
        return try Mpg123Decoder(input: input, container: container)
    }
}
