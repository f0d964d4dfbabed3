import AudioGraph
import FourierTransforms
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Convolves its input with an impulse response (`ImpulseResponse`): a recording played in a
/// measured room, through a measured cabinet or any FIR filter, mixed with the dry signal.
///
/// The convolution is `PartitionedConvolver`'s, in partitions of `partitionLength` frames; the
/// node runs one partition late and hides it (`BlockEffectNode`), so the output lines up with
/// the input frame for frame, and the response's tail is rendered after the input up to
/// `tailLimit`, ending at −120 dBFS. With w the `wet` parameter (0 to 100 %) as a fraction and
/// `gain` in dB, the output is (1 − w) × dry + w × 10^(gain/20) × convolved; events move both at
/// their exact frames. The channels are joined as `ConvolutionRouting` says.
public final class ConvolutionNode: BlockEffectNode {
    /// The node's parameters.
    public enum Parameter: Int, CaseIterable, Sendable {
        case wet, gain
    }

    /// The parameters' descriptions: `wet` in percent, `gain` in dB.
    public static let parameters: [ParameterDescription] = [
        ParameterDescription(id: Parameter.wet.rawValue, name: "wet", range: 0...100, defaultValue: 100, unit: .linear),
        ParameterDescription(id: Parameter.gain.rawValue, name: "gain", range: -60...24, defaultValue: 0, unit: .decibels),
    ]

    /// The tail limit when none is given: 60 seconds, as plugins'.
    public static let defaultTailLimit = TimeValue.seconds(60)
    /// The most latency a partition may add, in seconds.
    public static let mostLatency = 0.2

    /// The response, at the graph's rate, as read.
    public let response: ImpulseResponse
    /// Whether the response is scaled to unit energy (`ImpulseResponse.normalizationFactor`).
    public let normalizes: Bool
    /// The factor the response is scaled by, once the input's channels are known; 1 unless it `normalizes`.
    public private(set) var scale: Float = 1
    /// Frames per partition: the latency the node hides.
    public let partitionLength: Int
    private var convolver: PartitionedConvolver?
    private var routing: ConvolutionRouting?
    /// The dry input, one partition late to meet the convolved signal: a ring per channel.
    private var dry: AudioBufferStorage?
    private var dryPosition = 0

    /// A node convolving with `response` (already at the graph's rate), scaled to unit energy
    /// when it `normalizes`, rendering at most `tailLimit` frames of tail; `wet` in percent and
    /// `gain` in dB are refused outside their ranges, and a silent response that is to be normalized.
    public init(name: String = "convolution", response: ImpulseResponse, normalizes: Bool = false, wet: Float = 100, gain: Float = 0,
                tailLimit: Int64) throws {
        if normalizes, response.isSilent { throw ImpulseResponseError(path: response.path, problem: "is silent, so it cannot be normalized") }
        self.response = response
        self.normalizes = normalizes
        partitionLength = Self.partitionLength(responseFrames: response.frameCount, sampleRate: response.sampleRate)
        super.init(name: name, tailLimit: tailLimit)
        try setParameter(Parameter.wet.rawValue, wet)
        try setParameter(Parameter.gain.rawValue, gain)
    }

    /// The partition for a response of `responseFrames` at `sampleRate`: the largest power of two
    /// within `mostLatency` (and 16384 frames), but no longer than the response needs, nor under 64.
    public static func partitionLength(responseFrames: Int, sampleRate: Double) -> Int {
        var length = 64
        while length < 16_384, Double(2 * length) <= mostLatency * sampleRate, length < responseFrames { length *= 2 }
        return length
    }

    public override var parameterDescriptions: [ParameterDescription] { Self.parameters }

    public override var planDetail: String? {
        let file = response.path.split(separator: "/").last.map(String.init) ?? response.path
        var source = "\(file): \(response.channels.count) ch, \(Self.text(Double(response.frameCount) / response.sampleRate)) s"
        if let resampledBy = response.resampledBy { source += ", resampled from \(Self.text(response.fileRate)) Hz by \(resampledBy)" }
        if normalizes { source += routing == nil ? ", normalized" : ", normalized (×\(Self.text(Double(scale), digits: 4)))" }
        let wet = parameter(Parameter.wet.rawValue), gain = parameter(Parameter.gain.rawValue)
        let tail = tailLimit.map { "tail up to \(Self.text(Double($0) / response.sampleRate)) s, ending at -120 dBFS" } ?? "no tail"
        return "\(source); \(routing?.summary ?? "routing when formats are known"), wet \(Self.text(Double(wet))) %, gain \(Self.text(Double(gain))) dB, "
            + "partitions of \(partitionLength) frames (latency compensated), \(tail)"
    }

