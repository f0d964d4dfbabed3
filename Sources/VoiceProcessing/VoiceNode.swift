import AudioFormats
import AudioGraph
import Resampling

/// The seeds' Voice-Processing unit, offline: noise suppression, automatic gain control, a
/// high-pass filter and echo cancellation against a far end, by WebRTC's audio processing module.
///
/// WebRTC works on 10 ms frames at 8, 16, 32 or 48 kHz. At those rates the node hands it the
/// stream's blocks as they are; at any other rate it resamples into the nearest rate above (48
/// kHz above that) with the job's resampler engine and back out again, and the far end is
/// resampled from its own rate and mixed to mono the same way. Everything runs on fixed blocks
/// (`BlockEffectNode`), and the delay of WebRTC's filters and of the resampling is hidden, so
/// output frame n answers input frame n whatever the slice size. A far end shorter than the
/// stream is followed by silence. Everything is made at initialize, and `reset` starts a new
/// WebRTC instance, so a second render gives the same bytes. With two channels or more and no
/// far end, the first half of the channels and the rest run in two `VoiceLane`s, each with a
/// WebRTC processor of its own, on two threads: WebRTC keeps each channel's state apart, so a
/// channel comes out as it would alone, whatever the threads.
///
/// The noise suppression, the high-pass, the echo suppression and the gain control's target and
/// compression are parameters that events change while rendering. WebRTC takes a change between
/// two of its 10 ms frames, so a change lands on the first frame it processes after the render
/// reaches the event: the node runs ahead of its output by its latency, in 960-frame blocks, so
/// that is the same frame for every slice size, at or up to one block (20 ms at 48 kHz) after the
/// event's frame. The node hides WebRTC's greatest latency at its rate whatever runs
/// (`LatencyCompensation`), so turning noise suppression on or off keeps the output lined up.
/// Whether gain control runs at all, and the far end, are fixed when the node is made.
public final class VoiceNode: BlockEffectNode {
    /// The node's parameters.
    public enum Parameter: Int, CaseIterable, Sendable {
        case denoise, agc, agcCompression, highpass, echoSuppression
    }

    /// The noise-suppression choices, "off" first.
    public static let denoiseChoices = ["off"] + VoiceSettings.NoiseSuppression.allCases.map(\.name)

    /// The parameters; the gain control's target changes while rendering only on a node with gain control.
    public static func descriptions(gainControl: Bool) -> [ParameterDescription] {
        let target = VoiceSettings.gainTargetRange, compression = VoiceSettings.gainCompressionRange
        return [
            .indexed(id: Parameter.denoise.rawValue, name: "denoise", choices: denoiseChoices),
            ParameterDescription(id: Parameter.agc.rawValue, name: "agc", range: Float(target.lowerBound)...Float(target.upperBound),
                                 defaultValue: -3, unit: .decibels, changesWhileRendering: gainControl),
            ParameterDescription(id: Parameter.agcCompression.rawValue, name: "agcCompression",
                                 range: Float(compression.lowerBound)...Float(compression.upperBound), defaultValue: 9, unit: .decibels),
            .boolean(id: Parameter.highpass.rawValue, name: "highpass", defaultValue: false),
            .indexed(id: Parameter.echoSuppression.rawValue, name: "echoSuppression",
                     choices: VoiceSettings.EchoSuppression.allCases.map(\.name), defaultIndex: VoiceSettings.EchoSuppression.moderate.rawValue),
        ]
    }

    /// The block the kernel runs on: a whole number of 10 ms frames at every WebRTC rate.
    public static let blockLength = 960
    /// Far-end frames read at a time.
    static let farChunk = 1024

    /// Whether gain control runs, fixed when made.
    public let gainControl: Bool
    /// The far end whose echo is cancelled, if any.
    public let reference: (any EchoReference)?
    /// The engine that resamples around WebRTC, and its quality.
    public let resampler: ResamplerEngineKind
    public let quality: ResamplerQuality

