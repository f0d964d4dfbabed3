import AudioFormats
#if FFmpeg
import FFmpegFormats
#endif
import FLACFormats
import Mpg123Formats
import OpusFormats
import SoundFile
import VorbisFormats

extension FormatRegistry {
    /// The decoders and encoders this build has, in order of preference: the one list of
    /// tenants. A new decoder or encoder is one `AudioFormatKind` and one line here. FFmpeg's
    /// is there when the package's `FFmpeg` trait is on (the default), and then also lends its
    /// Vorbis decoder to libvorbisfile's tenant for long files' segments.
    public static let standard: FormatRegistry = {
        #if FFmpeg
        let vorbis = VorbisFileFormats(segmentDecoders: FFmpegSegmentDecoders())
        #else
        let vorbis = VorbisFileFormats()
        #endif
        var kinds: [any AudioFormatKind] = [vorbis, OpusFormats(), FLACFormats(), LibSndfileFormats(), Mpg123Formats()]
        #if FFmpeg
        kinds.append(FFmpegFormats())
        #endif
        return FormatRegistry(kinds: kinds)
    }()
}
