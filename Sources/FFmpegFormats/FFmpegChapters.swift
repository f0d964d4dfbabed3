import AudioFormats

/// The chapters FFmpeg reads in a file (an MPEG-4 chapter track or Nero `chpl` list, which TagLib
/// 1.13 does not read), as markers: each a region from its start to its end in frames at the
/// audio's rate, labelled by its title.
public enum FFmpegChapters {
    /// The chapters of the file at `path`, in the order of their positions; none when FFmpeg's
    /// libraries are missing or cannot open it (its decoder names that in its own error).
    public static func markers(path: String) -> [(frame: Int64, length: Int64, label: String)] {
        guard case .success(let api) = LibAVLibraries.loaded,
              let input = try? AudioInput(path: path), let source = try? InputBytes(input: input),
              let reader = try? LibAVReader(api: api, source: source, path: path, expected: nil, requiringConfidentProbe: false)
        else { return [] }
        defer { reader.close() }
        return reader.chapters.map { (frame: $0.start, length: max(0, $0.end - $0.start), label: $0.title) }.sorted { $0.frame < $1.frame }
    }
}