    private let parameterList: [ParameterDescription]
    /// The channels' lanes: two (the first half and the rest) on two threads when there are
    /// two channels or more and no far end, else one.
    private var lanes: [VoiceLane] = []
    private var worker: PairedWorker?
    /// Whether a parameter changed since the lanes last took the settings.
    private var changed = false

    /// A node processing a voice with `settings`, cancelling the echo of `reference` when given,
    /// resampling around WebRTC with `resampler` at `quality` when the stream's rate needs it.
    public init(name: String = "voice", settings: VoiceSettings, reference: (any EchoReference)? = nil,
                resampler: ResamplerEngineKind = ResamplerRegistry.defaultEngine, quality: ResamplerQuality = .best) throws(VoiceProcessingError) {
        try settings.validate()
        if let reference {
            let rate = reference.format.sampleRate
            guard reference.format.channelCount > 0 else { throw .unusableFarEnd("\(reference.label) has no channels") }
            guard rate >= 1, rate == rate.rounded() else { throw .unusableFarEnd("\(reference.label) has a rate of \(rate) Hz, not a whole number") }
        }
        gainControl = settings.gainTarget != nil
        parameterList = Self.descriptions(gainControl: gainControl)
        self.reference = reference
        self.resampler = resampler
        self.quality = quality
        super.init(name: name, tailLimit: nil, fixedBlockLength: Self.blockLength)
        do throws(GraphError) {
            try setParameter(Parameter.denoise.rawValue, Float(settings.noiseSuppression.map { $0.rawValue + 1 } ?? 0))
            try setParameter(Parameter.agc.rawValue, Float(settings.gainTarget ?? -3))
            try setParameter(Parameter.agcCompression.rawValue, Float(settings.gainCompression))
            try setParameter(Parameter.highpass.rawValue, settings.highPass ? 1 : 0)
            try setParameter(Parameter.echoSuppression.rawValue, Float(settings.echoSuppression.rawValue))
        } catch {
            preconditionFailure("checked settings fit the parameters: \(error)")
        }
    }

    public override var parameterDescriptions: [ParameterDescription] { parameterList }

    /// The settings the parameters stand at.
    public var settings: VoiceSettings {
        func value(_ parameter: Parameter) -> Float { self.parameter(parameter.rawValue) }
        let denoise = Int(value(.denoise))
        return VoiceSettings(noiseSuppression: denoise == 0 ? nil : VoiceSettings.NoiseSuppression(rawValue: denoise - 1),
                             gainTarget: gainControl ? Double(value(.agc)) : nil, gainCompression: Double(value(.agcCompression)),
                             highPass: value(.highpass) != 0,
                             echoSuppression: VoiceSettings.EchoSuppression(rawValue: Int(value(.echoSuppression))) ?? .moderate)
    }

    /// Marks the settings for WebRTC's next frame.
    public override func parameterDidChange(_ id: ParameterID) { changed = true }

    /// WebRTC's rate for a stream at `rate`: its own if WebRTC takes it, else the next above, else 48 kHz.
    public static func processingRate(for rate: Int) -> Int {
        WebRTCAudioProcessing.nativeRates.first { $0 >= rate } ?? 48000
    }

    public override var planDetail: String? {
        var parts: [String] = []
        if settings.highPass { parts.append("high-pass") }
        if let level = settings.noiseSuppression { parts.append("noise suppression \(level.name)") }
        if let target = settings.gainTarget {
            parts.append("gain control to \(VoiceProcessingError.text(target)) dBFS peaks (compression \(VoiceProcessingError.text(settings.gainCompression)) dB)")
        }
        if let reference {
            parts.append("echo of \(reference.label) cancelled (suppression \(settings.echoSuppression.name))")
        }
        if parts.isEmpty { parts.append("pass-through") }
        var how = "by WebRTC's audio processing"
        if !lanes.isEmpty {
            let lane = lanes[0]
            how += " at \(lane.processor.sampleRate) Hz"
            if lane.into != nil { how += ", resampled from \(lane.rate) Hz by \(resampler.name) \(quality.name)" }
            if lanes.count > 1 { how += ", channels in \(lanes.count) lanes on two threads" }
        }
        return parts.joined(separator: ", ") + ", " + how
    }

