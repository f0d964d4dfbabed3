/// Another library's decoder of a codec, lent to the tenant that reads the codec's files so
/// that it decodes long files in segments (`ParallelSegments`) with it, keeping the stream's
/// length, trims and every other file its own.
///
/// Why: one library's decoder can be much faster than the reference one (FFmpeg's Vorbis
/// decoder needs under half of libvorbis's instructions) while the reference tenant's lengths
/// are the rule; tenants know no other tenant, so the registry's list hands one to the other.
public protocol SegmentDecoderSource: Sendable {
    /// One worker's decoder of `input`'s segments, in `encoding`, whose frame 0 is the first
    /// frame the tenant gives and whose stream holds `totalFrames` frames of `channelCount`
    /// channels (in the tenant's order) at `sampleRate`; nil where it cannot decode that file
    /// so (its library missing, another codec, layout or length).
    func makeSegmentDecoder(for input: AudioInput, encoding: AudioEncoding, sampleRate: Int, channelCount: Int,
                            totalFrames: Int64) -> (any SegmentDecoding)?
}
