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
/// WebRTC instance, so a second render gives the same bytes.
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
    private var processor: WebRTCAudioProcessing?
    private var pipeline: Pipeline?
    private var state = State()

    /// The stages made at initialize for the stream's format.
    private final class Pipeline {
        let rate: Int
        let processingRate: Int
        let frameLength: Int
        /// Into WebRTC's rate and back out, when the stream's rate is not one of its own.
        let into: ResampledStage?
        let outOf: ResampledStage?
        /// The far end at WebRTC's rate, mono: resampled, or read straight into `farDirect`.
        let far: ResampledStage?
        let farDirect: PlanarQueue?
        /// One far-end chunk as read, and mixed to mono.
        let farRead: AudioBufferStorage?
        let farMono: PlanarQueue
        /// WebRTC's output brought to its greatest latency.
        let compensation: LatencyCompensation
        /// One processed 10 ms frame, and the pointers WebRTC reads and writes through.
        let frame: PlanarQueue
        let inputs: UnsafeMutablePointer<UnsafePointer<Float>?>
        let outputs: UnsafeMutablePointer<UnsafeMutablePointer<Float>?>
        /// Frames of silence ahead of the resampled output: the most it ever runs short.
        var lead = 0

        init(rate: Int, processingRate: Int, frameLength: Int, latency: Int, channels: Int, reference: (any EchoReference)?,
             resampler: ResamplerEngineKind, quality: ResamplerQuality) throws {
            compensation = LatencyCompensation(target: latency, channelCount: channels, frameLength: frameLength)
            self.rate = rate
            self.processingRate = processingRate
            self.frameLength = frameLength
            if rate != processingRate {
                let inward = ResamplerConfiguration(inputRate: rate, outputRate: processingRate, channelCount: channels, quality: quality)
                let outward = ResamplerConfiguration(inputRate: processingRate, outputRate: rate, channelCount: channels, quality: quality)
                into = try ResampledStage(kind: resampler, configuration: inward,
                                          capacity: 2 * inward.outputFrames(forInputFrames: VoiceNode.blockLength) + 4 * frameLength + 8192)
                outOf = try ResampledStage(kind: resampler, configuration: outward,
                                           capacity: 4 * VoiceNode.blockLength + outward.outputFrames(forInputFrames: 4 * frameLength) + 8192)
            } else {
                into = nil
                outOf = nil
            }
            if let reference {
                let farRate = Int(reference.format.sampleRate)
                if farRate != processingRate {
                    let configuration = ResamplerConfiguration(inputRate: farRate, outputRate: processingRate, channelCount: 1, quality: quality)
                    far = try ResampledStage(kind: resampler, configuration: configuration,
                                             capacity: 2 * configuration.outputFrames(forInputFrames: VoiceNode.farChunk) + 2 * frameLength + 8192)
                    farDirect = nil
                } else {
                    far = nil
                    farDirect = PlanarQueue(channelCount: 1, capacity: VoiceNode.farChunk + 2 * frameLength)
                }
                farRead = AudioBufferStorage(channelCount: reference.format.channelCount, capacity: VoiceNode.farChunk)
            } else {
                far = nil
                farDirect = nil
                farRead = nil
            }
            farMono = PlanarQueue(channelCount: 1, capacity: VoiceNode.farChunk)
            frame = PlanarQueue(channelCount: channels, capacity: frameLength)
            inputs = .allocate(capacity: channels)
            inputs.initialize(repeating: nil, count: channels)
            outputs = .allocate(capacity: channels)
            outputs.initialize(repeating: nil, count: channels)
        }

        deinit {
            inputs.deallocate()
            outputs.deallocate()
        }

        /// The far end's queue at WebRTC's rate.
        var farQueue: PlanarQueue? { far?.output ?? farDirect }
    }

    /// Where the node is in its stream.
    private struct State {
        /// Processed frames still to drop: WebRTC's own delay, at its rate.
        var toDrop = 0
        /// Frames of silence still to emit ahead of the resampled output.
        var leadLeft = 0
        var referenceEnded = false
        /// Whether a parameter changed since WebRTC's last frame.
        var changed = false
    }

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
    public override func parameterDidChange(_ id: ParameterID) { state.changed = true }

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
        if let pipeline {
            how += " at \(pipeline.processingRate) Hz"
            if pipeline.into != nil { how += ", resampled from \(pipeline.rate) Hz by \(resampler.name) \(quality.name)" }
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
        let processingRate = Self.processingRate(for: rate)
        let processor = try WebRTCAudioProcessing(sampleRate: processingRate, channelCount: input.channelCount, settings: settings,
                                                  cancelsEcho: reference != nil)
        let pipeline = try Pipeline(rate: rate, processingRate: processingRate, frameLength: processor.frameLength,
                                    latency: processor.maximumLatency, channels: input.channelCount, reference: reference, resampler: resampler, quality: quality)
        self.processor = processor
        self.pipeline = pipeline
        pipeline.lead = try measureLead(pipeline, latency: processor.maximumLatency)
        try startStream(rewinding: false)
    }

    public override func deallocateBlocks() {
        processor = nil
        pipeline = nil
    }

    public override func resetBlocks() throws {
        try startStream(rewinding: true)
    }

    /// WebRTC's own delay where it runs on the stream's blocks; the lead of silence where the
    /// stream is resampled (WebRTC's delay is dropped at its rate there).
    public override var processingLatency: Int {
        guard let pipeline, let processor else { return 0 }
        return pipeline.into == nil ? processor.maximumLatency : pipeline.lead
    }

    /// A fresh WebRTC instance and stages, the far end from its start.
    private func startStream(rewinding: Bool) throws {
        guard let pipeline, let current = processor else { return }
        let processor = try WebRTCAudioProcessing(sampleRate: current.sampleRate, channelCount: current.channelCount, settings: settings,
                                                  cancelsEcho: current.cancelsEcho)
        self.processor = processor
        pipeline.compensation.reset(latency: processor.latency)
        try pipeline.into?.reset()
        try pipeline.outOf?.reset()
        try pipeline.far?.reset()
        pipeline.farDirect?.removeAll()
        if rewinding { try reference?.rewind() }
        state = State(toDrop: pipeline.into == nil ? 0 : processor.maximumLatency, leadLeft: pipeline.lead, referenceEnded: false)
    }

    /// Frames of lead beyond the most the simulation saw: soxr's output comes in steps whose
    /// pattern drifts slowly (over ten minutes at 44.1 kHz it ran 330 frames further short than
    /// in its first ten seconds). Should it ever run further, the render stops with an error.
    static let leadMargin = 1024

    /// The frames of silence the resampled output needs ahead of it: the most it runs short of the
    /// blocks asked for while ten seconds of silence run through the stages (their steps do not
    /// depend on the samples), plus `leadMargin`; the stages are started again afterwards.
    private func measureLead(_ pipeline: Pipeline, latency: Int) throws -> Int {
        guard let into = pipeline.into, let outOf = pipeline.outOf else { return 0 }
        try into.reset()
        try outOf.reset()
        let silence = PlanarQueue(channelCount: into.output.channelCount, capacity: Self.blockLength)
        var toDrop = latency, asked = 0, given = 0, lead = 0
        for _ in 0..<(10 * pipeline.rate / Self.blockLength + 2) {
            try into.push({ silence.front($0) }, frames: Self.blockLength)
            while into.output.count >= pipeline.frameLength {
                let skip = min(toDrop, pipeline.frameLength)
                toDrop -= skip
                if skip < pipeline.frameLength { try outOf.push({ into.output.front($0) + skip }, frames: pipeline.frameLength - skip) }
                into.output.removeFirst(pipeline.frameLength)
            }
            asked += Self.blockLength
            let take = min(outOf.output.count, asked - given)
            outOf.output.removeFirst(take)
            given += take
            lead = max(lead, asked - given)
        }
        return lead + Self.leadMargin
    }

    public override func processBlock(input: AudioBufferList, output: AudioBufferList, frames: Int) throws {
        guard let pipeline, let processor else { return }
        let length = pipeline.frameLength
        guard let into = pipeline.into, let outOf = pipeline.outOf else {
            for offset in stride(from: 0, to: frames, by: length) {
                for channel in 0..<input.channelCount {
                    pipeline.inputs[channel] = UnsafePointer(input[channel] + offset)
                    pipeline.outputs[channel] = output[channel] + offset
                }
                try process(pipeline, processor)
            }
            return
        }
        try into.push({ input[$0] }, frames: frames)
        while into.output.count >= length {
            for channel in 0..<input.channelCount {
                pipeline.inputs[channel] = UnsafePointer(into.output.front(channel))
                pipeline.outputs[channel] = pipeline.frame.front(channel)
            }
            try process(pipeline, processor)
            into.output.removeFirst(length)
            let skip = min(state.toDrop, length)
            state.toDrop -= skip
            if skip < length { try outOf.push({ pipeline.frame.front($0) + skip }, frames: length - skip) }
        }
        let lead = min(state.leadLeft, frames)
        output.zero(frames: lead)
        state.leadLeft -= lead
        let rest = frames - lead
        guard outOf.output.count >= rest else {
            throw VoiceProcessingError.resampledStreamRanShort(frames: rest - outOf.output.count)
        }
        for channel in 0..<output.channelCount { (output[channel] + lead).update(from: outOf.output.front(channel), count: rest) }
        outOf.output.removeFirst(rest)
    }

    /// One 10 ms frame through WebRTC, through the pointers set in `pipeline`, after the far end's,
    /// with the parameters changed since the last frame, delayed to WebRTC's greatest latency.
    private func process(_ pipeline: Pipeline, _ processor: WebRTCAudioProcessing) throws {
        if state.changed {
            state.changed = false
            try processor.update(settings)
            pipeline.compensation.latencyChanged(to: processor.latency)
        }
        if let farQueue = pipeline.farQueue {
            while farQueue.count < pipeline.frameLength { try readFarEnd(pipeline) }
            try processor.analyzeFarEnd(farQueue.front(0))
            farQueue.removeFirst(pipeline.frameLength)
        }
        try processor.process(pipeline.inputs, into: pipeline.outputs)
        pipeline.compensation.apply(pipeline.outputs, frames: pipeline.frameLength)
    }

    /// Reads one chunk of the far end (silence after its end), mixes it to mono and queues it at WebRTC's rate.
    private func readFarEnd(_ pipeline: Pipeline) throws {
        guard let reference, let farRead = pipeline.farRead else { return }
        let chunk = Self.farChunk
        let got = state.referenceEnded ? 0 : try reference.read(into: farRead.list, frames: chunk)
        if got < chunk {
            state.referenceEnded = true
            farRead.list.zero(from: got, frames: chunk - got)
        }
        let mono = pipeline.farMono
        mono.removeAll()
        let channels = farRead.list.channelCount
        let target = mono.front(0)
        target.update(from: farRead.list[0], count: chunk)
        if channels > 1 {
            for channel in 1..<channels {
                let source = farRead.list[channel]
                for frame in 0..<chunk { target[frame] += source[frame] }
            }
            let scale = 1 / Float(channels)
            for frame in 0..<chunk { target[frame] *= scale }
        }
        if let far = pipeline.far {
            try far.push({ _ in target }, frames: chunk)
        } else if let farDirect = pipeline.farDirect {
            farDirect.append({ _ in UnsafePointer(target) }, frames: chunk)
        }
    }
}
