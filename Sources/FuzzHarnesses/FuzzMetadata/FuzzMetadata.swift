// libFuzzer harness: arbitrary bytes as a file whose tags, pictures, Broadcast WAV chunks and
// markers are read, as a render reads its input's before rendering. The first byte picks the
// file's extension (TagLib chooses its reader by it), the rest are the file.
import AudioMetadata
import FuzzSupport
#if canImport(Glibc)
import Glibc
#endif

/// The extensions TagLib and the chunk reader tell formats by, picked by the input's first byte.
private let extensions = ["wav", "aiff", "flac", "mp3", "m4a", "ogg", "opus", "w64"]

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMetadata(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size > 0 else { return 0 }
    let path = "/tmp/aurender-fuzz-metadata-\(getpid()).\(extensions[Int(data[0]) % extensions.count])"
    let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    guard descriptor >= 0 else { fatalError("cannot write \(path)") }
    var written = 1
    while written < size {
        let count = write(descriptor, data + written, size - written)
        guard count > 0 else { fatalError("cannot write \(path)") }
        written += count
    }
    close(descriptor)
    defer { unlink(path) }
    if let metadata = try? MetadataFile.read(path: path) {
        for picture in metadata.pictures where picture.data.count > size {
            fatalError("a picture of \(picture.data.count) bytes read from a file of \(size)")
        }
    }
    let chunks = ChunkMetadata.read(path: path).metadata
    if let ixml = chunks.ixml, ixml.count > size { fatalError("an iXML chunk of \(ixml.count) bytes read from a file of \(size)") }
    return 0
}

/// The entry SwiftPM links as `main`.
@_cdecl("FuzzMetadata_main")
public func fuzzMetadataMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    runLibFuzzer(argc, argv) { data, size in fuzzMetadata(data, size) }
}
