import AudioFormats

/// libvorbisfile as a tenant of the format registry: it decodes Ogg Vorbis to the lengths of its
/// reference decoder `oggdec` (built on it), and to its samples but where a lent decoder
/// decodes a long file's segments (FFmpeg's, within 1 LSB at 16 bits). It writes nothing
/// (libsndfile writes Vorbis).
///
/// It takes Ogg Vorbis over from libsndfile, whose own reading of the granule positions gave
/// other lengths on files other encoders made (LMMS's samples: 1,024 frames more than `oggdec`,
/// at the start).
public struct VorbisFileFormats: AudioDecoderKind {
    /// The decoder a long file's segments are decoded with where it takes the file.
    let segmentDecoders: (any SegmentDecoderSource)?

    /// libvorbisfile's kind, as the registry lists it; long files decode in segments with
    /// `segmentDecoders` where it takes them (FFmpeg's decoder in the standard registry), else
    /// with libvorbisfile.
    public init(segmentDecoders: (any SegmentDecoderSource)? = nil) {
        self.segmentDecoders = segmentDecoders
    }

    /// `vorbisfile`.
    public var name: String { "vorbisfile" }

    /// Ogg, of which it claims only the files whose first stream is Vorbis (`decodedEncodings`).
    public var decodedContainers: Set<AudioContainer> { [.ogg] }

    /// Vorbis only: Opus, FLAC and Speex in Ogg, and Ogg files led by a video stream, go to the
    /// tenants after it.
    public var decodedEncodings: [AudioContainer: [AudioEncoding]] { [.ogg: [.vorbis]] }

    /// Only what the sniffer names Ogg Vorbis.
    public var triesUnrecognisedInputs: Bool { false }

    /// A `VorbisFileDecoder` on `input`, which must be Ogg Vorbis by its first bytes.
    public func makeDecoder(for input: AudioInput, raw: RawFormat?) throws(AudioFormatError) -> any AudioDecoder {
        guard raw == nil else {
            throw AudioFormatError(path: input.path, kind: .unsupportedInput, reason: "libvorbisfile does not read headerless (raw) audio")
        }
        guard case .container(let container, let encoding) = FormatSniffer.sniff(input.head), claims(container, encoding: encoding) else {
            throw AudioFormatError(path: input.path, kind: .invalidFile, reason: "not Ogg Vorbis, which is all libvorbisfile decodes")
        }
        return try VorbisFileDecoder(input: input, segmentDecoders: segmentDecoders)
    }
}
