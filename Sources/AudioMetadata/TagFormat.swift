/// A tag format aurender writes, one per kind of output file TagLib can tag: the tag system it
/// holds and whether its encoder stamps it.
public enum TagFormat: String, CaseIterable, Sendable {
    /// MP3 and other MPEG audio: an ID3v2.4 tag before the audio, nothing else.
    case mpeg
    /// MPEG-4 (`.m4a`): `ilst` atoms, freeform `----:com.apple.iTunes:` atoms for free keys.
    case mp4
    /// FLAC: Vorbis comments and `PICTURE` blocks.
    case flac
    /// Ogg Vorbis: Vorbis comments, pictures as `METADATA_BLOCK_PICTURE`.
    case oggVorbis = "ogg-vorbis"
    /// Ogg Opus: Vorbis comments in `OpusTags`, pictures as `METADATA_BLOCK_PICTURE`.
    case oggOpus = "ogg-opus"
    /// FLAC in Ogg: Vorbis comments, pictures as `METADATA_BLOCK_PICTURE`.
    case oggFLAC = "ogg-flac"
    /// WAV: an `id3 ` chunk (ID3v2.4, with the pictures) and a `LIST INFO` chunk.
    case wav
    /// AIFF: an `ID3 ` chunk (ID3v2.4).
    case aiff

    /// The tag system the format's tags are written in.
    public var system: TagSystem {
        switch self {
        case .mpeg, .wav, .aiff: .id3v2
        case .mp4: .mp4
        case .flac, .oggVorbis, .oggOpus, .oggFLAC: .vorbisComments
        }
    }

    /// Whether aurender's encoder of the format writes a tag of its own that the user did not ask
    /// for, so the tags are rewritten even for an input without any: libsndfile's Vorbis encoder
    /// writes `ENCODER=libsndfile` into every Ogg Vorbis file.
    public var isStampedByItsEncoder: Bool { self == .oggVorbis }

    /// The largest picture the format holds, in bytes with its MIME type and description, and
    /// why; nil where no limit binds before memory does. A FLAC metadata block states its length
    /// in 24 bits, so a `PICTURE` block (32 bytes of fields beside the strings and the image) ends
    /// at 16 MiB; an MP3's ID3v2 tag states its length in 28 bits, all its frames together.
    public var pictureLimit: (bytes: Int, reason: String)? {
        switch self {
        case .flac: ((1 << 24) - 1 - 32, "a FLAC picture block holds at most 16 MiB")
        case .mpeg: (ID3v2Pictures.largestBody - 10, "an ID3v2 tag holds at most 256 MiB")
        default: nil
        }
    }

    /// The name for messages: `MP4`, `Ogg Opus`.
    public var name: String {
        switch self {
        case .mpeg: "MP3"
        case .mp4: "MP4"
        case .flac: "FLAC"
        case .oggVorbis: "Ogg Vorbis"
        case .oggOpus: "Ogg Opus"
        case .oggFLAC: "Ogg FLAC"
        case .wav: "WAV"
        case .aiff: "AIFF"
        }
    }
}

/// A tag system: how keys are stored, which decides how track and disc numbers are written.
public enum TagSystem: Sendable {
    /// ID3v2 frames (`TIT2`, `TRCK`; free keys as `TXXX`).
    case id3v2
    /// MP4 atoms (`©nam`, `trkn`; free keys as `----` atoms).
    case mp4
    /// Vorbis comments (`TITLE=`, any key).
    case vorbisComments
}
