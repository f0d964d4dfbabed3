import AudioFormats
import AudioGraph

/// A plain Ogg Opus file decoded by libopus at 48 kHz, in aurender's vocabulary: the length
/// that libsndfile and `opusdec` give it, and their samples, about twice as fast on one core
/// (`OggOpusStream`) and faster still on several.
///
/// The length is the last granule position less the pre-skip, as libsndfile states it; the
/// survey made at open (`OggOpusStream.survey`) has already found every page there, whole and in
/// order, so the stream is never cut short.
///
/// A file of CELT-only packets longer than one segment is decoded in segments on several
/// threads (`ParallelSegments`), each by a libopus decoder started half a second before it
/// (`OpusSegmentDecoder`): the samples are then `opusdec`'s but for rounding-level differences
/// after the segments' starts, and the same for any number of threads. A file with SILK or
/// hybrid packets is decoded from the start by the one decoder: SILK's long-term (pitch)
/// predictor carries a cold start's error much further on a steady tone (0.003 after half a
/// second). A segment that does not decode whole hands the reading back to the one decoder,
/// which goes on from the same frame, so errors and lengths are those of a reading from the
/// start.
final class OggOpusDecoder: FloatFrameDecoder {
    /// The one decoder, behind the segments where the file is decoded in them.
    private let reading: SegmentedReading<OggOpusStream>
    private let source: InputBytes
    let path: String
    let format: StreamFormat
    let length: AudioLength
    /// Frames given since the start, held to the length (the last packet's padding is cut there).
    private var stated: StatedLength
    /// Reads as Int16, converted from Float32.
    var int16: Int16Reading

    /// Frames per segment: about 2.7 s, so the four segments two workers hold in flight take
    /// 4 MB of stereo and the half-second pre-roll adds under a fifth to the decoding.
    static let segmentFrames = ParallelSegments.defaultSegmentFrames

    /// Opens `input`, which the sniffer found to be Ogg Opus, to be decoded by up to `workers`
    /// threads (`ParallelSegments.defaultWorkerCount`: the processors, at most 4); declines
    /// (`AudioFormatError.Kind.declined`) a pipe and any file that is not a plain stream, for
    /// libsndfile to read as before.
    init(input: AudioInput, workers: Int = ParallelSegments.defaultWorkerCount) throws(AudioFormatError) {
        source = try InputBytes(input: input)
        guard source.isSeekable, let survey = OggOpusStream.survey(source) else {
            throw AudioFormatError(path: input.path, kind: .declined, reason:
                "libopus reads only whole, regular Ogg Opus files of one stream of one or two channels without a header gain")
        }
        let stream = try OggOpusStream(source: source, path: input.path, survey: survey)
        let workerCount = max(1, workers)
        reading = SegmentedReading(stream: stream, channelCount: survey.channelCount) {
            Self.makeParallel(input: input, survey: survey, workerCount: workerCount)
        }
        path = input.path
        format = StreamFormat(sampleRate: 48_000, channelCount: survey.channelCount, sampleType: .float32, isInterleaved: true)
        length = .exact(survey.totalFrames)
        stated = StatedLength(length)
        int16 = Int16Reading(channelCount: survey.channelCount)
    }

    var decoderName: String { "libopus" }
    var container: AudioContainer { .ogg }
    var encoding: AudioEncoding { .opus }
    var isSeekable: Bool { true }

    func read(into buffer: UnsafeMutablePointer<Float>, frames: Int) throws(AudioFormatError) -> Int {
        let asked = stated.framesToRead(frames)
        let done = try reading.read(into: buffer, frames: asked).frames
        try stated.count(done, of: asked, path: path)
        return done
    }

    func rewind() throws(AudioFormatError) {
        try reading.rewind()
        stated.rewind()
    }

    func close() { reading.close() }

    /// The segment workers for a CELT-only file longer than one segment, whatever the number of
    /// workers (so that the samples do not depend on it); nil (decoding here alone) otherwise,
    /// or where a worker's decoder cannot be opened.
    private static func makeParallel(input: AudioInput, survey: OggOpusStream.Survey, workerCount: Int) -> ParallelSegments? {
        guard survey.isCELTOnly, survey.totalFrames > Int64(segmentFrames) else { return nil }
        var workers: [any SegmentDecoding] = []
        for _ in 0..<workerCount {
            guard let worker = try? OpusSegmentDecoder(input: input, survey: survey) else { return nil }
            workers.append(worker)
        }
        return ParallelSegments(totalFrames: survey.totalFrames, channelCount: survey.channelCount, segmentFrames: segmentFrames,
                                 workers: workers)
    }
}

extension OggOpusStream: SequentialFrameStream {
    func readFrames(into buffer: UnsafeMutablePointer<Float>, frames: Int) throws(AudioFormatError) -> (frames: Int, metHole: Bool) {
        (try read(into: buffer, frames: frames), false)
    }
}
