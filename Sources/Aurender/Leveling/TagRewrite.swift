#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import AudioMetadata

/// Changes some tag fields of a user's file atomically: the file is copied to a temporary
/// beside it, the fields are written into the copy, which gets the file's mode (and owner,
/// where allowed), and the copy is renamed over the file. A failure at any step leaves the file
/// as it was and removes the temporary; the audio bytes are copied, never rewritten.
enum TagRewrite {
    /// Bytes copied at a time.
    static let copyBlock = 1 << 20

    /// Sets `fields` (nil values removed) in the file at `path`, kept as `format` keeps them.
    static func set(_ fields: [(name: String, value: String?)], in path: String, as format: TagFormat) throws(LevelingFailure) {
        var status = stat()
        guard stat(path, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else {
            throw LevelingFailure(path: path, kind: .cannotOpen, reason: "tags not written: not a regular file that can be opened")
        }
        guard status.st_mode & S_IWUSR != 0, access(path, W_OK) == 0 else {
            throw LevelingFailure(path: path, kind: .cannotWrite, reason: "tags not written: the file is read-only")
        }
        let slash = path.lastIndex(of: "/")
        let folder = slash.map { String(path[...$0]) } ?? ""
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        var template = Array((folder + "." + name + ".aurender-XXXXXX").utf8CString)
        let copy = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard copy >= 0 else {
            throw LevelingFailure(path: path, kind: .cannotWrite, reason: "tags not written: no temporary file can be made beside it: " + String(cString: strerror(errno)))
        }
        let temporary = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        var renamed = false
        defer {
            close(copy)
            if !renamed { unlink(temporary) }
        }
        try copyBytes(of: path, to: copy)
        do {
            try TagFields.set(fields, descriptor: copy, as: format, path: path)
        } catch {
            throw LevelingFailure(path: path, kind: .cannotWrite, reason: error.reason)
        }
        _ = fchown(copy, status.st_uid, status.st_gid)
        guard fchmod(copy, status.st_mode & 0o7777) == 0, fsync(copy) == 0, rename(temporary, path) == 0 else {
            throw LevelingFailure(path: path, kind: .cannotWrite, reason: "tags not written: the rewritten file cannot be put in place: " + String(cString: strerror(errno)))
        }
        renamed = true
    }

    /// Copies every byte of the file at `path` to `destination`.
    private static func copyBytes(of path: String, to destination: Int32) throws(LevelingFailure) {
        let source = open(path, O_RDONLY)
        guard source >= 0 else {
            throw LevelingFailure(path: path, kind: .cannotOpen, reason: "tags not written: the file cannot be read: " + String(cString: strerror(errno)))
        }
        defer { close(source) }
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: copyBlock, alignment: 16)
        defer { buffer.deallocate() }
        while true {
            let count = read(source, buffer, copyBlock)
            if count < 0 && errno == EINTR { continue }
            guard count >= 0 else {
                throw LevelingFailure(path: path, kind: .cannotOpen, reason: "tags not written: reading the file failed: " + String(cString: strerror(errno)))
            }
            if count == 0 { return }
            var written = 0
            while written < count {
                let step = write(destination, buffer + written, count - written)
                if step < 0 && errno == EINTR { continue }
                guard step > 0 else {
                    throw LevelingFailure(path: path, kind: .cannotWrite, reason: "tags not written: copying the file failed: " + String(cString: strerror(errno)))
                }
                written += step
            }
        }
    }
}
