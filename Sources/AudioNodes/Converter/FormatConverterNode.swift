import AudioDSP
import AudioGraph
import Resampling

/// Converts a stream to another sample rate and channel layout: the format converter unit.
///
/// The output format is a property set at init; the input format comes from what feeds the
/// node. Rates change through a resampler engine chosen at init (`ResamplerRegistry`; soxr
/// by default), streaming: the node pulls input in blocks of the graph's slice size as its output
/// needs them, and converts on two threads: two blocks of time at a time (`BlockResampler`), or
/// the channels in two groups (`ChannelSplitResampler`), as the engine's `parallelism` says. Channels are
/// mapped with a `ChannelMatrix` (the standard one for the two counts unless one is given),
/// before resampling when that leaves fewer channels to resample, after it otherwise.
///
/// Output length is exact: round(input frames × output rate / input rate), for any slice
/// size (the engine's contract). The engine compensates its filter's delay, so there is no
/// leading silence, and the end of input flushes the tail. With equal formats the node passes audio through untouched.
public final class FormatConverterNode: AudioNode {
    /// The engine that changes the rate when the rates differ.
    public let resampler: ResamplerEngineKind
    /// The quality asked of the engine (which uses its nearest level).
    public let quality: ResamplerQuality
    /// The channel matrix given at init, if any.
    public let requestedMatrix: ChannelMatrix?
    /// Why the converter is there when no one asked for it (an output format that cannot hold
    /// the input's rate), as a plan says it; nil for one asked for.
    public let purpose: String?

    /// The matrix in use, once initialized (nil when channels pass straight through).
    public private(set) var matrix: ChannelMatrix?
    private var ratio = 1.0
    private var mixBeforeResampling = true
    private var blockResampler: (any StreamResampler)?
    private var pulled: AudioBufferStorage?
    private var mixed: AudioBufferStorage?
    private var resampled: AudioBufferStorage?
    private var inputFrames: Int64 = 0

    /// A converter producing `output` (its rate and channel count; the graph's canonical form),
    /// put there for `purpose` when no one asked for it.
    public init(name: String = "converter", output: StreamFormat, resampler: ResamplerEngineKind = ResamplerRegistry.defaultEngine,
                quality: ResamplerQuality = .best, matrix: ChannelMatrix? = nil, purpose: String? = nil) throws(GraphError) {
        self.resampler = resampler
        self.quality = quality
        requestedMatrix = matrix
        self.purpose = purpose
        super.init(name: name, inputBusCount: 1, outputBusCount: 1)
        try setStreamFormat(output.canonical, scope: .output)
    }

    public override var planDetail: String? {
        var parts: [String] = []
        if resamples { parts.append("\(resampler.name) \(quality.name)") }
        if let matrix { parts.append("channel matrix \(matrix)") }
        if let purpose { parts.append(purpose) }
        return parts.isEmpty ? "pass-through" : parts.joined(separator: ", ")
    }

    /// Whether the node changes the sample rate.
    public var resamples: Bool { ratio != 1 }

    /// Whether every output sample is an input sample unchanged: no resampling, and each output
    /// channel a copy of one input or silent. Such a conversion adds no resolution to dither.
    public var isExact: Bool {
        !resamples && (matrix?.weights.allSatisfy { row in row.allSatisfy { $0 == 0 || $0 == 1 } && row.filter { $0 == 1 }.count <= 1 } ?? true)
    }

    public override func validateFormats() throws(GraphError) {
        try requireCanonical(scope: .input, bus: 0)
        try requireCanonical(scope: .output, bus: 0)
        guard let input = streamFormat(scope: .input), let output = streamFormat(scope: .output) else { return }
        if let requestedMatrix, requestedMatrix.inputCount != input.channelCount || requestedMatrix.outputCount != output.channelCount {
            throw .unsupportedFormat(node: name, scope: .output, bus: 0, format: output,
                                     reason: "the channel matrix maps \(requestedMatrix.inputCount) channels to \(requestedMatrix.outputCount), but the input has \(input.channelCount)")
        }
        guard input.sampleRate != output.sampleRate else { return }
        guard input.sampleRate == input.sampleRate.rounded(), output.sampleRate == output.sampleRate.rounded() else {
            throw .unsupportedFormat(node: name, scope: .output, bus: 0, format: output,
                                     reason: "rates must be whole numbers of Hz to be converted; the input is \(input.sampleRate) Hz")
        }
        do throws(ResamplerError) {
            try resampler.validate(resamplerConfiguration(input: input, output: output))
        } catch {
            throw .unsupportedFormat(node: name, scope: .output, bus: 0, format: output, reason: error.description)
        }
    }

    /// Whether channels are mixed before resampling: when that leaves fewer (or as many) to resample.
    private static func mixesFirst(input: StreamFormat, output: StreamFormat) -> Bool {
        output.channelCount <= input.channelCount
    }

