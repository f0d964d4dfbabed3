#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CTagShimInterface
import FoundationEssentials

/// Every call of TagLib's C shim (`CTagShim`, opened on first use as `TagShimLibrary`): reading
/// a file's tags and pictures by path, and replacing them in a file open for writing.
enum TagLibFile {
    /// Why the shim cannot be opened, if it cannot: tags are then neither read nor written.
    static var unavailability: String? {
        if case .failure(let failure) = TagShimLibrary.shared { return failure.reason }
        return nil
    }

    /// The opened shim, or the error that says why `path`'s tags were not read or written.
    private static func library(path: String, failing what: String) throws(MetadataError) -> TagShimLibrary {
        switch TagShimLibrary.shared {
        case .success(let shim): return shim
        case .failure(let failure): throw MetadataError(path: path, kind: .unavailable, reason: "\(what): \(failure.reason)")
        }
    }

    /// The metadata of the file at `path`, opened read-only; nil when TagLib knows no tag format
    /// for it (the file is none of the formats that hold tags), or when its chunks show it holds
    /// none (`TagPresence`: then TagLib is not loaded at all). A file of a format TagLib does not
    /// know that shows it holds tags (a DSF's ID3v2) is an error of kind `.unsupported`, so the
    /// render names them as not read.
    static func read(path: String) throws(MetadataError) -> FileMetadata? {
        guard TagPresence.mayHoldTags(path: path) else { return nil }
        let shim = try library(path: path, failing: "tags not read")
        var status = TAGSHIM_OPENED
        guard let file = shim.openPath(path, &status) else {
            switch status {
            case TAGSHIM_UNKNOWN_FORMAT:
                guard let format = TagPresence.tagsTagLibCannotRead(path: path) else { return nil }
                throw MetadataError(path: path, kind: .unsupported, reason: "tags not read: TagLib reads no tags in \(format) files")
            case TAGSHIM_CANNOT_OPEN: throw MetadataError(path: path, kind: .cannotOpen, reason: "tags not read: the file cannot be opened")
            default: throw MetadataError(path: path, kind: .damaged, reason: "tags not read: TagLib finds them damaged")
            }
        }
        defer { shim.close(file) }
        return contents(of: file, shim: shim)
    }

    /// Replaces the tags and pictures of the file open on `descriptor` (read and write; it stays
    /// open) with `metadata`, written as `format`, and gives what the file holds afterwards, read
    /// back from it. Errors name `path`.
    static func replace(with metadata: FileMetadata, descriptor: Int32, format: TagFormat, path: String) throws(MetadataError) -> FileMetadata {
        let shim = try library(path: path, failing: "tags not written")
        let file = try open(descriptor: descriptor, format: format, path: path, shim: shim)
        let replaced = withCView(of: metadata) { keys, values, count, pictures in
            shim.replace(file, keys, values, count, pictures.baseAddress, pictures.count)
        }
        let saved = replaced == 0 && shim.save(file) == 0
        shim.close(file)
        guard saved else { throw MetadataError(path: path, kind: .writeFailed, reason: "writing the tags failed") }
        let written = try open(descriptor: descriptor, format: format, path: path, shim: shim)
        defer { shim.close(written) }
        return contents(of: written, sharing: metadata.pictures, shim: shim)
    }

    /// Sets (or, for a nil value, removes) each of `fields` in the file open on `descriptor`
    /// (read and write; it stays open) as `format` keeps it (`tagshim_set_field`), and saves it
    /// keeping every other tag. Errors name `path`.
    static func setFields(_ fields: [(name: String, value: String?)], descriptor: Int32, format: TagFormat,
                          path: String) throws(MetadataError) {
        let shim = try library(path: path, failing: "tags not written")
        let file = try open(descriptor: descriptor, format: format, path: path, shim: shim)
        defer { shim.close(file) }
        for field in fields {
            let set = field.value.map { value in shim.setField(file, field.name, value) } ?? shim.setField(file, field.name, nil)
            guard set == 0 else {
                throw MetadataError(path: path, kind: .writeFailed, reason: "tags not written: \(format.name) keeps no \(field.name) field")
            }
        }
        guard shim.saveKeeping(file) == 0 else { throw MetadataError(path: path, kind: .writeFailed, reason: "writing the tags failed") }
    }

