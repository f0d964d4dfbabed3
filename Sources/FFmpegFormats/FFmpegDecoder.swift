#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import AudioFormats
import AudioGraph
import CFFmpeg

/// An input decoded by FFmpeg's libraries, in aurender's vocabulary: interleaved Float32, cut
/// to the length the container states with sample accuracy (AAC's end padding is not audio),
/// as aurender reads it from the header where it can (`HeaderLength`: an MP3's Xing count less
/// its encoder delay and padding; a DSF's sample count; an MPEG-4 track's `iTunSMPB` count
/// where it has no edit list, `MPEG4Track`), else as FFmpeg reads it. An MPEG-4 track with
/// neither states no length: its sample table's total, priming and padding included, is an
/// estimate, and whether the file was cut is told by its bytes.
///
/// A stream that ends before that length, or ends at a read error or a packet that does not
/// decode, is an error naming the file and both counts, rather than a short render that looks
/// complete (`--salvage` keeps what decoded before).
final class FFmpegDecoder: FloatFrameDecoder {
    private let api: CFFmpegAPI
    private var reader: LibAVReader
    private let source: InputBytes
    private let requiringConfidentProbe: Bool
    private let expected: String?
    let path: String
    let container: AudioContainer
    let encoding: AudioEncoding
    let format: StreamFormat
    let length: AudioLength
    /// Frames given since the start, held to the stated length.
    private var stated: StatedLength
    /// Where an MPEG-4 stream's samples end by its index, on a pipe (whose size is unknown
    /// until it ends): a stream that ends before that byte was cut.
    private let streamedMediaEnd: Int64?
    /// Reads as Int16, converted from Float32.
    var int16: Int16Reading

    /// Opens `input` through `api`, which the sniffer took for `expected` (nil when no magic
    /// number named it, and then FFmpeg's probe must be confident).
    init(api: CFFmpegAPI, input: AudioInput, expected: String?) throws(AudioFormatError) {
        self.api = api
        source = try InputBytes(input: input)
        self.expected = expected
        requiringConfidentProbe = expected == nil
        do {
            reader = try LibAVReader(api: api, source: source, path: input.path, expected: expected, requiringConfidentProbe: requiringConfidentProbe)
        } catch {
            guard expected?.hasPrefix("MPEG-4") == true, let reason = ContainerEnd.mpeg4Unreadable(input) else { throw error }
            throw AudioFormatError(path: input.path, kind: .invalidFile, reason: reason)
        }
        path = input.path
        container = FFmpegFormats.container(demuxer: reader.demuxer.identifier, name: reader.demuxer.name)
        let exactType: SampleType? = reader.isLossless ? [8: .int8, 16: .int16, 24: .int24, 32: .int32][reader.bitsPerRawSample] : nil
        encoding = AudioEncoding(identifier: reader.codec.identifier, name: reader.codec.name, sampleType: exactType)
        format = StreamFormat(sampleRate: Double(reader.sampleRate), channelCount: reader.channelCount,
                              sampleType: exactType ?? .float32, isInterleaved: true)
        let opened = reader, openedContainer = container
        let headerFrames = container.identifier == "dsf"
            ? ContainerEnd.dsfFrames(head: input.head, rate: opened.sampleRate) : HeaderLength.statedFrames(input)
        let track = container.identifier == "mp4" ? MPEG4Track.read(input, trackID: opened.streamID) : nil
        length = headerFrames.map { .exact($0) }
            ?? track?.length(codec: opened.codec.identifier, isLossless: opened.isLossless, ffmpegFrames: opened.exactFrames)
            ?? opened.exactFrames.map { Self.isGranuleCount(openedContainer, opened) ? .estimated($0) : .exact($0) }
            ?? opened.estimatedFrames.map { .estimated($0) } ?? .unknown
        let cutShort = container.identifier == "asf" ? ContainerEnd.asfIsCutShort(head: input.head, size: source.size)
            : track?.isCutShort(size: source.size) == true
        streamedMediaEnd = source.size == nil ? track?.mediaEnd : nil
        // Only a PCM container's sizes prove a cut when fewer frames decode; a codec's own count
        // (an edit list, iTunSMPB, a Xing or WavPack header) does not, unless the bytes say so.
        let countsBytes = headerFrames != nil && Self.containersCountingBytes.contains(container.identifier)
        stated = StatedLength(length, cutShort: cutShort,
                              roughly: opened.estimateIsStated ? opened.estimatedFrames.map { ($0, opened.roughTolerance) } : nil,
                              countIsEvidence: countsBytes)
        int16 = Int16Reading(channelCount: reader.channelCount)
    }

    /// FFmpeg's names of the containers whose length `HeaderLength` reads from their sizes in bytes.
    private static let containersCountingBytes: Set<String> = ["wav", "w64", "aiff", "au", "caf", "dsf"]

    /// Whether `reader`'s exact-looking length is an Ogg stream's last granule position for a
    /// lossy codec, which counts samples the decoder drops (10,897 of a Vorbis stream's 11,025
    /// decode through FFmpeg): an estimate.
    private static func isGranuleCount(_ container: AudioContainer, _ reader: LibAVReader) -> Bool {
        container.identifier == "ogg" && !reader.isLossless
    }

    var decoderName: String { "FFmpeg" }
    var isSeekable: Bool { source.isSeekable }

    func read(into buffer: UnsafeMutablePointer<Float>, frames: Int) throws(AudioFormatError) -> Int {
        let wanted = stated.framesToRead(frames)
        let got = try reader.read(into: buffer, frames: wanted)
        if got < wanted, reader.endedEarly != nil || streamedMediaEnd.map({ source.position < $0 }) == true { stated.markCutShort() }
        try stated.count(got, of: wanted, path: path)
        return got
    }

    func rewind() throws(AudioFormatError) {
        guard source.isSeekable else { throw AudioFormatError(path: path, kind: .notSeekable, reason: "cannot go back to the start of a stream") }
        reader.close()
        _ = source.seek(0, whence: SEEK_SET)
        reader = try LibAVReader(api: api, source: source, path: path, expected: expected, requiringConfidentProbe: requiringConfidentProbe)
        stated.rewind()
    }

    func close() { reader.close() }
}