    public override func validateFormats() throws(GraphError) {
        try super.validateFormats()
        let format = try requiredStreamFormat(scope: .input)
        guard format.sampleRate == format.sampleRate.rounded(), format.sampleRate >= 1 else {
            throw .unsupportedFormat(node: name, scope: .input, bus: 0, format: format,
                                     reason: "voice processing resamples to WebRTC's rates, which needs a rate of a whole number of Hz")
        }
        let rate = Int(format.sampleRate)
        let processingRate = Self.processingRate(for: rate)
        var configurations: [ResamplerConfiguration] = []
        if rate != processingRate {
            configurations.append(ResamplerConfiguration(inputRate: rate, outputRate: processingRate, channelCount: format.channelCount, quality: quality))
            configurations.append(ResamplerConfiguration(inputRate: processingRate, outputRate: rate, channelCount: format.channelCount, quality: quality))
        }
        if let reference, Int(reference.format.sampleRate) != processingRate {
            configurations.append(ResamplerConfiguration(inputRate: Int(reference.format.sampleRate), outputRate: processingRate, channelCount: 1,
                                                         quality: quality))
        }
        for configuration in configurations {
            do throws(ResamplerError) { try resampler.validate(configuration) } catch {
                throw .unsupportedFormat(node: name, scope: .input, bus: 0, format: format, reason: error.description)
            }
        }
    }

    public override func allocateBlocks(input: StreamFormat, output: StreamFormat) throws {
        let rate = Int(input.sampleRate)
        let channels = input.channelCount, firstGroup = (channels + 1) / 2
        let groups = channels == 1 || reference != nil ? [(0, channels)] : [(0, firstGroup), (firstGroup, channels - firstGroup)]
        let settings = settings
        lanes = try groups.map { first, count in
            try VoiceLane(firstChannel: first, channelCount: count, rate: rate, processingRate: Self.processingRate(for: rate),
                          settings: settings, reference: reference, resampler: resampler, quality: quality)
        }
        changed = false
        if lanes.count == 2 {
            let second = lanes[1]
            worker = PairedWorker { second.run() }
        }
    }

    public override func deallocateBlocks() {
        worker = nil
        lanes = []
    }

    public override func resetBlocks() throws {
        let settings = settings
        for lane in lanes { try lane.start(settings: settings, rewinding: true) }
        changed = false
    }

    /// The lanes' latency (the same in every lane): WebRTC's greatest where it runs on the
    /// stream's blocks, the lead of silence where the stream is resampled.
    public override var processingLatency: Int { lanes.isEmpty ? 0 : lanes[0].latency }

    public override func processBlock(input: AudioBufferList, output: AudioBufferList, frames: Int) throws {
        let settings: VoiceSettings? = changed ? self.settings : nil
        changed = false
        // Indices, not iterators: an unspecialized iterator over the lanes would allocate.
        for index in 0..<lanes.count {
            let lane = lanes[index]
            for channel in 0..<lane.channelCount {
                lane.blockInput[channel] = input[lane.firstChannel + channel]
                lane.blockOutput[channel] = output[lane.firstChannel + channel]
            }
            lane.blockFrames = frames
            if let settings { lane.pending = settings }
        }
        guard !lanes.isEmpty else { return }
        let first = lanes[0]
        if let worker {
            worker.runAlongside { first.run() }
        } else {
            first.run()
        }
        for index in 0..<lanes.count { if let failure = lanes[index].failure { throw failure } }
    }
}
