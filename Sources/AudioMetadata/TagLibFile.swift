#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CTagShim

/// Every call of TagLib's C shim (`CTagShim`): reading a file's tags and pictures by path,
/// and replacing them in a file open for writing.
enum TagLibFile {
    /// The metadata of the file at `path`, opened read-only; nil when TagLib knows no tag format
    /// for it (the file is none of the formats that hold tags).
    static func read(path: String) throws(MetadataError) -> FileMetadata? {
        var status = TAGSHIM_OPENED
        guard let file = tagshim_open_path(path, &status) else {
            switch status {
            case TAGSHIM_UNKNOWN_FORMAT: return nil
            case TAGSHIM_CANNOT_OPEN: throw MetadataError(path: path, kind: .cannotOpen, reason: "tags not read: the file cannot be opened")
            default: throw MetadataError(path: path, kind: .damaged, reason: "tags not read: TagLib finds them damaged")
            }
        }
        defer { tagshim_close(file) }
        return contents(of: file)
    }

    /// Replaces the tags and pictures of the file open on `descriptor` (read and write; it stays
    /// open) with `metadata`, written as `format`, and gives what the file holds afterwards, read
    /// back from it. Errors name `path`.
    static func replace(with metadata: FileMetadata, descriptor: Int32, format: TagFormat, path: String) throws(MetadataError) -> FileMetadata {
        let file = try open(descriptor: descriptor, format: format, path: path)
        let pairs = metadata.tags.pairs
        var keys = pairs.map { strdup($0.key) }, values = pairs.map { strdup($0.value) }
        defer { (keys + values).forEach { free($0) } }
        let strings = metadata.pictures.map { (strdup($0.mimeType), strdup($0.description)) }
        defer { strings.forEach { free($0.0); free($0.1) } }
        let replaced: Int32 = withPictures(metadata.pictures, strings: strings) { pictures in
            keys.withUnsafeMutableBufferPointer { keys in
                values.withUnsafeMutableBufferPointer { values in
                    keys.withMemoryRebound(to: UnsafePointer<CChar>?.self) { keys in
                        values.withMemoryRebound(to: UnsafePointer<CChar>?.self) { values in
                            tagshim_replace(file, keys.baseAddress, values.baseAddress, pairs.count, pictures.baseAddress, pictures.count)
                        }
                    }
                }
            }
        }
        let saved = replaced == 0 && tagshim_save(file) == 0
        tagshim_close(file)
        guard saved else { throw MetadataError(path: path, kind: .writeFailed, reason: "writing the tags failed") }
        let written = try open(descriptor: descriptor, format: format, path: path)
        defer { tagshim_close(written) }
        return contents(of: written, sharing: metadata.pictures)
    }

    /// Opens the file on `descriptor` as `format`.
    private static func open(descriptor: Int32, format: TagFormat, path: String) throws(MetadataError) -> OpaquePointer {
        var status = TAGSHIM_OPENED
        guard let file = tagshim_open_descriptor(descriptor, format.rawValue, &status) else {
            throw MetadataError(path: path, kind: status == TAGSHIM_CANNOT_OPEN ? .cannotOpen : .damaged,
                                reason: "tags not written: TagLib cannot open the output as \(format.name)")
        }
        return file
    }

    /// Calls `body` with the C view of `pictures`, whose strings are `strings`.
    private static func withPictures<Result>(_ pictures: [Picture], strings: [(UnsafeMutablePointer<CChar>?, UnsafeMutablePointer<CChar>?)],
                                             _ body: (UnsafeBufferPointer<tagshim_picture>) -> Result) -> Result {
        func build(_ index: Int, _ built: [tagshim_picture]) -> Result {
            guard index < pictures.count else { return built.withUnsafeBufferPointer(body) }
            return pictures[index].data.withUnsafeBufferPointer { data in
                let dimensions = pictures[index].dimensions
                return build(index + 1, built + [tagshim_picture(type: Int32(pictures[index].kind.number), mime_type: strings[index].0,
                                                                 description: strings[index].1, data: data.baseAddress, size: data.count,
                                                                 width: Int32(clamping: dimensions.width), height: Int32(clamping: dimensions.height),
                                                                 color_depth: Int32(clamping: dimensions.colourDepth),
                                                                 color_count: Int32(clamping: dimensions.colourCount))])
            }
        }
        return build(0, [])
    }

    /// The tags, pictures and unmapped names of an open file. A picture whose bytes are those of
    /// one of `known` shares that one's array rather than copying them (a cover read back after
    /// writing it is not held twice).
    private static func contents(of file: OpaquePointer, sharing known: [Picture] = []) -> FileMetadata {
        var tags = Tags()
        for index in 0..<tagshim_property_count(file) {
            tags.append(String(cString: tagshim_property_value(file, index)), to: String(cString: tagshim_property_key(file, index)))
        }
        var pictures: [Picture] = []
        for index in 0..<tagshim_picture_count(file) {
            var picture = tagshim_picture()
            tagshim_picture_at(file, index, &picture)
            let bytes = UnsafeBufferPointer(start: picture.data, count: picture.size)
            let data = known.first { $0.data.count == bytes.count && $0.data.elementsEqual(bytes) }?.data ?? Array(bytes)
            pictures.append(Picture(kind: Picture.Kind(Int(picture.type)), mimeType: String(cString: picture.mime_type),
                                    description: String(cString: picture.description), data: data,
                                    dimensions: Picture.Dimensions(width: Int(picture.width), height: Int(picture.height),
                                                                   colourDepth: Int(picture.color_depth), colourCount: Int(picture.color_count))))
        }
        let unmapped = (0..<tagshim_unsupported_count(file)).map { String(cString: tagshim_unsupported(file, $0)) }
        return FileMetadata(tags: tags, pictures: pictures, unmapped: unmapped)
    }
}
