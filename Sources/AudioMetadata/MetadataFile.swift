/// Reads a file's tags and pictures, and writes them into a finished output, through TagLib.
public enum MetadataFile {
    /// Why tags can be neither read nor written in this process (TagLib's shim library is not
    /// installed beside the binary); nil when they can.
    public static var unavailability: String? { TagLibFile.unavailability }

    /// The tags and pictures of the file at `path`, which is opened read-only and never
    /// written; empty when the file is of a format that holds no tags TagLib reads (AU, raw,
    /// CAF). Damaged tags are a `MetadataError` of kind `.damaged`.
    public static func read(path: String) throws(MetadataError) -> FileMetadata {
        try TagLibFile.read(path: path) ?? FileMetadata()
    }

    /// Writes `metadata` into the file open for reading and writing on `descriptor` (which
    /// stays open), in place of the tags and pictures its encoder wrote, as `format` holds them
    /// (track and disc numbers shaped by `TagMapping`); then reads the file back and gives what
    /// it did not keep. A picture larger than the format holds is left out before TagLib sees it:
    /// TagLib writes a FLAC block of any size, and one past 16 MiB breaks the file. `path` names
    /// the file in errors and in the loss. A WAV's or AIFF's pictures are added to the ID3v2 chunk
    /// TagLib wrote the text into by `ID3v2ChunkPictures`, an MP4's to its `ilst` by
    /// `MP4CoverAtoms` (TagLib writes them where its atoms are laid out otherwise): neither holds
    /// a copy of them.
    public static func write(_ metadata: FileMetadata, toDescriptor descriptor: Int32, as format: TagFormat,
                             path: String) throws(MetadataError) -> MetadataLoss {
        var wanted = metadata
        wanted.tags = TagMapping.tags(metadata.tags, for: format.system)
        var writable = wanted
        if let limit = format.pictureLimit {
            writable.pictures.removeAll { $0.data.count + $0.mimeType.utf8.count + $0.description.utf8.count > limit.bytes }
        }
        var written: FileMetadata
        if [.wav, .aiff, .mp4].contains(format), !writable.pictures.isEmpty {
            var text = writable
            text.pictures = []
            written = try TagLibFile.replace(with: text, descriptor: descriptor, format: format, path: path)
            let pictures = format == .mp4 ? try MP4CoverAtoms.add(writable.pictures, descriptor: descriptor, path: path)
                : try ID3v2ChunkPictures.add(writable.pictures, descriptor: descriptor, path: path)
            if let pictures {
                written.pictures = pictures
            } else {
                written = try TagLibFile.replace(with: writable, descriptor: descriptor, format: format, path: path)
            }
        } else {
            written = try TagLibFile.replace(with: writable, descriptor: descriptor, format: format, path: path)
        }
        var loss = MetadataLoss(path: path, wanted: wanted, written: written, unmapped: metadata.unmapped,
                                statesDimensions: format.system == .vorbisComments)
        if writable.pictures.count < wanted.pictures.count { loss.picturesReason = format.pictureLimit?.reason }
        return loss
    }
}
