import FoundationEssentials

/// The tags and pictures of an output in the form its format places them before its audio, for
/// its encoder to write there; and what the form could not hold.
///
/// Written by the encoder, they cost no second pass over the finished file (TagLib would move
/// every byte of an MP3 to make room for its ID3v2 tag), and a pipe, which cannot be gone back
/// into, gets them before its first byte of audio. The mapping is the same: Vorbis comments take
/// TagLib's property names as their field names (as TagLib's `XiphComment` does), and an MP3's
/// ID3v2 tag is rendered by TagLib from the same property map.
public struct StreamedTags: Sendable, Equatable {
    /// Vorbis comment fields, `FIELD=value`, for FLAC, Ogg Vorbis and Opus.
    public var comments: [String] = []
    /// The pictures as the bodies of FLAC `PICTURE` blocks, each as its fields and then the
    /// picture's own bytes (an Ogg stream holds the same bytes in base64, as `METADATA_BLOCK_PICTURE` comments).
    public var pictureBlocks: [[Data]] = []
    /// A whole ID3v2.4 tag, for an MP3, as the pieces to write one after another (`ID3v2Pictures`).
    public var id3v2: [Data] = []
    /// What the output cannot hold of the metadata; nil when it holds all of it.
    public var loss: MetadataLoss?

    /// The tags `metadata` gives an output of `format` at `path` (an empty MP3 tag when there
    /// is nothing to write: no tag at all); nil for a format whose tags aurender writes into the
    /// finished file (MP4's atoms, WAV's and AIFF's chunks, which come after what their encoders write).
    public static func rendering(_ metadata: FileMetadata, as format: TagFormat, path: String) throws(MetadataError) -> StreamedTags? {
        var wanted = metadata
        wanted.tags = TagMapping.tags(metadata.tags, for: format.system)
        var written = FileMetadata(pictures: wanted.pictures)
        var streamed = StreamedTags()
        switch format {
        case .flac, .oggVorbis, .oggOpus:
            if let limit = format.pictureLimit {
                written.pictures.removeAll { $0.data.count + $0.mimeType.utf8.count + $0.description.utf8.count > limit.bytes }
            }
            for (key, value) in wanted.tags.pairs where isVorbisCommentField(key) {
                written.tags.append(value, to: key)
                streamed.comments.append(key + "=" + value)
            }
            streamed.pictureBlocks = written.pictures.map(pictureBlock)
        case .mpeg:
            written.tags = wanted.tags
            guard !wanted.isEmpty else { break }
            let (tag, refused) = try TagLibFile.renderID3v2(wanted, path: path)
            for key in refused { written.tags[key] = [] }
            guard let pictured = ID3v2Pictures(adding: wanted.pictures, to: tag) else {
                throw MetadataError(path: path, kind: .writeFailed, reason: "rendering the ID3v2 tag failed")
            }
            written.pictures = pictured.pictures
            streamed.id3v2 = pictured.pieces
        case .mp4, .oggFLAC, .wav, .aiff:
            return nil
        }
        var loss = MetadataLoss(path: path, wanted: wanted, written: written, unmapped: metadata.unmapped, statesDimensions: true)
        if written.pictures.count < wanted.pictures.count { loss.picturesReason = format.pictureLimit?.reason }
        streamed.loss = loss.isEmpty ? nil : loss
        return streamed
    }

    /// Whether `key` can name a Vorbis comment field: printable ASCII but `=` (TagLib's rule).
    static func isVorbisCommentField(_ key: String) -> Bool {
        !key.isEmpty && key.utf8.allSatisfy { (0x20...0x7D).contains($0) && $0 != UInt8(ascii: "=") }
    }

    /// The body of a FLAC `PICTURE` block: kind, MIME type, description, dimensions and bytes,
    /// big-endian; the bytes are the picture's own data, not a copy.
    static func pictureBlock(_ picture: Picture) -> [Data] {
        func big32(_ value: Int) -> [UInt8] { (0..<4).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }
        let mime = Array(picture.mimeType.utf8), description = Array(picture.description.utf8)
        let dimensions = picture.dimensions
        var block = big32(picture.kind.number) + big32(mime.count) + mime + big32(description.count) + description
        block += big32(dimensions.width) + big32(dimensions.height) + big32(dimensions.colourDepth) + big32(dimensions.colourCount)
        block += big32(picture.data.count)
        return [Data(block), picture.data]
    }
}
