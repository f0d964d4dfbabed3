import AudioDSP
import AudioGraph
import AudioFormats

/// Writes the slices a graph renders to a sound file: the sink after the generic output.
///
/// Made from a path, it writes an unfinished file in the destination's folder (`OutputFile`)
/// and `finish()` puts that into place; released unfinished, it leaves nothing behind.
/// PCM encodings are quantized here, not in the encoder, so overs and NaNs are counted
/// (`clipCount`) and rounding is exact; float and lossy encodings get Float32 frames.
public final class AudioFileWriter {
    /// The file being written.
    public let file: any AudioEncoder
    /// Overs and non-finite samples met so far.
    public private(set) var clipCount = ClipCount()
    /// Frames written so far.
    public private(set) var framesWritten: Int64 = 0
    /// The sum of the squares of every sample written (before quantization), for the RMS level;
    /// nil unless the writer was made measuring the level.
    public private(set) var sumOfSquares: Double?
    /// The dither added when quantizing, if any; its state advances with every sample.
    public private(set) var dither: TPDFDither?
    /// Told of every block written, before quantization, on the thread that writes.
    public let notify: (any RenderNotify)?
    private let integerBits: Int?
    private let scratchFrames: Int
    private let scratch: UnsafeMutableRawPointer
    /// The unfinished file put into place by `finish()`, for a writer made from a path.
    private let destination: OutputFile?

    /// A writer for `file`, taking slices of at most `maximumFrames` frames; `dither` applies
    /// to integer encodings only; `measuringLevel` adds up `sumOfSquares`; `notify` is told of
    /// every block written.
    public convenience init(file: any AudioEncoder, maximumFrames: Int = Graph.defaultMaximumFramesPerSlice, dither: TPDFDither? = nil,
                            measuringLevel: Bool = false, notify: (any RenderNotify)? = nil) {
        self.init(file: file, destination: nil, maximumFrames: maximumFrames, dither: dither, measuringLevel: measuringLevel, notify: notify)
    }

    /// A writer of `encoding` in `container` at `format`'s rate and channels to `path` (`-` is
    /// standard output), through an unfinished file that `finish()` puts into place, flushed to
    /// storage first when `durability` is `.synchronized`.
    public convenience init(path: String, container: AudioContainer, encoding: AudioEncoding, format: StreamFormat,
                            registry: FormatRegistry = .standard, maximumFrames: Int = Graph.defaultMaximumFramesPerSlice,
                            dither: TPDFDither? = nil, measuringLevel: Bool = false,
                            durability: OutputDestination.Durability = .committed) throws(AudioFormatError) {
        let destination = try OutputFile(path: path, durability: durability)
        let encoder: any AudioEncoder
        do {
            encoder = try registry.makeEncoder(fileDescriptor: destination.fileDescriptor, path: path, container: container,
                                               encoding: encoding, sampleRate: Int(format.sampleRate), channelCount: format.channelCount)
        } catch {
            destination.discard()
            throw error
        }
        self.init(file: encoder, destination: destination, maximumFrames: maximumFrames, dither: dither, measuringLevel: measuringLevel,
                  notify: nil)
    }

    private init(file: any AudioEncoder, destination: OutputFile?, maximumFrames: Int, dither: TPDFDither?, measuringLevel: Bool,
                 notify: (any RenderNotify)?) {
        self.destination = destination
        self.notify = notify
        sumOfSquares = measuringLevel ? 0 : nil
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
        if let sum = sumOfSquares { sumOfSquares = sum + SampleConversion.sumOfSquares(buffers, frames: frames) }
        notify?.rendered(buffers, frames: frames)
        framesWritten += Int64(frames)
    }

    /// Completes and closes the file, reporting any failure; a writer made from a path then
    /// puts its file into place (or drops it, when completing failed).
    public func finish() throws(AudioFormatError) {
        do {
            try file.finish()
        } catch {
            destination?.discard()
            throw error
        }
        try destination?.commit()
    }
}
