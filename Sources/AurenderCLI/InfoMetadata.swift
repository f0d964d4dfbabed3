import Aurender

/// The tags and pictures `aurender info` shows of a file, in text and in `--json`.
struct InfoMetadata: Encodable {
    /// One tag key with its values, in the file's order (`--json`: `{"key": "ARTIST", "values": ["A", "B"]}`).
    struct Tag: Encodable {
        var key: String
        var values: [String]
    }

    /// One picture (`--json`: `{"type": "front cover", "typeNumber": 3, "mimeType": "image/jpeg",
    /// "description": "", "bytes": 1234}`).
    struct PictureInfo: Encodable {
        var type: String
        var typeNumber: Int
        var mimeType: String
        var description: String
        var bytes: Int
    }

    var tags: [Tag]
    var pictures: [PictureInfo]

    init(tags: [Tag], pictures: [PictureInfo]) {
        self.tags = tags
        self.pictures = pictures
    }

    init(_ metadata: FileMetadata) {
        tags = metadata.tags.entries.map { Tag(key: $0.key, values: $0.values) }
        pictures = metadata.pictures.map {
            PictureInfo(type: $0.kind.description, typeNumber: $0.kind.number, mimeType: $0.mimeType, description: $0.description, bytes: $0.data.count)
        }
    }

    /// Every tag and picture of `path` (of standard input, a pipe or a device, those before its
    /// audio: `MetadataCarriage.everything(piped:)`), and with the error when the tags are damaged
    /// (then what FFmpeg reads of them).
    static func read(_ path: String) -> (metadata: InfoMetadata, error: MetadataError?) {
        if let piped = MetadataCarriage.everything(piped: path) { return (InfoMetadata(piped.metadata), piped.readError) }
        let (metadata, error) = MetadataCarriage.metadataKeepingWhatCanBeRead(of: path)
        return (InfoMetadata(metadata ?? FileMetadata()), error)
    }

    /// The text lines: `Tags        : ARTIST = A`, one a value, then one a picture; nothing without either.
    var text: String {
        let indent = String(repeating: " ", count: 14)
        var lines = tags.flatMap { tag in tag.values.map { "\(tag.key) = \($0)" } }.enumerated().map { index, line in
            (index == 0 ? "Tags        : " : indent) + line
        }
        lines += pictures.enumerated().map { index, picture in
            (index == 0 ? "Pictures    : " : indent) + "\(picture.type), \(picture.mimeType.isEmpty ? "no MIME type" : picture.mimeType), \(picture.bytes) bytes"
                + (picture.description.isEmpty ? "" : ", \"\(picture.description)\"")
        }
        return lines.map { "\n" + $0 }.joined()
    }
}
