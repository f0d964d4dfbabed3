import AudioFormats
import AudioGraph

/// A plain Ogg Opus file decoded by libopus at 48 kHz, in aurender's vocabulary: the samples and
/// length that libsndfile and `opusdec` give it, about twice as fast (`OggOpusStream`).
///
/// The length is the last granule position less the pre-skip, as libsndfile states it; the
/// survey made at open (`OggOpusStream.survey`) has already found every page there, whole and in
/// order, so the stream is never cut short.
final class OggOpusDecoder: FloatFrameDecoder {
    private let stream: OggOpusStream
    private let source: InputBytes
    let path: String
    let format: StreamFormat
    let length: AudioLength
    /// Frames given since the start, held to the length (the last packet's padding is cut there).
    private var stated: StatedLength
    /// Reads as Int16, converted from Float32.
    var int16: Int16Reading

    /// Opens `input`, which the sniffer found to be Ogg Opus; declines (`AudioFormatError.Kind.declined`)
    /// a pipe and any file that is not a plain stream, for libsndfile to read as before.
    init(input: AudioInput) throws(AudioFormatError) {
        source = try InputBytes(input: input)
        guard source.isSeekable, let survey = OggOpusStream.survey(source) else {
            throw AudioFormatError(path: input.path, kind: .declined, reason:
                "libopus reads only whole, regular Ogg Opus files of one stream of one or two channels without a header gain")
        }
        stream = try OggOpusStream(source: source, path: input.path, survey: survey)
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
        try stated.read(frames, path: path) { (asked) throws(AudioFormatError) -> Int in
            try stream.read(into: buffer, frames: asked)
        }
    }

    func rewind() throws(AudioFormatError) {
        try stream.rewind()
        stated.rewind()
    }

    func close() { stream.close() }
}
