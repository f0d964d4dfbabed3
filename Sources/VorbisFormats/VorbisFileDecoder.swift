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
///
/// A long, whole, regular file of one link whose count is exact is decoded in segments on
/// several threads (`ParallelSegments`): each worker with the decoder a `SegmentDecoderSource`
/// lends (FFmpeg's, under half of libvorbis's work, within 1 LSB at 16 bits of it) where it
/// takes the file, else with a libvorbisfile of its own, with the same frames. A segment that
/// does not decode whole (a gap in the pages) hands the reading back to the one decoder, which
/// goes on from the same frame, as everything else is read.
final class VorbisFileDecoder: FloatFrameDecoder {
    /// The one decoder, behind the segments where the file is decoded in them.
    private let reading: SegmentedReading<VorbisFileStream>
    private let source: InputBytes
    let path: String
    let format: StreamFormat
    let length: AudioLength
    /// Frames given since the start, held to the length.
    private var stated: StatedLength
    /// Reads as Int16, converted from Float32.
    var int16: Int16Reading

    /// Opens `input`, which the sniffer found to be Ogg Vorbis, to be decoded by up to
    /// `workers` threads (`ParallelSegments.defaultWorkerCount`: the processors, at most 4),
    /// with the decoders `segmentDecoders` makes where it makes them.
    init(input: AudioInput, workers: Int = ParallelSegments.defaultWorkerCount,
         segmentDecoders: (any SegmentDecoderSource)? = nil) throws(AudioFormatError) {
        source = try InputBytes(input: input)
        let isCut = Self.isCut(source)
        let countIsExact = Self.countIsExact(source)
        let stream = try VorbisFileStream(source: source, path: input.path)
        path = input.path
        format = StreamFormat(sampleRate: Double(stream.sampleRate), channelCount: stream.channelCount, sampleType: .float32, isInterleaved: true)
        let length: AudioLength = stream.totalFrames.map { isCut || !countIsExact ? .estimated($0) : .exact($0) } ?? .unknown
        self.length = length
        stated = StatedLength(length, cutShort: isCut)
        int16 = Int16Reading(channelCount: stream.channelCount)
        reading = SegmentedReading(stream: stream, channelCount: stream.channelCount) {
            Self.makeParallel(input: input, stream: stream, length: length, workerCount: workers, segmentDecoders: segmentDecoders)
        }
    }

    /// The segment a lent decoder decodes: shorter than libvorbisfile's, whose seek costs more
    /// (a lent decoder reads the packets before a segment without decoding them and decodes one,
    /// about 3 % more work at this length), so the four slots of two workers hold 1 MB of
    /// stereo samples, not 4, and the process stays under FFmpeg's own peak memory.
    static let lentSegmentFrames = 1 << 15

    var decoderName: String { "vorbisfile" }
    var container: AudioContainer { .ogg }
    var encoding: AudioEncoding { .vorbis }
    var isSeekable: Bool { source.isSeekable }

    func read(into buffer: UnsafeMutablePointer<Float>, frames: Int) throws(AudioFormatError) -> Int {
        let asked = stated.framesToRead(frames)
        let (done, metHole) = try reading.read(into: buffer, frames: asked)
        // Marked before counting, which then judges the end as a cut's.
        if metHole { stated.markCutShort() }
        try stated.count(done, of: asked, path: path)
        return done
    }

    func rewind() throws(AudioFormatError) {
        try reading.rewind()
        stated.rewind()
    }

    func close() { reading.close() }

    /// The segment workers for a whole, regular file of one link, longer than a segment, whose
    /// granule count is the length it decodes: the lent decoders where every worker has one,
    /// else libvorbisfile's; nil (decoding here alone) otherwise, or where a worker's decoder
    /// cannot be opened.
    private static func makeParallel(input: AudioInput, stream: VorbisFileStream, length: AudioLength, workerCount: Int,
                                     segmentDecoders: (any SegmentDecoderSource)?) -> ParallelSegments? {
        guard workerCount > 1, case .exact(let total) = length, total > Int64(ParallelSegments.defaultSegmentFrames),
              stream.linkCount == 1 else { return nil }
        var workers: [any SegmentDecoding] = []
        if let segmentDecoders {
            for _ in 0..<workerCount {
                guard let worker = segmentDecoders.makeSegmentDecoder(for: input, encoding: .vorbis, sampleRate: stream.sampleRate,
                                                                      channelCount: stream.channelCount, totalFrames: total) else { break }
                workers.append(worker)
            }
        }
        if workers.count == workerCount {
            return ParallelSegments(totalFrames: total, channelCount: stream.channelCount, segmentFrames: lentSegmentFrames, workers: workers)
        }
        workers = []
        for _ in 0..<workerCount {
            guard let worker = try? VorbisSegmentDecoder(input: input) else { return nil }
            workers.append(worker)
        }
        return ParallelSegments(totalFrames: total, channelCount: stream.channelCount, workers: workers)
    }

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

extension VorbisFileStream: SequentialFrameStream {
    func readFrames(into buffer: UnsafeMutablePointer<Float>, frames: Int) throws(AudioFormatError) -> (frames: Int, metHole: Bool) {
        try read(into: buffer, frames: frames)
    }
}
