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
    private let integerBits: Int?
    private let scratchFrames: Int
    private let floatScratch: UnsafeMutablePointer<Float>
    private let integerScratch: UnsafeMutablePointer<Int32>

    /// A writer for `file`, taking slices of at most `maximumFrames` frames.
    public init(file: SoundFileWriter, maximumFrames: Int = Graph.defaultMaximumFramesPerSlice) {
        self.file = file
        integerBits = file.encoding.integerBits
        scratchFrames = max(1, maximumFrames)
        let samples = scratchFrames * file.channelCount
        floatScratch = .allocate(capacity: integerBits == nil ? samples : 1)
        integerScratch = .allocate(capacity: integerBits == nil ? 1 : samples)
    }

    deinit {
        floatScratch.deallocate()
        integerScratch.deallocate()
    }

    /// Writes the first `frames` frames of `buffers`, which has the file's channel count.
    public func write(_ buffers: AudioBufferList, frames: Int) throws {
        precondition(frames <= scratchFrames, "slice of \(frames) frames exceeds the writer's \(scratchFrames)")
        if let integerBits {
            clipCount += SampleConversion.quantize(buffers, frames: frames, bits: integerBits, into: integerScratch)
            try file.write(integerScratch, frames: frames)
        } else {
            clipCount += SampleConversion.interleave(buffers, frames: frames, into: floatScratch)
            try file.write(floatScratch, frames: frames)
        }
        framesWritten += Int64(frames)
    }

    /// Completes and closes the file, reporting any failure.
    public func finish() throws {
        try file.finish()
    }
}
