import AudioFiles
import AudioFormats
import AudioGraph
import AudioNodes
import Resampling

/// What every render shares, whatever it renders (a file, a mix, a graph file): how rates are
/// converted, how the output is quantized and checked, the slice size, and where progress is
/// counted.
public struct RenderSettings {
    /// The resampler engine for rate changes, by name (`ResamplerRegistry`); an unknown name
    /// is an error when the graph is built.
    public var resampler = ResamplerRegistry.defaultEngine.name
    /// The quality asked of the resampler engine, which uses its nearest level.
    public var resamplerQuality = ResamplerQuality.best
    /// Whether to dither when quantizing to integers.
    public var dither = RenderJob.DitherChoice.automatic
    /// The dither's seed: the same seed gives the same bytes.
    public var ditherSeed: UInt64 = 1
    /// Frames per pulled slice.
    public var framesPerSlice = Graph.defaultMaximumFramesPerSlice
    /// What to do when samples had to be clipped to fit an integer output.
    public var clipPolicy = RenderJob.ClipPolicy.warn
    /// Whether to measure the output's RMS level (`RenderJob.Summary.rms`), for a report; off,
    /// the render spends nothing on it. Clipping is counted either way.
    public var measuresLevel = false
    /// Whether to sketch each input as read and the output as written (`RenderJob.Summary.sketches`:
    /// outline, spectrum, loudness, true peak), for a report's pictures; off, the render spends nothing on it.
    public var sketchesSignals = false
    /// The decoder every input is read with, by name (`libsndfile`, `FFmpeg`: a kind in
    /// `FormatRegistry.standard`); nil lets the registry choose by each input's content.
    public var decoder: String?
    /// Whether the output is flushed to storage (the file, then its folder) before the render
    /// returns; `.synchronized` applies to regular files only and is refused for standard output
    /// and devices.
    public var durability = OutputDestination.Durability.committed
    /// Whether an input that ends before its stated length is rendered as far as it decodes
    /// (its shortfall reported in `RenderJob.Summary.shortfalls`) rather than failing.
    public var salvage = false
    /// The tags and pictures written into the output: by default a render's input's, a mix's none.
    public var tags = TagChoice()
    /// Each input played back by the loudness gain its tags hold, as it is read; nil applies
    /// none. The output then carries none of those tags, or a player would apply them again.
    public var replayGain: ReplayGainPlayback?
    /// Where the render counts the frames it has done, for a progress display.
    public var progress: RenderProgress?

    public init() {}
}

/// The output's format where a job chooses it: container, encoding, rate and channels; nil
/// keeps what the output's name, the input or the graph gives.
public struct OutputFormatChoice {
    /// The output container; nil takes it from the output's extension.
    public var container: AudioContainer?
    /// The output encoding; nil keeps the input's where the container can hold it. ALAC
    /// (`.alac`) follows the input's resolution, 24 bits for inputs of more than 16, unless
    /// `pinsBitDepth`.
    public var encoding: AudioEncoding?
    /// Whether `encoding`'s bit depth was asked for and is kept (`.alac` is then 16-bit ALAC).
    public var pinsBitDepth = false
    /// The output sample rate; nil keeps the input's (a mix: the first input's).
    public var sampleRate: Double?
    /// The output channel count; nil keeps the input's (a mix: stereo).
    public var channelCount: Int?
    /// A lossy encoding's bit rate or quality; refused for encodings that have none.
    public var encoder = EncoderSettings()

    public init() {}
}

/// What is done to the whole programme after the graph: fades and loudness normalization.
public struct FinishingOptions {
    /// Seconds of linear fade-in from silence at the start.
    public var fadeIn: Double = 0
    /// Seconds of linear fade-out to silence at the end (needs a known length).
    public var fadeOut: Double = 0
    /// The loudness to normalize to, measured in a first pass; nil renders at the graph's level.
    public var normalization: LoudnessNormalization?
    /// A true-peak limiter last before the output, after the normalization's gain.
    public var limiter: LimiterSettings?

    public init() {}

    /// The limiter the render ends with: the one asked for or, when the normalization limits
    /// what would go over its ceiling (`OverCeiling.limit`), one at that ceiling.
    var finalLimiter: LimiterSettings? {
        if let limiter { return limiter }
        guard let normalization, normalization.overCeiling == .limit else { return nil }
        return LimiterSettings(ceiling: normalization.truePeakCeiling)
    }

    /// The limiter node for `finalLimiter`, if any, called `name`.
    func makeLimiter(name: String = "limiter") throws -> LimiterNode? {
        guard let limiter = finalLimiter else { return nil }
        do { return try LimiterNode(name: name, ceiling: limiter.ceiling, release: limiter.release, lookahead: limiter.lookahead) } catch {
            throw RenderError.usage("the limiter: \(NodeCatalogue.problem(in: error))")
        }
    }
}

/// A true-peak brick-wall limiter's settings (`LimiterNode`): the ceiling in dBTP, the release
/// and the lookahead in seconds.
public struct LimiterSettings: Equatable, Sendable {
    public var ceiling: Double
    public var release: Double
    public var lookahead: Double

    public init(ceiling: Double, release: Double = 0.05, lookahead: Double = 0.005) {
        self.ceiling = ceiling
        self.release = release
        self.lookahead = lookahead
    }
}
