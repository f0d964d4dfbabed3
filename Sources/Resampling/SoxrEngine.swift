/// libsoxr (the SoX Resampler library, the engine inside `sox rate`) as a resampler engine:
/// one soxr stream, linear phase, single-threaded.
///
/// soxr trims its own filter delay, so output starts at input time 0; at the end of input it
/// flushes the tail (`soxr_process` with no input), held to the exact length, or padded with
/// zeros should its flush fall short. soxr processes each channel on its own, so a stream's cost
/// grows with its channels: the converter node parallelizes it by channels (`Parallelism.channels`).
/// Planar frames go through scratch buffers made at init, `InterleavingScratch.frames` at a time.
final class SoxrEngine: InterleavedResamplerEngine {
    /// The engine's registration: its name, qualities and factory.
    static let kind = ResamplerEngineKind(
        name: "soxr",
        summary: "the SoX Resampler library: linear-phase band-limited filters (very high, high, medium quality) and quick cubic interpolation",
        qualities: recipes.map(\.quality),
        parallelism: .channels,
        check: { _ in nil },
        make: { configuration throws(ResamplerError) in try SoxrEngine(configuration) }
    )

    /// aurender's levels and soxr's recipes, best first: very high (28-bit), high (20-bit),
    /// medium (16-bit with medium roll-off), quick (cubic interpolation).
    static let recipes: [(quality: ResamplerQuality, recipe: UInt)] = [
        (.best, LibSoxr.veryHigh),
        (.high, LibSoxr.high),
        (.medium, LibSoxr.medium),
        (.fastest, LibSoxr.quick),
    ]

    /// The soxr recipe for `quality`, the nearest level soxr has.
    static func recipe(for quality: ResamplerQuality) -> UInt? {
        quality.nearest(among: recipes.map(\.quality)).flatMap { level in recipes.first { $0.quality == level }?.recipe }
    }

    let configuration: ResamplerConfiguration
    /// 256 input frames at ratios of 1 and above, 256 / ratio below: measured, soxr's very-high
    /// filter reaches at most about 146 frames either side of a sample (scaled by the ratio when
    /// it lowers its cutoff), so this bounds every recipe.
    let latency: Int
    private let state: LibSoxr.State
    private var length: ExactLength
    let scratch: InterleavingScratch

    private init(_ configuration: ResamplerConfiguration) throws(ResamplerError) {
        guard let recipe = Self.recipe(for: configuration.quality) else {
            throw .unsupportedQuality(engine: Self.kind.name, quality: configuration.quality, offered: Self.kind.qualities)
        }
        let (state, error) = LibSoxr.create(inputRate: configuration.inputRate, outputRate: configuration.outputRate,
                                            channels: configuration.channelCount, recipe: recipe)
        guard let state, error == nil else {
            if let state { LibSoxr.delete(state) }
            throw .library(engine: Self.kind.name, message: error ?? "could not create a resampler")
        }
        self.configuration = configuration
        self.state = state
        latency = Int((256 / min(configuration.ratio, 1)).rounded(.up))
        scratch = InterleavingScratch(channelCount: configuration.channelCount)
        length = ExactLength(configuration)
    }

    deinit {
        LibSoxr.delete(state)
    }

    func reset() {
        _ = LibSoxr.clear(state)
        length.reset()
    }

    /// One `soxr_process` call: input while there is some, else (after the end) the flush,
    /// held to the exact length.
    func processInterleaved(_ input: UnsafePointer<Float>, inputFrames: Int, into output: UnsafeMutablePointer<Float>,
                                    outputCapacity: Int, endOfInput: Bool) throws(ResamplerError) -> ResamplerProgress {
        guard let capacity = length.room(outputCapacity, inputFrames: inputFrames, endOfInput: endOfInput) else {
            return ResamplerProgress(framesConsumed: inputFrames, framesProduced: 0)
        }
        let flushing = endOfInput && inputFrames == 0
        let step = LibSoxr.process(state, input: flushing ? nil : input, inputFrames: inputFrames, output: output,
                                   outputCapacity: capacity)
        if let error = step.error { throw .library(engine: Self.kind.name, message: error) }
        return length.record(used: step.used, generated: step.generated, ranDry: flushing, output: output, room: capacity)
    }
}