    /// What the engine converts: the rates, and the channels left after mixing when mixing first.
    private func resamplerConfiguration(input: StreamFormat, output: StreamFormat) -> ResamplerConfiguration {
        ResamplerConfiguration(inputRate: Int(input.sampleRate), outputRate: Int(output.sampleRate),
                               channelCount: Self.mixesFirst(input: input, output: output) ? output.channelCount : input.channelCount,
                               quality: quality)
    }

    public override func allocateRenderResources() throws {
        guard let input = streamFormat(scope: .input), let output = streamFormat(scope: .output) else { return }
        let chosen = requestedMatrix ?? .standard(from: input.channelCount, to: output.channelCount)
        matrix = chosen.isIdentity ? nil : chosen
        ratio = output.sampleRate / input.sampleRate
        mixBeforeResampling = Self.mixesFirst(input: input, output: output)
        let block = maximumFramesPerSlice
        pulled = AudioBufferStorage(channelCount: input.channelCount, capacity: block)
        mixed = nil
        resampled = nil
        blockResampler = nil
        inputFrames = 0
        guard resamples else { return }
        let configuration = resamplerConfiguration(input: input, output: output)
        if mixBeforeResampling, matrix != nil { mixed = AudioBufferStorage(channelCount: configuration.channelCount, capacity: block) }
        if !mixBeforeResampling { resampled = AudioBufferStorage(channelCount: configuration.channelCount, capacity: block) }
        blockResampler = try makeStreamResampler(kind: resampler, configuration: configuration, pullFrames: block)
    }

    /// Starts the conversion again from the first input frame, with empty filters.
    public override func reset() throws {
        blockResampler?.reset()
        inputFrames = 0
    }

    public override func deallocateRenderResources() {
        blockResampler = nil
        pulled = nil
        mixed = nil
        resampled = nil
    }

    public override func render(_ flags: inout RenderActionFlags, _ request: RenderRequest, _ output: AudioBufferList) throws -> Int {
        guard let pulled else { return 0 }
        guard let blockResampler else {
            guard let matrix else { return try pullInput(bus: 0, &flags, request, into: output) }
            let frames = try pullInput(bus: 0, &flags, request, into: pulled.list)
            matrix.apply(pulled.list, into: output, frames: request.frameCount)
            return frames
        }
        let target = resampled?.list ?? output
        let frames = try blockResampler.read(into: target, offset: 0, frames: request.frameCount) { destination, count in
            try pullInterleaved(into: destination, frames: count, pulled: pulled)
        }
        if let resampled {
            if let matrix { matrix.apply(resampled.list, into: output, frames: frames) } else { output.copy(from: resampled.list, frames: frames) }
        }
        output.endStream(filled: frames, requested: request.frameCount, flags: &flags)
        return frames
    }

    /// Pulls `frames` input frames from upstream and interleaves them into `destination`,
    /// mixed first when mixing leaves fewer channels to resample.
    private func pullInterleaved(into destination: UnsafeMutablePointer<Float>, frames: Int,
                                 pulled: AudioBufferStorage) throws -> Int {
        var flags: RenderActionFlags = []
        let upstream = RenderRequest(timeStamp: AudioTimeStamp(sampleTime: inputFrames), bus: 0, frameCount: frames)
        let got = try pullInput(bus: 0, &flags, upstream, into: pulled.list)
        inputFrames += Int64(got)
        var source = pulled.list
        if let mixed, let matrix {
            matrix.apply(pulled.list, into: mixed.list, frames: got)
            source = mixed.list
        }
        let channels = source.channelCount
        for channel in 0..<channels {
            let samples = source[channel]
            for frame in 0..<got { destination[frame * channels + channel] = samples[frame] }
        }
        return got
    }
}

extension FormatConverterNode {
    /// The converter as a catalogued node kind: the rate and channels it converts to.
    public static let kind = NodeKind(
        name: "converter", summary: "converts the sample rate and channel layout",
        settings: [
            .sampleRate("the output rate (default: the graph's)"),
            .channelCount("the output channel count (default 2)"),
            SettingDescription("quality", .choice(ResamplerQuality.allCases.map(\.name)),
                               "the quality asked of the resampler (default: the job's, else best)"),
            SettingDescription("engine", .choice(ResamplerRegistry.engines.map(\.name)),
                               "the resampler engine (default: the job's, else \(ResamplerRegistry.defaultEngine.name))"),
        ],
        make: { name, settings, context in
            let quality = settings.text("quality").flatMap(ResamplerQuality.init(name:)) ?? context.resamplerQuality
            let engine = try settings.text("engine").map { try ResamplerRegistry.engine(named: $0) } ?? context.resampler
            return try FormatConverterNode(name: name, output: .canonical(sampleRate: settings.number("rate") ?? context.sampleRate,
                                                                          channelCount: settings.integer("channels") ?? 2),
                                           resampler: engine, quality: quality)
        })
}