    /// Opens the file on `descriptor` as `format`.
    private static func open(descriptor: Int32, format: TagFormat, path: String, shim: TagShimLibrary) throws(MetadataError) -> OpaquePointer {
        var status = TAGSHIM_OPENED
        guard let file = shim.openDescriptor(descriptor, format.rawValue, &status) else {
            throw MetadataError(path: path, kind: status == TAGSHIM_CANNOT_OPEN ? .cannotOpen : .damaged,
                                reason: "tags not written: TagLib cannot open the output as \(format.name)")
        }
        return file
    }

    /// An ID3v2.4 tag holding `metadata`'s tags, rendered as `replace` would write them into an
    /// MP3, for a stream that gets its tag before its audio; with the keys it holds no frame for.
    /// The pictures are not in it: `ID3v2Pictures` adds their frames, written from where their bytes are.
    static func renderID3v2(_ metadata: FileMetadata, path: String) throws(MetadataError) -> (tag: [UInt8], refused: [String]) {
        let shim = try library(path: path, failing: "tags not written")
        var length = 0
        var refused: UnsafeMutablePointer<CChar>?
        let rendered = withCView(of: FileMetadata(tags: metadata.tags)) { keys, values, count, _ in
            shim.renderID3v2(keys, values, count, &length, &refused)
        }
        guard let rendered else { throw MetadataError(path: path, kind: .writeFailed, reason: "rendering the ID3v2 tag failed") }
        defer { shim.free(rendered); shim.free(refused) }
        let names = refused.map { String(cString: $0).split(separator: "\n").map(String.init) } ?? []
        return (Array(UnsafeBufferPointer(start: rendered, count: length)), names)
    }

    /// Calls `body` with the C view of `metadata`'s tags (keys, values and their count) and pictures.
    private static func withCView<Result>(of metadata: FileMetadata,
                                          _ body: (UnsafePointer<UnsafePointer<CChar>?>?, UnsafePointer<UnsafePointer<CChar>?>?, Int,
                                                   UnsafeBufferPointer<tagshim_picture>) -> Result) -> Result {
        let pairs = metadata.tags.pairs
        var keys = pairs.map { strdup($0.key) }, values = pairs.map { strdup($0.value) }
        defer { (keys + values).forEach { free($0) } }
        let strings = metadata.pictures.map { (strdup($0.mimeType), strdup($0.description)) }
        defer { strings.forEach { free($0.0); free($0.1) } }
        return withPictures(metadata.pictures, strings: strings) { pictures in
            keys.withUnsafeMutableBufferPointer { keys in
                values.withUnsafeMutableBufferPointer { values in
                    keys.withMemoryRebound(to: UnsafePointer<CChar>?.self) { keys in
                        values.withMemoryRebound(to: UnsafePointer<CChar>?.self) { values in
                            body(keys.baseAddress, values.baseAddress, pairs.count, pictures)
                        }
                    }
                }
            }
        }
    }

    /// Calls `body` with the C view of `pictures`, whose strings are `strings`.
    private static func withPictures<Result>(_ pictures: [Picture], strings: [(UnsafeMutablePointer<CChar>?, UnsafeMutablePointer<CChar>?)],
                                             _ body: (UnsafeBufferPointer<tagshim_picture>) -> Result) -> Result {
        func build(_ index: Int, _ built: [tagshim_picture]) -> Result {
            guard index < pictures.count else { return built.withUnsafeBufferPointer(body) }
            return pictures[index].data.withUnsafeBytes { data in
                let dimensions = pictures[index].dimensions
                return build(index + 1, built + [tagshim_picture(type: Int32(pictures[index].kind.number), mime_type: strings[index].0,
                                                                 description: strings[index].1,
                                                                 data: data.baseAddress?.assumingMemoryBound(to: UInt8.self), size: data.count,
                                                                 width: Int32(clamping: dimensions.width), height: Int32(clamping: dimensions.height),
                                                                 color_depth: Int32(clamping: dimensions.colourDepth),
                                                                 color_count: Int32(clamping: dimensions.colourCount))])
            }
        }
        return build(0, [])
    }

