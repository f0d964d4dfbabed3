import CSamplerate

/// libsamplerate (Secret Rabbit Code) as a resampler engine: one converter state, streaming.
///
/// libsamplerate centres its filter, so output starts at input time 0 with no delay; at the end
/// of input this engine stops at the exact length, or pads with zeros a flush that falls short.
/// libsamplerate reads interleaved frames only: planar frames go through scratch buffers made
/// at init, `InterleavingScratch.frames` at a time.
final class LibsamplerateEngine: InterleavedResamplerEngine {
    /// The engine's registration: its name, qualities and factory.
    static let kind = ResamplerEngineKind(
        name: "libsamplerate",
        summary: "Secret Rabbit Code: band-limited sinc interpolation (best, medium, fastest), zero-order hold, linear",
        qualities: converters.map(\.quality),
        check: { configuration in
            guard LibSamplerate.isValidRatio(configuration.ratio) else {
                return "converts between rates at most 256 times apart, not \(configuration.inputRate) Hz to \(configuration.outputRate) Hz"
            }
            return nil
        },
        make: { configuration throws(ResamplerError) in try LibsamplerateEngine(configuration) }
    )

    /// aurender's levels and libsamplerate's converters, best first.
    static let converters: [(quality: ResamplerQuality, converter: Int32)] = [
        (.best, Int32(SRC_SINC_BEST_QUALITY)),
        (.medium, Int32(SRC_SINC_MEDIUM_QUALITY)),
        (.fastest, Int32(SRC_SINC_FASTEST)),
        (.zeroOrderHold, Int32(SRC_ZERO_ORDER_HOLD)),
        (.linear, Int32(SRC_LINEAR)),
    ]

    /// The libsamplerate converter for `quality`, the nearest level libsamplerate has.
    static func converter(for quality: ResamplerQuality) -> Int32? {
        quality.nearest(among: converters.map(\.quality)).flatMap { level in converters.first { $0.quality == level }?.converter }
    }

    /// libsamplerate's own name for the converter `quality` uses ("Best Sinc Interpolator").
    static func converterName(for quality: ResamplerQuality) -> String? {
        converter(for: quality).map(LibSamplerate.name)
    }

    let configuration: ResamplerConfiguration
    /// 256 input frames at ratios of 1 and above (the best sinc filter reaches about 143),
    /// 256 / ratio below, where the filter widens as it lowers its cutoff: a bound for every converter.
    let latency: Int
    private let state: LibSamplerate.State
    private let ratio: Double
    private var length: ExactLength
    let scratch: InterleavingScratch

    private init(_ configuration: ResamplerConfiguration) throws(ResamplerError) {
        guard let converter = Self.converter(for: configuration.quality) else {
            throw .unsupportedQuality(engine: Self.kind.name, quality: configuration.quality, offered: Self.kind.qualities)
        }
        var error: Int32 = 0
        guard let state = LibSamplerate.new(converter: converter, channels: configuration.channelCount, error: &error) else {
            throw .library(engine: Self.kind.name, message: LibSamplerate.message(error))
        }
        self.configuration = configuration
        self.state = state
        ratio = configuration.ratio
        latency = Int((256 / min(ratio, 1)).rounded(.up))
        scratch = InterleavingScratch(channelCount: configuration.channelCount)
        length = ExactLength(configuration)
    }

    deinit {
        LibSamplerate.delete(state)
    }

    func reset() {
        LibSamplerate.reset(state)
        length.reset()
    }

    /// One `src_process` call, held to the exact length once the input has ended.
    func processInterleaved(_ input: UnsafePointer<Float>, inputFrames: Int, into output: UnsafeMutablePointer<Float>,
                                    outputCapacity: Int, endOfInput: Bool) throws(ResamplerError) -> ResamplerProgress {
        guard let capacity = length.room(outputCapacity, inputFrames: inputFrames, endOfInput: endOfInput) else {
            return ResamplerProgress(framesConsumed: inputFrames, framesProduced: 0)
        }
        let step = LibSamplerate.process(state, input: input, inputFrames: inputFrames, output: output,
                                         outputCapacity: capacity, endOfInput: endOfInput, ratio: ratio)
        if step.status != 0 { throw .library(engine: Self.kind.name, message: LibSamplerate.message(step.status)) }
        return length.record(used: step.used, generated: step.generated, ranDry: endOfInput && step.used == 0, output: output,
                             room: capacity)
    }

    /// Converts a whole signal at once with libsamplerate's `src_simple`: the reference the
    /// streaming engine is checked against.
    static func convertWhole(_ input: [Float], channelCount: Int, ratio: Double,
                             quality: ResamplerQuality) throws(ResamplerError) -> [Float] {
        guard LibSamplerate.isValidRatio(ratio) else {
            throw .unsupported(engine: kind.name, reason: "converts between rates at most 256 times apart, not a ratio of \(ratio)")
        }
        guard let converter = converter(for: quality) else {
            throw .unsupportedQuality(engine: kind.name, quality: quality, offered: kind.qualities)
        }
        let inputFrames = input.count / channelCount
        let capacity = Int((Double(inputFrames) * ratio).rounded(.up)) + 64
        var output = [Float](repeating: 0, count: capacity * channelCount)
        let step = input.withUnsafeBufferPointer { source in
            output.withUnsafeMutableBufferPointer { destination in
                LibSamplerate.simple(input: source.baseAddress!, inputFrames: inputFrames, output: destination.baseAddress!,
                                     outputCapacity: capacity, ratio: ratio, converter: converter, channels: channelCount)
            }
        }
        if step.status != 0 { throw .library(engine: kind.name, message: LibSamplerate.message(step.status)) }
        return Array(output.prefix(step.generated * channelCount))
    }
}
