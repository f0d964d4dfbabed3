import AudioGraph
import Resampling
import TimeStretching
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Changes a stream's tempo, pitch and speed: Core Audio's time-pitch unit, SoX's `tempo`,
/// `pitch` and `speed` effects in one node.
///
/// One node for the three, because they are one process: a pitch shift is a stretch and a
/// resampling, and doing both in one place lets the stretch make up for the resampler's rounding
/// so the length stays exact.
///
/// - `tempo` (a ratio): plays faster or slower keeping the pitch; 1.25 is 25 % faster, so
///   the output has round(frames / 1.25) frames.
/// - `pitch` (semitones): moves the pitch, keeping the length; 12 is an octave up.
/// - `speed` (a ratio): plays faster or slower as a tape does, both length and pitch change;
///   1.25 makes a 440 Hz tone 550 Hz and the output round(frames / 1.25) frames.
///
/// They combine: the output has round(frames / (tempo × speed)) frames and its pitch moves by
/// `pitch` semitones times `speed`. Time is stretched by SoundTouch (`TimeStretcher`, WSOLA) and
/// everything else is resampling by the job's resampler engine (soxr unless chosen), whose
/// filters are better than SoundTouch's own transposer: the node stretches by tempo ÷ pitch
/// ratio, then resamples from a virtual rate of rate × pitch ratio × speed (to the nearest Hz,
/// the stretch making up the difference) back to the stream's rate. Settings that need neither
/// leave the samples untouched, and speed alone is resampling alone.
///
/// Output frame k is input time k × tempo × speed: `TimeStretcher` aligns SoundTouch's output
/// with its input, and the engine, primed with silence at initialize, hides its filter's delay. Input is pulled in blocks of `blockFrames`
/// whatever the slice size, so the output does not depend on it. After the input ends the
/// stages are fed silence until the output reaches its exact length, so the tail is not lost.
/// `tempo` may change while rendering (it applies from the first frame SoundTouch has not yet
/// stretched, and the length follows it); `pitch` and `speed` are fixed at initialize, since
/// they choose the resampler's rates. Everything is made, and SoundTouch's buffers grown, at
/// initialize: rendering allocates nothing, and memory does not grow with the stream.
public final class TimePitchNode: AudioNode {
    /// The node's parameters.
    public enum Parameter {
        /// How much faster it plays, keeping the pitch.
        public static let tempo: ParameterID = 0
        /// Semitones the pitch moves, keeping the length.
        public static let pitch: ParameterID = 1
        /// How much faster it plays, as a tape: length and pitch both change.
        public static let speed: ParameterID = 2
    }

    /// The parameters' names, ranges and defaults.
    public static let parameters: [ParameterDescription] = [
        ParameterDescription(id: Parameter.tempo, name: "tempo", range: 0.25...4, defaultValue: 1, unit: .linear),
        ParameterDescription(id: Parameter.pitch, name: "pitch", range: -24...24, defaultValue: 0, unit: .semitones,
                             changesWhileRendering: false),
        ParameterDescription(id: Parameter.speed, name: "speed", range: 0.25...4, defaultValue: 1, unit: .linear,
                             changesWhileRendering: false),
    ]

    /// Input frames pulled and stretched at a time, whatever the slice size.
    public static let blockFrames = 2048
    /// Frames passed from one stage to the next at a time.
    static let chunkFrames = 1024

    /// The engine that resamples for pitch and speed.
    public let resampler: ResamplerEngineKind
    /// The quality asked of the engine.
    public let quality: ResamplerQuality

    private var stretcher: TimeStretcher?
    private var engine: (any ResamplerEngine)?
    private var pulled: AudioBufferStorage?
    private var pullView: UnsafeMutableBufferPointer<UnsafeMutablePointer<Float>>?
    /// Input frames, interleaved, not yet handed on.
    private var block: FrameQueue?
    /// Stretched frames the engine has not taken yet.
    private var stretched: FrameQueue?
    /// Resampled frames not yet rendered.
    private var resampled: FrameQueue?
    /// Interleaved frames on their way into the output.
    private var scratch: FrameQueue?
    /// Pitch and speed as initialize fixed them.
    private var pitch: Float = 0
    private var speed: Float = 1
    /// The engine's input rate over the stream's: pitch ratio × speed, to the nearest Hz.
    private var virtualRatio = 1.0
    private var stream = StreamState()

