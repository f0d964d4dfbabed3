#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import AudioFormats
import AudioGraph

/// An Ogg Vorbis input decoded by libvorbisfile, in aurender's vocabulary: the samples and
/// length `oggdec` gives.
///
/// The length is the stream's granule positions, the container's own count, exact where the
/// stream keeps the specification's page layout (`VorbisHeaderPages`); a file whose last
/// complete page does not end the stream (`OggStreamEnd`) was cut, and its length is then an
/// estimate that the decode falls short of.
final class VorbisFileDecoder: FloatFrameDecoder {
    private let stream: VorbisFileStream
    private let source: InputBytes
    let path: String
    let format: StreamFormat
    let length: AudioLength
    /// Frames given since the start, held to the length.
    private var stated: StatedLength
    /// Reads as Int16, converted from Float32.
    var int16: Int16Reading

    /// Opens `input`, which the sniffer found to be Ogg Vorbis.
    init(input: AudioInput) throws(AudioFormatError) {
        source = try InputBytes(input: input)
        let isCut = Self.isCut(source)
        let countIsExact = Self.countIsExact(source)
        stream = try VorbisFileStream(source: source, path: input.path)
        path = input.path
        format = StreamFormat(sampleRate: Double(stream.sampleRate), channelCount: stream.channelCount, sampleType: .float32, isInterleaved: true)
        length = stream.totalFrames.map { isCut || !countIsExact ? .estimated($0) : .exact($0) } ?? .unknown
        stated = StatedLength(length, cutShort: isCut)
        int16 = Int16Reading(channelCount: stream.channelCount)
    }

    var decoderName: String { "vorbisfile" }
    var container: AudioContainer { .ogg }
    var encoding: AudioEncoding { .vorbis }
    var isSeekable: Bool { source.isSeekable }

    func read(into buffer: UnsafeMutablePointer<Float>, frames: Int) throws(AudioFormatError) -> Int {
        try stated.read(frames, path: path) { (asked) throws(AudioFormatError) -> Int in
            let (got, metHole) = try stream.read(into: buffer, frames: asked)
            if metHole { stated.markCutShort() }
            return got
        }
    }

    func rewind() throws(AudioFormatError) {
        try stream.rewind()
        stated.rewind()
    }

    func close() { stream.close() }

    /// Whether libvorbisfile's granule count is the length it decodes: the stream's audio starts
    /// on a page of its own (`VorbisHeaderPages`); a pipe's count is not known anyway. Leaves
    /// `source` at its first byte.
    private static func countIsExact(_ source: InputBytes) -> Bool {
        guard source.isSeekable else { return false }
        var head = [UInt8](repeating: 0, count: VorbisHeaderPages.headLength)
        let read = head.withUnsafeMutableBytes { source.read($0.baseAddress!, count: $0.count) }
        _ = source.seek(0, whence: SEEK_SET)
        return VorbisHeaderPages.audioStartsOnAFreshPage(Array(head[..<read])) ?? false
    }

    /// Whether a regular file's last bytes show it cut (`OggStreamEnd`); false on a pipe, whose
    /// end is not there to read before decoding. Leaves `source` at its first byte.
    private static func isCut(_ source: InputBytes) -> Bool {
        guard source.isSeekable, let size = source.size else { return false }
        let count = Int(min(size, Int64(OggStreamEnd.tailLength)))
        var tail = [UInt8](repeating: 0, count: count)
        let read = source.seek(size - Int64(count), whence: SEEK_SET) >= 0
            ? tail.withUnsafeMutableBytes { source.read($0.baseAddress!, count: count) } : 0
        _ = source.seek(0, whence: SEEK_SET)
        return !OggStreamEnd.endsWhole(tail: tail[..<read])
    }
}