    /// The tags, pictures and unmapped names of an open file. A picture's bytes stay in the
    /// buffer TagLib read them into, held past the file's closing (`tagshim_picture_hold`); one
    /// whose bytes are those of one of `known` shares that one's instead (a cover read back after
    /// writing it is not held twice).
    private static func contents(of file: OpaquePointer, sharing known: [Picture] = [], shim: TagShimLibrary) -> FileMetadata {
        var tags = Tags()
        for index in 0..<shim.propertyCount(file) {
            tags.append(String(cString: shim.propertyValue(file, index)), to: String(cString: shim.propertyKey(file, index)))
        }
        var pictures: [Picture] = []
        for index in 0..<shim.pictureCount(file) {
            var picture = tagshim_picture()
            shim.pictureAt(file, index, &picture)
            let bytes = UnsafeRawBufferPointer(start: picture.data, count: picture.size)
            let data = known.first { $0.data.count == bytes.count && $0.data.withUnsafeBytes { $0.elementsEqual(bytes) } }?.data
                ?? held(picture: index, of: file, bytes: bytes, shim: shim)
            pictures.append(Picture(kind: Picture.Kind(Int(picture.type)), mimeType: String(cString: picture.mime_type),
                                    description: String(cString: picture.description), data: data,
                                    dimensions: Picture.Dimensions(width: Int(picture.width), height: Int(picture.height),
                                                                   colourDepth: Int(picture.color_depth), colourCount: Int(picture.color_count))))
        }
        let unmapped = (0..<shim.unsupportedCount(file)).map { String(cString: shim.unsupported(file, $0)) }
        var metadata = FileMetadata(tags: tags, pictures: pictures, unmapped: unmapped)
        (metadata.chapters, metadata.chapterDamage) = ChapterMarkers.markers(of: chapterFrames(of: file, shim: shim),
                                                                             dangling: danglingChapters(of: file, shim: shim),
                                                                             rate: Double(shim.sampleRate(file)))
        return metadata
    }

    /// The bytes of picture `index` of an open file, which are `bytes`, as data that holds TagLib's
    /// buffer until it is let go; a copy if the shim cannot hold it.
    private static func held(picture index: Int, of file: OpaquePointer, bytes: UnsafeRawBufferPointer, shim: TagShimLibrary) -> Data {
        guard let base = bytes.baseAddress, let hold = shim.holdPicture(file, index) else { return Data(bytes) }
        let release = shim.releasePicture
        return Data(bytesNoCopy: UnsafeMutableRawPointer(mutating: base), count: bytes.count, deallocator: .custom { _, _ in release(hold) })
    }

    /// The `CHAP` frames of an open file, in its order.
    private static func chapterFrames(of file: OpaquePointer, shim: TagShimLibrary) -> [ChapterFrame] {
        (0..<shim.chapterCount(file)).map { index in
            var chapter = tagshim_chapter()
            shim.chapterAt(file, index, &chapter)
            return ChapterFrame(elementID: String(cString: chapter.element_id), startMilliseconds: chapter.start_ms, endMilliseconds: chapter.end_ms,
                                title: String(cString: chapter.title), note: String(cString: chapter.note), isListed: chapter.listed != 0)
        }
    }

    /// The element IDs an open file's tables of contents list that no frame holds.
    private static func danglingChapters(of file: OpaquePointer, shim: TagShimLibrary) -> [String] {
        (0..<shim.danglingChapterCount(file)).map { String(cString: shim.danglingChapter(file, $0)) }
    }

    /// Replaces the chapters of the file open on `descriptor` (read and write; it stays open),
    /// written as `format`, with `chapters`, keeping its other tags, and gives how many chapters
    /// it holds afterwards, read back from it. Errors name `path`.
    static func replaceChapters(with chapters: [ChapterFrame], descriptor: Int32, format: TagFormat, path: String) throws(MetadataError) -> Int {
        let shim = try library(path: path, failing: "chapters not written")
        let file = try open(descriptor: descriptor, format: format, path: path, shim: shim)
        let strings = chapters.map { (strdup($0.elementID), strdup($0.title), strdup($0.note)) }
        defer { strings.forEach { free($0.0); free($0.1); free($0.2) } }
        let frames = zip(chapters, strings).map { chapter, strings in
            tagshim_chapter(element_id: strings.0, start_ms: chapter.startMilliseconds, end_ms: chapter.endMilliseconds,
                            title: strings.1, note: strings.2, listed: 1)
        }
        let saved = shim.setChapters(file, frames, frames.count) == 0 && shim.saveKeeping(file) == 0
        shim.close(file)
        guard saved else { throw MetadataError(path: path, kind: .writeFailed, reason: "writing the chapters failed") }
        let written = try open(descriptor: descriptor, format: format, path: path, shim: shim)
        defer { shim.close(written) }
        return shim.chapterCount(written)
    }
}