    /// Where the node is in its stream.
    private struct StreamState {
        /// Input frames pulled.
        var inputFrames: Int64 = 0
        var inputEnded = false
        /// Input frames handed to SoundTouch, or past it while it is not needed.
        var handed: Int64 = 0
        /// Whether SoundTouch runs: from the start when tempo or pitch need it, else from the
        /// first tempo change that does.
        var stretching = false
        /// Whether SoundTouch's stream has started: it starts anew when a tempo change starts it.
        var stretcherStarted = true
        /// The input frame from which the current tempo applies, and the output frames due before it.
        var segmentInput: Int64 = 0
        var segmentOutput = 0.0
        /// Tempo × speed since `segmentInput`.
        var factor = 1.0
        /// Frames rendered.
        var produced: Int64 = 0
        /// The output's length, once the input has ended.
        var total: Int64?
        /// Resampled frames still to drop: what the engine made of the silence that primed it.
        var resampledToDrop = 0
    }

    /// A node at `tempo`, `pitch` semitones and `speed`, resampling with `resampler` at `quality`.
    public init(name: String = "timepitch", tempo: Float = 1, pitch: Float = 0, speed: Float = 1,
                resampler: ResamplerEngineKind = ResamplerRegistry.defaultEngine, quality: ResamplerQuality = .best) throws(GraphError) {
        self.resampler = resampler
        self.quality = quality
        super.init(name: name, inputBusCount: 1, outputBusCount: 1)
        try setParameter(Parameter.tempo, tempo)
        try setParameter(Parameter.pitch, pitch)
        try setParameter(Parameter.speed, speed)
    }

    public override var parameterDescriptions: [ParameterDescription] { Self.parameters }

    public override var planDetail: String? {
        let (tempo, pitch, speed) = (parameter(Parameter.tempo), parameter(Parameter.pitch), parameter(Parameter.speed))
        guard tempo != 1 || pitch != 0 || speed != 1 else { return "pass-through" }
        var parts = Self.parameters.filter { parameter($0.id) != $0.defaultValue }.map { description in
            let value = parameter(description.id)
            return "\(description.name) \(description.unit == .semitones && value > 0 ? "+" : "")\(description.describe(value))"
        }
        if tempo != 1 || pitch != 0 { parts.append("stretched by SoundTouch \(TimeStretcher.libraryVersion)") }
        if pitch != 0 || speed != 1 {
            parts.append("resampled" + (engine.map { " from \($0.configuration.inputRate) Hz" } ?? "") + " by \(resampler.name) \(quality.name)")
        }
        return parts.joined(separator: ", ")
    }

    /// round(frames / (tempo × speed)) at the current values: exact while they stay constant.
    public override func outputFrames(forInputFrames frames: Int64) -> Int64? {
        Int64((Double(frames) / (Double(parameter(Parameter.tempo)) * Double(parameter(Parameter.speed)))).rounded())
    }

    public override func validateFormats() throws(GraphError) {
        try super.validateFormats()
        let format = try requiredStreamFormat(scope: .input)
        guard format.channelCount <= TimeStretcher.maximumChannelCount else {
            throw .unsupportedFormat(node: name, scope: .input, bus: 0, format: format,
                                     reason: TimeStretchError.unsupportedChannelCount(format.channelCount).description)
        }
        guard let configuration = try resamplerConfiguration(for: format) else { return }
        do throws(ResamplerError) {
            try resampler.validate(configuration)
        } catch {
            throw .unsupportedFormat(node: name, scope: .input, bus: 0, format: format, reason: error.description)
        }
    }

