import AudioFormats

/// The tags FFmpeg reads in a file, named as TagLib's property map names them: what is kept of
/// a tag TagLib refuses as damaged, since FFmpeg's demuxers skip a bad atom, frame or field and
/// read on.
///
/// FFmpeg names the common fields in its own vocabulary (`album_artist`, `track`), which
/// `propertyNames` maps; any other key is upper-cased, as a Vorbis comment's field name is. The
/// container's own bookkeeping (`major_brand`, `creation_time`, `encoder`, the iTunes gapless
/// `iTunSMPB`) is not a tag and is left out.
public enum FFmpegTags {
    /// FFmpeg's names of the fields TagLib's property map names otherwise.
    static let propertyNames = [
        "album_artist": "ALBUMARTIST", "track": "TRACKNUMBER", "disc": "DISCNUMBER", "lyrics": "LYRICS",
        "date": "DATE", "year": "DATE", "sort_name": "TITLESORT", "sort_artist": "ARTISTSORT", "sort_album": "ALBUMSORT",
        "sort_album_artist": "ALBUMARTISTSORT", "sort_composer": "COMPOSERSORT",
    ]

    /// The keys FFmpeg reports that describe the container or its encoding, not what it holds.
    static let bookkeeping: Set<String> = [
        "major_brand", "minor_version", "compatible_brands", "creation_time", "encoder", "handler_name", "vendor_id",
        "itunsmpb", "itunnorm", "language", "duration", "wm/encodingsettings",
    ]

    /// The tags of the file at `path` as FFmpeg reads them, each key's values in order; nil when
    /// FFmpeg's libraries are missing or cannot open it.
    public static func read(path: String) -> [(key: String, value: String)]? {
        guard case .success(let api) = LibAVLibraries.loaded,
              let input = try? AudioInput(path: path), let source = try? InputBytes(input: input),
              let reader = try? LibAVReader(api: api, source: source, path: path, expected: nil, requiringConfidentProbe: false)
        else { return nil }
        defer { reader.close() }
        return reader.metadata.compactMap { entry in
            let lower = entry.key.lowercased()
            guard !bookkeeping.contains(lower) else { return nil }
            return (propertyNames[lower] ?? entry.key.uppercased(), entry.value)
        }
    }
}
