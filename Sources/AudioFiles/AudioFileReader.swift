import AudioDSP
import AudioGraph
import AudioFormats

/// Feeds a graph from a decoded audio file: the render callback at a leaf of the graph.
///
/// It reads interleaved frames into a scratch buffer made once at init and splits them
/// into the slice's channel buffers. At the end of the file it zeroes the rest of the
/// slice and sets `.endOfStream`; after that, every slice is silence.
public final class AudioFileReader: RewindableSource {
    /// The open file.
    public let file: any AudioDecoder
    /// What the reader produces: the file's rate and channels, in the canonical form.
    public let format: StreamFormat
    /// Frames read so far.
    public private(set) var framesRead: Int64 = 0
    private let scratch: UnsafeMutableRawPointer
    private let scratchFrames: Int
    /// 16-bit files are read as integers: the decoder then copies instead of converting.
    private let readsShorts: Bool
    private var exhausted = false

    /// A reader over an open file, reading at most `scratchFrames` frames per decoder call.
    public init(file: any AudioDecoder, scratchFrames: Int = Graph.defaultMaximumFramesPerSlice) {
        self.file = file
        format = file.format.canonical
        self.scratchFrames = max(1, scratchFrames)
        readsShorts = file.readsInt16Natively
        scratch = .allocate(byteCount: self.scratchFrames * file.format.channelCount * MemoryLayout<Float>.size,
                            alignment: MemoryLayout<Float>.alignment)
    }

    deinit { scratch.deallocate() }

    /// Goes back to the first frame of the file (not for standard input or a pipe).
    public func rewind() throws {
        try file.rewind()
        framesRead = 0
        exhausted = false
    }

    /// Fills `buffers` with the next `request.frameCount` frames of the file; a `RenderCallback`.
    public func render(_ flags: inout RenderActionFlags, _ request: RenderRequest, _ buffers: AudioBufferList) throws -> Int {
        var filled = 0
        while filled < request.frameCount, !exhausted {
            let wanted = min(scratchFrames, request.frameCount - filled)
            let got: Int
            if readsShorts {
                let shorts = scratch.assumingMemoryBound(to: Int16.self)
                got = try file.read(into: shorts, frames: wanted)
                SampleConversion.deinterleave(shorts, frames: got, into: buffers, at: filled)
            } else {
                let floats = scratch.assumingMemoryBound(to: Float.self)
                got = try file.read(into: floats, frames: wanted)
                SampleConversion.deinterleave(floats, frames: got, into: buffers, at: filled)
            }
            filled += got
            if got < wanted { exhausted = true }
        }
        framesRead += Int64(filled)
        buffers.endStream(filled: filled, requested: request.frameCount, flags: &flags)
        return filled
    }
}