    /// What the engine converts for the current pitch and speed: from rate × pitch ratio × speed
    /// (to the nearest Hz) back to the stream's rate; nil when that is the stream's rate.
    private func resamplerConfiguration(for format: StreamFormat) throws(GraphError) -> ResamplerConfiguration? {
        let ratio = exp2(Double(parameter(Parameter.pitch)) / 12) * Double(parameter(Parameter.speed))
        guard ratio != 1 else { return nil }
        guard format.sampleRate == format.sampleRate.rounded() else {
            throw .unsupportedFormat(node: name, scope: .input, bus: 0, format: format,
                                     reason: "pitch and speed resample, which needs a rate of a whole number of Hz, not \(format.sampleRate) Hz")
        }
        let rate = Int(format.sampleRate)
        let virtualRate = max(1, Int((Double(rate) * ratio).rounded()))
        guard virtualRate != rate else { return nil }
        return ResamplerConfiguration(inputRate: virtualRate, outputRate: rate, channelCount: format.channelCount, quality: quality)
    }

    /// SoundTouch's tempo for `tempo`: tempo × speed over the engine's ratio.
    private func stretchTempo(_ tempo: Float) -> Double {
        Double(tempo) * Double(speed) / virtualRatio
    }

    public override func allocateRenderResources() throws {
        let format = try requiredStreamFormat(scope: .input)
        let channels = format.channelCount
        pitch = parameter(Parameter.pitch)
        speed = parameter(Parameter.speed)
        let configuration = try resamplerConfiguration(for: format)
        engine = try configuration.map { configuration throws(ResamplerError) in try resampler.makeEngine(configuration) }
        virtualRatio = configuration.map { Double($0.inputRate) / Double($0.outputRate) } ?? 1
        let stretcher = try TimeStretcher(channelCount: channels, sampleRate: max(1, Int(format.sampleRate.rounded())))
        let tempos = Self.parameters[Parameter.tempo].range
        try stretcher.reserve(blockFrames: Self.blockFrames, readFrames: Self.chunkFrames,
                              tempos: stretchTempo(tempos.lowerBound)...stretchTempo(tempos.upperBound))
        self.stretcher = stretcher
        pulled = AudioBufferStorage(channelCount: channels, capacity: Self.blockFrames)
        pullView = .allocate(capacity: channels)
        block = FrameQueue(channelCount: channels, capacity: Self.blockFrames)
        scratch = FrameQueue(channelCount: channels, capacity: Self.chunkFrames)
        if configuration != nil {
            stretched = FrameQueue(channelCount: channels, capacity: Self.chunkFrames)
            resampled = FrameQueue(channelCount: channels, capacity: 2 * Self.chunkFrames + Int((Double(Self.chunkFrames) / virtualRatio).rounded(.up)))
        }
        try reset()
    }

    public override func deallocateRenderResources() {
        stretcher = nil
        engine = nil
        pulled = nil
        pullView?.deallocate()
        pullView = nil
        block = nil
        stretched = nil
        resampled = nil
        scratch = nil
    }

    /// Starts the stream again from its first input frame, at the current tempo.
    public override func reset() throws {
        let tempo = parameter(Parameter.tempo)
        stretcher?.setTempo(stretchTempo(tempo))
        try stretcher?.clear()
        engine?.reset()
        block?.removeAll()
        stretched?.removeAll()
        resampled?.removeAll()
        stream = StreamState(stretching: tempo != 1 || pitch != 0, factor: Double(tempo) * Double(speed))
        if let engine { try prime(engine) }
    }

    /// Runs silence into the engine from its start, as soxr allocates while it first runs: a
    /// whole number of the rates' units of at least 16 chunks, so the output it makes is a whole
    /// number of frames, dropped before anything is rendered; the input then starts exactly
    /// where a new engine's would.
    private func prime(_ engine: any ResamplerEngine) throws {
        guard let stretched, let resampled else { return }
        let configuration = engine.configuration
        var (a, b) = (configuration.inputRate, configuration.outputRate)
        while b != 0 { (a, b) = (b, a % b) }
        let unit = configuration.inputRate / a
        let units = (16 * Self.chunkFrames + unit - 1) / unit
        stream.resampledToDrop = units * (configuration.outputRate / a)
        var silence = units * unit
        while silence > 0 || stretched.count > 0 {
            if stretched.count == 0 {
                let room = stretched.room()
                let count = min(room.frames, silence)
                room.destination.update(repeating: 0, count: count * stretched.channelCount)
                stretched.append(count)
                silence -= count
            }
            try step(engine, from: stretched, into: resampled)
        }
    }

