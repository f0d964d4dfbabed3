import AudioFormats

/// One worker's libvorbisfile decoder of a regular Ogg Vorbis file, decoding the segments
/// `ParallelSegments` gives it: it seeks to each segment's first frame (libvorbisfile decodes
/// the packet before it, so the frames are those of a reading from the start) unless it
/// already stands there.
final class VorbisSegmentDecoder: SegmentDecoding {
    private let stream: VorbisFileStream
    /// The frame the next read gives.
    private var position: Int64 = 0

    /// Opens `input` once more, on bytes of its own.
    init(input: AudioInput) throws(AudioFormatError) {
        stream = try VorbisFileStream(source: try InputBytes(input: input), path: input.path)
    }

    func decode(from start: Int64, frames: Int, into buffer: UnsafeMutablePointer<Float>) throws(AudioFormatError) -> (frames: Int, metHole: Bool) {
        if start != position { try stream.seek(toFrame: start) }
        let (got, metHole) = try stream.read(into: buffer, frames: frames)
        position = start + Int64(got)
        return (got, metHole)
    }
}