/// TagLib's C shim, opened on first use: `libAurenderTagLib.so` (the `AurenderTagLib` product,
/// which links TagLib) beside the binary or in `../lib/aurender` from it.
///
/// Loading TagLib costs a process about 2.4 million instructions of dynamic linking (its C++
/// symbols), as much as rendering 2 seconds of audio; opening it only when a file's tags are
/// read or written keeps a render's start-up without it, as FFmpeg's libraries are kept.
struct TagShimLibrary: @unchecked Sendable {
    // @unchecked: the function pointers never change, and the shim's functions may be called
    // from any thread on distinct files.
    typealias OpenPath = @convention(c) (UnsafePointer<CChar>?, UnsafeMutablePointer<tagshim_status>?) -> OpaquePointer?
    typealias OpenDescriptor = @convention(c) (Int32, UnsafePointer<CChar>?, UnsafeMutablePointer<tagshim_status>?) -> OpaquePointer?
    typealias Close = @convention(c) (OpaquePointer?) -> Void
    typealias Count = @convention(c) (OpaquePointer?) -> Int
    typealias Text = @convention(c) (OpaquePointer?, Int) -> UnsafePointer<CChar>
    typealias PictureAt = @convention(c) (OpaquePointer?, Int, UnsafeMutablePointer<tagshim_picture>?) -> Void
    typealias Replace = @convention(c) (OpaquePointer?, UnsafePointer<UnsafePointer<CChar>?>?, UnsafePointer<UnsafePointer<CChar>?>?, Int, UnsafePointer<tagshim_picture>?, Int) -> Int32
    typealias Save = @convention(c) (OpaquePointer?) -> Int32
    typealias SetField = @convention(c) (OpaquePointer?, UnsafePointer<CChar>?, UnsafePointer<CChar>?) -> Int32
    typealias ChapterAt = @convention(c) (OpaquePointer?, Int, UnsafeMutablePointer<tagshim_chapter>?) -> Void
    typealias SampleRate = @convention(c) (OpaquePointer?) -> Int32
    typealias SetChapters = @convention(c) (OpaquePointer?, UnsafePointer<tagshim_chapter>?, Int) -> Int32
    typealias HoldPicture = @convention(c) (OpaquePointer?, Int) -> UnsafeMutableRawPointer?
    typealias RenderID3v2 = @convention(c) (UnsafePointer<UnsafePointer<CChar>?>?, UnsafePointer<UnsafePointer<CChar>?>?, Int,
                                            UnsafeMutablePointer<Int>?, UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> UnsafeMutablePointer<UInt8>?
    typealias Free = @convention(c) (UnsafeMutableRawPointer?) -> Void

    let openPath: OpenPath
    let openDescriptor: OpenDescriptor
    let close: Close
    let propertyCount: Count
    let propertyKey: Text
    let propertyValue: Text
    let unsupportedCount: Count
    let unsupported: Text
    let pictureCount: Count
    let pictureAt: PictureAt
    let holdPicture: HoldPicture
    let releasePicture: Free
    let replace: Replace
    let save: Save
    let setField: SetField
    let saveKeeping: Save
    let chapterCount: Count
    let chapterAt: ChapterAt
    let danglingChapterCount: Count
    let danglingChapter: Text
    let sampleRate: SampleRate
    let setChapters: SetChapters
    let renderID3v2: RenderID3v2
    let free: Free

    /// The library's file name.
    static let fileName = "libAurenderTagLib.so"

    /// The shim, opened once for the process; or why it could not be (said in the warnings of
    /// every file whose tags were not read or written).
    static let shared: Result<TagShimLibrary, UnavailableShim> = open()

    /// Why the shim could not be opened.
    struct UnavailableShim: Error {
        let reason: String
    }

    private static func open() -> Result<TagShimLibrary, UnavailableShim> {
        let folders = executableFolder().map { [$0, $0 + "/../lib/aurender"] } ?? []
        var failures: [String] = []
        for folder in folders {
            let path = folder + "/" + fileName
            guard access(path, F_OK) == 0 else { continue }
            guard let handle = dlopen(path, RTLD_NOW | RTLD_LOCAL) else {
                failures.append(dlerror().map { String(cString: $0) } ?? path)
                continue
            }
            if let library = TagShimLibrary(handle: handle) { return .success(library) }
            failures.append("\(path) lacks the shim's functions")
        }
        return .failure(UnavailableShim(reason: failures.first
            ?? "aurender's TagLib library \(fileName) is not installed beside the binary (\(folders.joined(separator: " or ")))"))
    }

    /// The folder of the running binary, from `/proc/self/exe`.
    private static func executableFolder() -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        let path = String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return path.lastIndex(of: "/").map { String(path[..<$0]) }
    }