    /// A tempo change applies from the first input frame SoundTouch has not stretched (or, before
    /// SoundTouch ran, from the next frame), and starts SoundTouch if it was not needed so far.
    public override func parameterDidChange(_ id: ParameterID) {
        guard id == Parameter.tempo, let stretcher else { return }
        let tempo = parameter(Parameter.tempo)
        stretcher.setTempo(stretchTempo(tempo))
        if stream.total == nil {
            let boundary = stream.stretching ? max(stream.segmentInput, stream.handed - Int64(stretcher.unprocessedFrames)) : stream.handed
            stream.segmentOutput = expectedOutput(atInput: boundary)
            stream.segmentInput = boundary
            stream.factor = Double(tempo) * Double(speed)
        }
        if !stream.stretching, tempo != 1 {
            stream.stretching = true
            stream.stretcherStarted = false
        }
    }

    /// The output frames due for the first `frames` input frames, by the tempos they had.
    private func expectedOutput(atInput frames: Int64) -> Double {
        stream.segmentOutput + Double(frames - stream.segmentInput) / stream.factor
    }

    public override func render(_ flags: inout RenderActionFlags, _ request: RenderRequest, _ output: AudioBufferList) throws -> Int {
        guard let scratch else { return 0 }
        if !stream.stretching, engine == nil { return try passThrough(&flags, request, output) }
        let channels = output.channelCount
        var filled = 0
        while filled < request.frameCount, stream.total.map({ stream.produced < $0 }) ?? true {
            let destination = scratch.room().destination
            let wanted = min(request.frameCount - filled, Self.chunkFrames, stream.total.map { Int(min($0 - stream.produced, Int64(Int.max))) } ?? .max)
            if let engine { try readResampled(into: destination, frames: wanted, engine: engine) } else { try readStretched(into: destination, frames: wanted) }
            let count = stream.total.map { Int(max(0, min(Int64(wanted), $0 - stream.produced))) } ?? wanted
            for channel in 0..<channels {
                let samples = output[channel] + filled
                for frame in 0..<count { samples[frame] = destination[frame * channels + channel] }
            }
            filled += count
            stream.produced += Int64(count)
        }
        output.endStream(filled: filled, requested: request.frameCount, flags: &flags)
        return filled
    }

    /// Settings that change nothing: the input as it is, counted so a tempo change can start SoundTouch.
    private func passThrough(_ flags: inout RenderActionFlags, _ request: RenderRequest, _ output: AudioBufferList) throws -> Int {
        guard !stream.inputEnded else {
            output.endStream(filled: 0, requested: request.frameCount, flags: &flags)
            return 0
        }
        let frames = try pullInput(bus: 0, &flags, request, into: output)
        stream.inputFrames += Int64(frames)
        stream.handed += Int64(frames)
        stream.produced += Int64(frames)
        if frames < request.frameCount || flags.contains(.endOfStream) { endInput() }
        return frames
    }

    /// The input has ended: the output's length is now known.
    private func endInput() {
        stream.inputEnded = true
        stream.total = Int64(expectedOutput(atInput: stream.inputFrames).rounded())
    }

    /// Fills the empty block queue with the next `blockFrames` frames of input, interleaved,
    /// pulled at most a slice at a time; once the input has ended, with silence.
    private func pullBlock() throws {
        guard let block, let pulled, let pullView else { return }
        let channels = block.channelCount
        let destination = block.room().destination
        var filled = 0
        while filled < Self.blockFrames, !stream.inputEnded {
            let count = min(Self.blockFrames - filled, maximumFramesPerSlice)
            for channel in 0..<channels { pullView[channel] = pulled.list[channel] + filled }
            var flags = RenderActionFlags()
            let request = RenderRequest(timeStamp: AudioTimeStamp(sampleTime: stream.inputFrames), bus: 0, frameCount: count)
            let got = try pullInput(bus: 0, &flags, request, into: AudioBufferList(channels: pullView, capacity: count))
            filled += got
            stream.inputFrames += Int64(got)
            if got < count || flags.contains(.endOfStream) { endInput() }
        }
        guard filled > 0 else {
            destination.update(repeating: 0, count: Self.blockFrames * channels)
            block.append(Self.blockFrames)
            return
        }
        for channel in 0..<channels {
            let samples = pulled.list[channel]
            for frame in 0..<filled { destination[frame * channels + channel] = samples[frame] }
        }
        block.append(filled)
    }