    /// A number rounded to `digits` decimals, without a fraction when it has none: 2, 0.25.
    static func text(_ value: Double, digits: Int = 2) -> String {
        let scale = pow(10, Double(digits))
        let rounded = (value * scale).rounded() / scale
        return rounded == rounded.rounded() && abs(rounded) < 1e15 ? String(Int64(rounded)) : String(rounded)
    }

    public override func validateFormats() throws(GraphError) {
        try super.validateFormats()
        let format = try requiredStreamFormat(scope: .input, bus: 0)
        guard let routing = ConvolutionRouting(responseChannels: response.channels.count, inputChannels: format.channelCount) else {
            throw .unsupportedFormat(node: name, scope: .input, bus: 0, format: format,
                                     reason: ConvolutionRouting.problem(path: response.path, responseChannels: response.channels.count,
                                                                        inputChannels: format.channelCount))
        }
        guard format.sampleRate == response.sampleRate else {
            throw .unsupportedFormat(node: name, scope: .input, bus: 0, format: format,
                                     reason: "the impulse response was brought to \(Self.text(response.sampleRate)) Hz, not the input's rate")
        }
        self.routing = routing
        scale = normalizes ? response.normalizationFactor(for: routing) ?? 1 : 1
    }

    public override func allocateBlocks(input: StreamFormat, output: StreamFormat) throws {
        guard let routing else { return }
        let scale = self.scale
        convolver = PartitionedConvolver(partitionLength: partitionLength, inputCount: routing.channelCount, outputCount: routing.outputCount,
                                         responses: scale == 1 ? response.channels : response.channels.map { $0.map { $0 * scale } },
                                         routes: routing.routes)
        let dry = AudioBufferStorage(channelCount: input.channelCount, capacity: partitionLength)
        dry.list.zero(from: 0, frames: partitionLength)
        self.dry = dry
        dryPosition = 0
    }

    public override func deallocateBlocks() {
        convolver = nil
        dry = nil
    }

    public override func resetBlocks() throws {
        convolver?.reset()
        dry?.list.zero(from: 0, frames: partitionLength)
        dryPosition = 0
    }

    public override var processingLatency: Int { partitionLength }

    public override func processBlock(input: AudioBufferList, output: AudioBufferList, frames: Int) throws {
        guard let convolver, let dry else { return }
        convolver.process(inputs: input.channels.baseAddress!, outputs: output.channels.baseAddress!, frames: frames)
        let wet = parameter(Parameter.wet.rawValue) / 100
        let wetGain = wet * Float(pow(10, Double(parameter(Parameter.gain.rawValue)) / 20)), dryGain = 1 - wet
        var done = 0
        while done < frames {
            let count = min(frames - done, partitionLength - dryPosition)
            for channel in 0..<output.channelCount {
                let late = dry.list[channel] + dryPosition, source = input[channel] + done, target = output[channel] + done
                for frame in 0..<count {
                    let delayed = late[frame]
                    late[frame] = source[frame]
                    target[frame] = target[frame] * wetGain + delayed * dryGain
                }
            }
            done += count
            dryPosition = (dryPosition + count) % partitionLength
        }
    }

    /// The convolution as a catalogued node kind: the response file and its handling as
    /// settings, wet and gain as parameters.
    public static let kind = NodeKind(
        name: "convolution",
        summary: "convolves with an impulse response from an audio file (a room, a cabinet, an FIR filter), mixed with the dry signal",
        settings: [
            SettingDescription("impulse", .text, "the impulse response: any audio file aurender reads, mono, as many channels as the input, "
                               + "or four for true stereo (LL, LR, RL, RR); resampled to the graph's rate", required: true),
            SettingDescription("normalize", .flag, "scale the response so its loudest output channel has unit energy (default false)"),
            SettingDescription("tail", .time, "the most tail rendered after the input ends (default: 60 s; it stops at -120 dBFS)"),
        ],
        parameters: parameters,
        make: { name, settings, context in
            let path = try context.path("impulse", in: settings)!
            let response = try ImpulseResponse.load(path: path, sampleRate: context.sampleRate, resampler: context.resampler,
                                                    quality: context.resamplerQuality)
            let tail = (settings.time("tail") ?? defaultTailLimit).frames(at: context.sampleRate)
            return try ConvolutionNode(name: name, response: response, normalizes: settings.flag("normalize") ?? false, tailLimit: tail)
        })
}
