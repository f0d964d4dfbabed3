/// What of a file's metadata an output did not keep: the tag keys whose values it lost, the
/// pictures or their details it could not hold, and what the input held that no property names.
///
/// Said in one warning line per output (`description`), never dropped in silence.
public struct MetadataLoss: Equatable, Sendable, CustomStringConvertible {
    /// The output, as named.
    public let path: String
    /// The keys not kept whole (missing, or some of their values missing), in order.
    public var tagKeys: [String] = []
    /// The pictures not kept at all.
    public var pictures = 0
    /// Why the pictures were not kept, when the output says (`a FLAC picture block holds at most
    /// 16 MiB`); nil when it does not.
    public var picturesReason: String?
    /// The pictures kept without their kind or description.
    public var pictureDetails = 0
    /// What the input held that no property names (an ID3v2 frame ID, an MP4 atom), not carried.
    public var unmapped: [String] = []
    /// Why, when the output holds no tags at all (`AU holds no tags`); nil when it holds some.
    public var holdsNone: String?

    /// Everything in `metadata` lost, because the output holds none: `reason` says why.
    public init(path: String, dropping metadata: FileMetadata, because reason: String) {
        self.path = path
        tagKeys = metadata.tags.keys
        pictures = metadata.pictures.count
        unmapped = metadata.unmapped
        holdsNone = reason
    }

    /// What `written`, read back from the output, lacks of `wanted`.
    /// `statesDimensions`: whether the output's pictures state their dimensions (FLAC's blocks), so they are compared too.
    init(path: String, wanted: FileMetadata, written: FileMetadata, unmapped: [String], statesDimensions: Bool) {
        self.path = path
        self.unmapped = unmapped
        for entry in wanted.tags.entries {
            var kept = written.tags[entry.key]
            for value in entry.values {
                guard let found = kept.firstIndex(where: { TagMapping.same(value, $0, key: entry.key) }) else {
                    tagKeys.append(entry.key)
                    break
                }
                kept.remove(at: found)
            }
        }
        var kept = written.pictures
        for picture in wanted.pictures {
            if let exact = kept.firstIndex(where: { $0.isSame(as: picture, but: statesDimensions) }) {
                kept.remove(at: exact)
            } else if let bare = kept.firstIndex(where: { $0.data == picture.data }) {
                kept.remove(at: bare)
                pictureDetails += 1
            } else {
                pictures += 1
            }
        }
    }

    /// Whether everything was kept.
    public var isEmpty: Bool { tagKeys.isEmpty && pictures == 0 && pictureDetails == 0 && unmapped.isEmpty }

    /// One line: `out.m4a: tags not kept: MOOD, TEMPO; cover art kept without its kind or
    /// description (1 picture)`, or `out.au: tags not kept: AU holds no tags`.
    public var description: String {
        if let holdsNone { return "\(path): \(whatIsLost) not kept: \(holdsNone)" }
        var parts: [String] = []
        if !tagKeys.isEmpty { parts.append("tags not kept: " + tagKeys.joined(separator: ", ")) }
        if pictures > 0 {
            parts.append("cover art not kept: \(Self.count(pictures, "picture"))" + (picturesReason.map { " (\($0))" } ?? ""))
        }
        if pictureDetails > 0 { parts.append("cover art kept without its kind and description: \(Self.count(pictureDetails, "picture"))") }
        if !unmapped.isEmpty { parts.append("frames not carried, as TagLib names no key for them: " + unmapped.joined(separator: ", ")) }
        return "\(path): " + parts.joined(separator: "; ")
    }

    /// `tags`, `tags and cover art` or `cover art`, for an output that holds none.
    private var whatIsLost: String {
        switch (tagKeys.isEmpty, pictures == 0) {
        case (false, false): "tags and cover art"
        case (true, false): "cover art"
        default: "tags"
        }
    }

    private static func count(_ number: Int, _ noun: String) -> String { "\(number) \(noun)\(number == 1 ? "" : "s")" }
}