    /// Writes the next `frames` input frames, interleaved, into `destination`: what the stage
    /// after SoundTouch reads while SoundTouch is not needed.
    private func readInput(into destination: UnsafeMutablePointer<Float>, frames: Int) throws {
        guard let block else { return }
        let channels = block.channelCount
        var copied = 0
        while copied < frames {
            if block.count == 0 { try pullBlock() }
            let count = min(frames - copied, block.count)
            (destination + copied * channels).update(from: block.front, count: count * channels)
            block.removeFirst(count)
            copied += count
            stream.handed += Int64(count)
        }
    }

    /// Writes the next `frames` stretched frames, interleaved, into `destination`, handing
    /// SoundTouch whole blocks of input as it needs them.
    private func readStretched(into destination: UnsafeMutablePointer<Float>, frames: Int) throws {
        guard stream.stretching, let stretcher, let block else { return try readInput(into: destination, frames: frames) }
        if !stream.stretcherStarted {
            try stretcher.clear()
            stream.stretcherStarted = true
        }
        while stretcher.availableFrames < frames {
            if block.count == 0 { try pullBlock() }
            try stretcher.put(block.front, frames: block.count)
            stream.handed += Int64(block.count)
            block.removeAll()
        }
        _ = stretcher.receive(into: destination, frames: frames)
    }

    /// Writes the next `frames` resampled frames, interleaved, into `destination`, feeding the
    /// engine stretched frames a chunk at a time.
    private func readResampled(into destination: UnsafeMutablePointer<Float>, frames: Int, engine: any ResamplerEngine) throws {
        guard let stretched, let resampled else { return }
        while resampled.count < frames {
            if stretched.count == 0 {
                let room = stretched.room()
                try readStretched(into: room.destination, frames: room.frames)
                stretched.append(room.frames)
            }
            try step(engine, from: stretched, into: resampled)
        }
        destination.update(from: resampled.front, count: frames * resampled.channelCount)
        resampled.removeFirst(frames)
    }

    /// One step of the engine from `stretched` into `resampled`, dropping what priming made.
    private func step(_ engine: any ResamplerEngine, from stretched: FrameQueue, into resampled: FrameQueue) throws {
        let room = resampled.room()
        let step = try engine.process(.interleaved(stretched.front), inputFrames: stretched.count, into: .interleaved(room.destination),
                                      outputCapacity: room.frames, endOfInput: false)
        stretched.removeFirst(step.framesConsumed)
        resampled.append(step.framesProduced)
        let dropped = min(stream.resampledToDrop, resampled.count)
        resampled.removeFirst(dropped)
        stream.resampledToDrop -= dropped
        if step.framesConsumed == 0, step.framesProduced == 0 {
            throw ResamplerError.library(engine: resampler.name, message: "took no input and made no output")
        }
    }
}

extension TimePitchNode {
    /// The node as a catalogued kind: its three parameters, and the resampler it uses for pitch and speed.
    public static let kind = NodeKind(
        name: "timepitch", summary: "changes tempo (keeping pitch), pitch (keeping length) and speed (both, as a tape)",
        settings: [
            SettingDescription("quality", .choice(ResamplerQuality.allCases.map(\.name)),
                               "the quality asked of the resampler for pitch and speed (default: the job's, else best)"),
            SettingDescription("engine", .choice(ResamplerRegistry.engines.map(\.name)),
                               "the resampler engine for pitch and speed (default: the job's, else \(ResamplerRegistry.defaultEngine.name))"),
        ],
        parameters: parameters,
        make: { name, settings, context in
            let quality = settings.text("quality").flatMap(ResamplerQuality.init(name:)) ?? context.resamplerQuality
            let engine = try settings.text("engine").map { try ResamplerRegistry.engine(named: $0) } ?? context.resampler
            return try TimePitchNode(name: name, resampler: engine, quality: quality)
        })
}