    private init?(handle: UnsafeMutableRawPointer) {
        func symbol<Function>(_ name: String, as type: Function.Type) -> Function? {
            dlsym(handle, name).map { unsafeBitCast($0, to: type) }
        }
        guard let openPath = symbol("tagshim_open_path", as: OpenPath.self),
              let openDescriptor = symbol("tagshim_open_descriptor", as: OpenDescriptor.self),
              let close = symbol("tagshim_close", as: Close.self),
              let propertyCount = symbol("tagshim_property_count", as: Count.self),
              let propertyKey = symbol("tagshim_property_key", as: Text.self),
              let propertyValue = symbol("tagshim_property_value", as: Text.self),
              let unsupportedCount = symbol("tagshim_unsupported_count", as: Count.self),
              let unsupported = symbol("tagshim_unsupported", as: Text.self),
              let pictureCount = symbol("tagshim_picture_count", as: Count.self),
              let pictureAt = symbol("tagshim_picture_at", as: PictureAt.self),
              let holdPicture = symbol("tagshim_picture_hold", as: HoldPicture.self),
              let releasePicture = symbol("tagshim_picture_release", as: Free.self),
              let replace = symbol("tagshim_replace", as: Replace.self),
              let save = symbol("tagshim_save", as: Save.self),
              let setField = symbol("tagshim_set_field", as: SetField.self),
              let saveKeeping = symbol("tagshim_save_keeping", as: Save.self),
              let chapterCount = symbol("tagshim_chapter_count", as: Count.self),
              let chapterAt = symbol("tagshim_chapter_at", as: ChapterAt.self),
              let danglingChapterCount = symbol("tagshim_dangling_chapter_count", as: Count.self),
              let danglingChapter = symbol("tagshim_dangling_chapter", as: Text.self),
              let sampleRate = symbol("tagshim_sample_rate", as: SampleRate.self),
              let setChapters = symbol("tagshim_set_chapters", as: SetChapters.self),
              let renderID3v2 = symbol("tagshim_render_id3v2", as: RenderID3v2.self),
              let free = symbol("tagshim_free", as: Free.self)
        else { return nil }
        self.openPath = openPath
        self.openDescriptor = openDescriptor
        self.close = close
        self.propertyCount = propertyCount
        self.propertyKey = propertyKey
        self.propertyValue = propertyValue
        self.unsupportedCount = unsupportedCount
        self.unsupported = unsupported
        self.pictureCount = pictureCount
        self.pictureAt = pictureAt
        self.holdPicture = holdPicture
        self.releasePicture = releasePicture
        self.replace = replace
        self.save = save
        self.setField = setField
        self.saveKeeping = saveKeeping
        self.chapterCount = chapterCount
        self.chapterAt = chapterAt
        self.danglingChapterCount = danglingChapterCount
        self.danglingChapter = danglingChapter
        self.sampleRate = sampleRate
        self.setChapters = setChapters
        self.renderID3v2 = renderID3v2
        self.free = free
    }
}
