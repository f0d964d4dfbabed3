#if FFmpeg
import FFmpegFormats
#endif

/// The tags a file holds as FFmpeg reads them (`FFmpegTags`), when the build has FFmpeg: what is
/// kept of tags TagLib finds damaged or cannot read.
public enum ContainerTags {
    /// The tags of the file at `path` by FFmpeg's reading, named as TagLib names them; nil
    /// without FFmpeg, or when it cannot open the file.
    public static func readByFFmpeg(path: String) -> [(key: String, value: String)]? {
        #if FFmpeg
        return FFmpegTags.read(path: path)
        #else
        return nil
        #endif
    }
}
