#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import AudioFormats
import AudioGraph

/// An MPEG audio input decoded by libmpg123, in aurender's vocabulary: the samples and length
/// `mpg123 -e f32 -w` gives.
///
/// A Xing/Info frame's count is the decoder's own (it trims the encoder's delay and padding
/// by it), so an input that decodes to fewer frames is cut only where its bytes say so: the
/// stream size the frame states points past the end of the file. A long MPEG-1 layer III file
/// decodes on two cores (`Mpg123Segments`), to the same samples.
final class Mpg123Decoder: FloatFrameDecoder {
    private var stream: Mpg123Stream
    /// The two-core decode of `stream`, where the stream qualifies.
    private var segments: Mpg123Segments?
    private let source: InputBytes
    let path: String
    let container: AudioContainer
    let encoding: AudioEncoding
    let format: StreamFormat
    let length: AudioLength
    /// Frames given since the start, held to the length.
    private var stated: StatedLength
    /// Reads as Int16, converted from Float32.
    var int16: Int16Reading

    /// Where the MPEG stream's bytes end: before an ID3v1 tag at the end of the file, which a
    /// frame the file's cut left short would otherwise read as its own; nil on a pipe.
    private let end: Int64?

    /// Opens `input`, which the sniffer found to be MPEG audio in `container`.
    init(input: AudioInput, container: AudioContainer) throws(AudioFormatError) {
        source = try InputBytes(input: input)
        let end = source.size.map { ID3v1Tag.start(in: input) ?? $0 }
        self.end = end
        stream = try Mpg123Stream(source: source, path: input.path, preframes: Mpg123Segments.preframes, end: end)
        segments = Mpg123Segments.make(first: stream, source: source, path: input.path, end: end)
        path = input.path
        self.container = container
        encoding = [1: .mp1, 2: .mp2][stream.layer] ?? .mp3
        format = StreamFormat(sampleRate: Double(stream.sampleRate), channelCount: stream.channelCount, sampleType: .float32, isInterleaved: true)
        let statement = HeaderLength.mpegStatement(input)
        if let frames = stream.expectedFrames {
            length = statement?.frames != nil ? .exact(frames) : .estimated(frames)
        } else {
            length = .unknown
        }
        let pointsPastEnd = statement?.end.map { stated in end.map { stated > $0 } ?? false } ?? false
        stated = StatedLength(length, cutShort: pointsPastEnd, countIsEvidence: false)
        int16 = Int16Reading(channelCount: stream.channelCount)
    }

    /// Whether the stream decodes in segments on two cores.
    var decodesOnTwoCores: Bool { segments != nil }

    var decoderName: String { "mpg123" }
    var isSeekable: Bool { source.isSeekable }

    /// A stream that ends inside an MPEG frame was cut (`Mpg123Stream.endedInsideFrame`),
    /// whatever its Xing frame's stream size says: a tag written after a truncated download
    /// makes the file long enough for it.
    func read(into buffer: UnsafeMutablePointer<Float>, frames: Int) throws(AudioFormatError) -> Int {
        let asked = stated.framesToRead(frames)
        let got = if let segments { try segments.read(into: buffer, frames: asked) } else { try stream.read(into: buffer, frames: asked) }
        if got < asked, segments?.endedInsideFrame ?? stream.endedInsideFrame { stated.markCutShort() }
        try stated.count(got, of: asked, path: stream.path)
        return got
    }

    /// Starts again with a fresh decoder from the first byte, so a second pass gives the first
    /// pass's samples (a libmpg123 handle sought back to the start keeps its synthesis window's
    /// rotation, which can change the last bits).
    func rewind() throws(AudioFormatError) {
        guard source.isSeekable else {
            throw AudioFormatError(path: path, kind: .notSeekable, reason: "cannot go back to the start of the stream")
        }
        segments?.stop()
        segments = nil
        stream.close()
        _ = source.seek(0, whence: SEEK_SET)
        stream = try Mpg123Stream(source: source, path: path, preframes: Mpg123Segments.preframes, end: end)
        segments = Mpg123Segments.make(first: stream, source: source, path: path, end: end)
        stated.rewind()
    }

    func close() {
        segments?.stop()
        segments = nil
        stream.close()
    }
}
