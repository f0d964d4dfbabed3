/// What a file carries besides its samples: tags and pictures, in the form every format is mapped
/// through, and its Broadcast WAV `bext`, iXML and markers.
public struct FileMetadata: Equatable, Sendable {
    /// The tags, as TagLib's property map names them.
    public var tags: Tags
    /// The pictures, in the file's order.
    public var pictures: [Picture]
    /// What the file holds that no property names (an ID3v2 frame ID like `PRIV`, an MP4 atom):
    /// read, but not carried, so a render names it.
    public var unmapped: [String]
    /// The `bext`, iXML and markers, which are not tags.
    public var chunks = ChunkMetadata()
    /// The ID3v2 chapters (`CHAP` frames), as markers in frames at the file's rate: each a region
    /// from its start to its end, labelled by its title.
    public var chapters: [Marker] = []
    /// What of the chapters is damaged, in words (`chapter "chp1" ends … before its start …: left out`); empty when nothing is.
    public var chapterDamage: [String] = []

    /// Tags and pictures; nothing unmapped.
    public init(tags: Tags = Tags(), pictures: [Picture] = [], unmapped: [String] = []) {
        self.tags = tags
        self.pictures = pictures
        self.unmapped = unmapped
    }

    /// Whether there is no tag and no picture (chunks aside: `chunks.isEmpty`).
    public var isEmpty: Bool { tags.isEmpty && pictures.isEmpty }
}
