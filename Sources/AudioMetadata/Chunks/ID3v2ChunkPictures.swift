/// The pictures of a WAV or AIFF output, added to its ID3v2 chunk after TagLib wrote the text:
/// each `APIC` frame's bytes are written from the picture's own data (`ID3v2Pictures`), where
/// TagLib would render the frame, the tag and the chunk each as a copy of the last, so that a
/// 20 MB cover is held once, not four times.
enum ID3v2ChunkPictures {
    /// Adds `pictures` to the ID3v2 chunk of the finished WAV or AIFF file on `descriptor` (the
    /// last chunk called `ID3 ` or `id3 `, or a new `ID3 ` chunk), which then goes last; gives the
    /// pictures it holds. Errors name `path`.
    static func add(_ pictures: [Picture], descriptor: Int32, path: String) throws(MetadataError) -> [Picture] {
        guard var file = ChunkFile(descriptor: descriptor) else {
            throw MetadataError(path: path, kind: .writeFailed, reason: "cover art not written: the output's chunks cannot be read")
        }
        let existing = file.chunks.last { $0.id == "ID3 " || $0.id == "id3 " }
        guard let pictured = ID3v2Pictures(adding: pictures, to: existing.map(file.body) ?? emptyTag) else {
            throw MetadataError(path: path, kind: .writeFailed, reason: "cover art not written: the ID3v2 chunk TagLib wrote is not an ID3v2.4 tag")
        }
        if let reason = file.putLast(existing?.id ?? "ID3 ", replacing: existing, pieces: pictured.pieces) {
            throw MetadataError(path: path, kind: .writeFailed, reason: "cover art not written: \(reason)")
        }
        return pictured.pictures
    }

    /// An ID3v2.4 tag of no frames: its header alone.
    static let emptyTag: [UInt8] = Array("ID3".utf8) + [4, 0, 0, 0, 0, 0, 0]
}
