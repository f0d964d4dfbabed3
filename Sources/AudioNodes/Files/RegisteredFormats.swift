import AudioFormats
import FFmpegFormats
import SoundFile

extension FormatRegistry {
    /// The decoders and encoders this build has, in order of preference: the one list of
    /// tenants. A new decoder or encoder is one `AudioFormatKind` and one line here.
    public static let standard = FormatRegistry(kinds: [
        LibSndfileFormats(),
        FFmpegFormats(),
    ])
}
