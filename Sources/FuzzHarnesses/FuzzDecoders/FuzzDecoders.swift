// libFuzzer harness: arbitrary bytes as an input file, opened through the standard format
// registry (libsndfile, then FFmpeg for what it cannot read) and decoded to the end.
import AudioFiles
import AudioFormats
import FuzzSupport
#if canImport(Glibc)
import Glibc
#endif

/// The file each input is written to before the registry opens it by path, as the CLI does.
private let inputPath = "/tmp/aurender-fuzz-decoders-\(getpid()).bin"

/// Frames read per call: a small buffer, as a render slice is.
private let sliceFrames = 256

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDecoders(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let descriptor = open(inputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    guard descriptor >= 0 else { fatalError("cannot write \(inputPath)") }
    var written = 0
    while written < size {
        let count = write(descriptor, data + written, size - written)
        guard count > 0 else { fatalError("cannot write \(inputPath)") }
        written += count
    }
    close(descriptor)
    guard let decoder = try? FormatRegistry.standard.openDecoder(path: inputPath) else { return 0 }
    defer { decoder.close() }
    let channels = decoder.format.channelCount
    guard channels > 0 else { fatalError("a decoder opened with \(channels) channels") }
    let samples = UnsafeMutablePointer<Float>.allocate(capacity: sliceFrames * channels)
    defer { samples.deallocate() }
    while let frames = try? decoder.read(into: samples, frames: sliceFrames), frames > 0 {
        guard frames <= sliceFrames else { fatalError("read \(frames) frames into a buffer of \(sliceFrames)") }
    }
    guard decoder.isSeekable, (try? decoder.rewind()) != nil else { return 0 }
    let integers = UnsafeMutablePointer<Int16>.allocate(capacity: sliceFrames * channels)
    defer { integers.deallocate() }
    _ = try? decoder.read(into: integers, frames: sliceFrames)
    return 0
}

/// The entry SwiftPM links as `main`.
@_cdecl("FuzzDecoders_main")
public func fuzzDecodersMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    runLibFuzzer(argc, argv) { data, size in fuzzDecoders(data, size) }
}
