import AudioFormats

/// FFmpeg's Vorbis decoder lent to the Ogg Vorbis tenant (libvorbisfile) for the segments of
/// long files: it needs under half of libvorbis's instructions, and its samples stay within 1
/// LSB at 16 bits of `oggdec`'s (the tolerance issue 28 sets for Vorbis).
///
/// Only mono and stereo Ogg Vorbis whose stream FFmpeg times in frames and finds as long as the
/// tenant does: FFmpeg orders surround channels its own way, and a length that differs would
/// place the segments elsewhere. Nil, and libvorbis decodes, where FFmpeg's libraries cannot
/// be loaded.
public struct FFmpegSegmentDecoders: SegmentDecoderSource {
    /// The libraries it loads.
    let libraries: LibAVLibraries

    /// FFmpeg's decoders, from the libraries of the headers aurender was built against.
    public init() {
        libraries = .headers
    }

    /// FFmpeg's decoders from `libraries`, to try what happens when they are missing.
    init(libraries: LibAVLibraries) {
        self.libraries = libraries
    }

    public func makeSegmentDecoder(for input: AudioInput, encoding: AudioEncoding, sampleRate: Int, channelCount: Int,
                                   totalFrames: Int64) -> (any SegmentDecoding)? {
        let loaded = libraries == .headers ? LibAVLibraries.loaded : libraries.load()
        guard encoding == .vorbis, (1...2).contains(channelCount), case .success(let api) = loaded,
              let source = try? InputBytes(input: input), source.isSeekable,
              let reader = try? LibAVReader(api: api, source: source, path: input.path, expected: nil, requiringConfidentProbe: false),
              reader.demuxer.identifier == "ogg", reader.codec.identifier == "vorbis",
              reader.sampleRate == sampleRate, reader.channelCount == channelCount,
              let stream = reader.streamFrames, stream.inFrames, stream.duration == totalFrames
        else { return nil }
        return LibAVSegmentDecoder(reader: reader, source: source)
    }
}

/// One worker's FFmpeg decoder of a file's segments (`LibAVReader.decodeSegment`).
final class LibAVSegmentDecoder: SegmentDecoding {
    private let reader: LibAVReader
    /// The bytes the reader reads, kept as long as it.
    private let source: InputBytes

    init(reader: LibAVReader, source: InputBytes) {
        self.reader = reader
        self.source = source
    }

    deinit { reader.close() }

    func decode(from start: Int64, frames: Int, into buffer: UnsafeMutablePointer<Float>) throws(AudioFormatError) -> (frames: Int, metHole: Bool) {
        reader.decodeSegment(from: start, frames: frames, into: buffer)
    }
}
