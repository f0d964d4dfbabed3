import AudioDSP
import AudioGraph
import SoundFile

/// Writes the slices a graph renders to a sound file: the sink after the generic output.
///
/// PCM encodings are quantized here, not in libsndfile, so overs and NaNs are counted
/// (`clipCount`) and rounding is exact; float and lossy encodings get Float32 frames.
public final class AudioFileWriter {
    /// The file being written.
    public let file: SoundFileWriter
    /// Overs and non-finite samples met so far.
    public private(set) var clipCount = ClipCount()
    /// Frames written so far.
    public private(set) var framesWritten: Int64 = 0
    /// The sum of the squares of every sample written (before quantization), for the RMS level.
    public private(set) var sumOfSquares: Double = 0
    /// The dither added when quantizing, if any; its state advances with every sample.
    public private(set) var dither: TPDFDither?
    private let integerBits: Int?
    private let scratchFrames: Int
    private let scratch: UnsafeMutableRawPointer

    /// A writer for `file`, taking slices of at most `maximumFrames` frames; `dither` applies
    /// to integer encodings only.
    public init(file: SoundFileWriter, maximumFrames: Int = Graph.defaultMaximumFramesPerSlice, dither: TPDFDither? = nil) {
        self.file = file
        self.dither = file.encoding.integerBits == nil ? nil : dither
        integerBits = file.encoding.integerBits
        scratchFrames = max(1, maximumFrames)
        scratch = .allocate(byteCount: scratchFrames * file.channelCount * 4, alignment: 4)
    }

    deinit { scratch.deallocate() }

    /// Writes the first `frames` frames of `buffers`, which has the file's channel count.
    public func write(_ buffers: AudioBufferList, frames: Int) throws {
        precondition(frames <= scratchFrames, "slice of \(frames) frames exceeds the writer's \(scratchFrames)")
        switch integerBits {
        case 16?:
            let shorts = scratch.assumingMemoryBound(to: Int16.self)
            clipCount += SampleConversion.quantize(buffers, frames: frames, bits: 16, into: shorts, dither: &dither)
            try file.write(shorts, frames: frames)
        case let bits?:
            let integers = scratch.assumingMemoryBound(to: Int32.self)
            clipCount += SampleConversion.quantize(buffers, frames: frames, bits: bits, into: integers, dither: &dither)
            try file.write(integers, frames: frames)
        case nil:
            let floats = scratch.assumingMemoryBound(to: Float.self)
            clipCount += SampleConversion.interleave(buffers, frames: frames, into: floats)
            try file.write(floats, frames: frames)
        }
        sumOfSquares += SampleConversion.sumOfSquares(buffers, frames: frames)
        framesWritten += Int64(frames)
    }

    /// Completes and closes the file, reporting any failure.
    public func finish() throws {
        try file.finish()
    }
}
