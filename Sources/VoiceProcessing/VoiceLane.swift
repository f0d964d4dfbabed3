import AudioGraph
import Resampling

/// One group of the voice node's channels through a WebRTC processor of its own: resampled into
/// WebRTC's rate and back when the stream's rate is not one of WebRTC's, with the far end when
/// echo is cancelled, WebRTC's output brought to its greatest latency.
///
/// WebRTC keeps one state per channel in every stage (noise suppressor, high-pass, gain control,
/// echo canceller), so a channel comes out the same through a lane of its own as through one
/// processor for all: the node runs two lanes on two threads. Everything is made at init; a
/// block allocates nothing.
// Safe to share: the worker thread runs a lane only inside `PairedWorker.runAlongside`, while the render thread leaves it alone.
final class VoiceLane: @unchecked Sendable {
    /// The stream's channels this lane takes, from `firstChannel`.
    let firstChannel: Int
    let channelCount: Int
    let rate: Int
    let frameLength: Int
    /// WebRTC, remade at each stream start.
    private(set) var processor: WebRTCAudioProcessing
    /// Into WebRTC's rate and back out, when the stream's rate is not one of its own.
    let into: ResampledStage?
    let outOf: ResampledStage?
    /// The far end, read and mixed to mono (`farRead`, `farMono`), then at WebRTC's rate:
    /// resampled (`far`) or straight (`farDirect`).
    private let reference: (any EchoReference)?
    private let far: ResampledStage?
    private let farDirect: PlanarQueue?
    private let farRead: AudioBufferStorage?
    private let farMono: PlanarQueue
    /// WebRTC's output brought to its greatest latency.
    private let compensation: LatencyCompensation
    /// One processed 10 ms frame, and the pointers WebRTC reads and writes through.
    private let frame: PlanarQueue
    private let inputs: UnsafeMutablePointer<UnsafePointer<Float>?>
    private let outputs: UnsafeMutablePointer<UnsafeMutablePointer<Float>?>
    /// The current block's channels for this lane, set by the node before each run.
    let blockInput: UnsafeMutablePointer<UnsafeMutablePointer<Float>>
    let blockOutput: UnsafeMutablePointer<UnsafeMutablePointer<Float>>
    var blockFrames = 0
    /// Settings changed since WebRTC's last frame, applied before its next.
    var pending: VoiceSettings?
    /// What went wrong in the last run, thrown by the node on the render thread.
    private(set) var failure: (any Error)?
    /// Frames of silence ahead of the resampled output: the most it ever runs short.
    private(set) var lead = 0
    private var toDrop = 0
    private var leadLeft = 0
    private var referenceEnded = false

    /// A lane for `channelCount` channels from `firstChannel` of a stream at `rate`, processed
    /// at `processingRate` with `settings`, cancelling the echo of `reference` when given.
    init(firstChannel: Int, channelCount: Int, rate: Int, processingRate: Int, settings: VoiceSettings, reference: (any EchoReference)?,
         resampler: ResamplerEngineKind, quality: ResamplerQuality) throws {
        self.firstChannel = firstChannel
        self.channelCount = channelCount
        self.rate = rate
        self.reference = reference
        processor = try WebRTCAudioProcessing(sampleRate: processingRate, channelCount: channelCount, settings: settings,
                                              cancelsEcho: reference != nil)
        let frameLength = processor.frameLength
        self.frameLength = frameLength
        let block = VoiceNode.blockLength, chunk = VoiceNode.farChunk
        if rate != processingRate {
            let inward = ResamplerConfiguration(inputRate: rate, outputRate: processingRate, channelCount: channelCount, quality: quality)
            let outward = ResamplerConfiguration(inputRate: processingRate, outputRate: rate, channelCount: channelCount, quality: quality)
            into = try ResampledStage(kind: resampler, configuration: inward,
                                      capacity: 2 * inward.outputFrames(forInputFrames: block) + 4 * frameLength + 8192)
            outOf = try ResampledStage(kind: resampler, configuration: outward,
                                       capacity: 4 * block + outward.outputFrames(forInputFrames: 4 * frameLength) + 8192)
        } else {
            into = nil
            outOf = nil
        }
        if let reference {
            let farRate = Int(reference.format.sampleRate)
            if farRate != processingRate {
                let configuration = ResamplerConfiguration(inputRate: farRate, outputRate: processingRate, channelCount: 1, quality: quality)
                far = try ResampledStage(kind: resampler, configuration: configuration,
                                         capacity: 2 * configuration.outputFrames(forInputFrames: chunk) + 2 * frameLength + 8192)
                farDirect = nil
            } else {
                far = nil
                farDirect = PlanarQueue(channelCount: 1, capacity: chunk + 2 * frameLength)
            }
            farRead = AudioBufferStorage(channelCount: reference.format.channelCount, capacity: chunk)
        } else {
            far = nil
            farDirect = nil
            farRead = nil
        }
        farMono = PlanarQueue(channelCount: 1, capacity: chunk)
        compensation = LatencyCompensation(target: processor.maximumLatency, channelCount: channelCount, frameLength: frameLength)
        frame = PlanarQueue(channelCount: channelCount, capacity: frameLength)
        inputs = .allocate(capacity: channelCount)
        inputs.initialize(repeating: nil, count: channelCount)
        outputs = .allocate(capacity: channelCount)
        outputs.initialize(repeating: nil, count: channelCount)
        blockInput = .allocate(capacity: channelCount)
        blockInput.initialize(repeating: frame.front(0), count: channelCount)
        blockOutput = .allocate(capacity: channelCount)
        blockOutput.initialize(repeating: frame.front(0), count: channelCount)
        lead = try measureLead()
        try start(settings: settings, rewinding: false)
    }

    deinit {
        inputs.deallocate()
        outputs.deallocate()
        blockInput.deallocate()
        blockOutput.deallocate()
    }

    /// The frames the lane's output runs behind its input: WebRTC's greatest latency where it
    /// runs on the stream's blocks, the lead of silence where the stream is resampled.
    var latency: Int { into == nil ? processor.maximumLatency : lead }

    /// A fresh WebRTC instance with `settings` and fresh stages, the far end from its start.
    func start(settings: VoiceSettings, rewinding: Bool) throws {
        processor = try WebRTCAudioProcessing(sampleRate: processor.sampleRate, channelCount: channelCount, settings: settings,
                                              cancelsEcho: processor.cancelsEcho)
        compensation.reset(latency: processor.latency)
        try into?.reset()
        try outOf?.reset()
        try far?.reset()
        farDirect?.removeAll()
        if rewinding { try reference?.rewind() }
        toDrop = into == nil ? 0 : processor.maximumLatency
        leadLeft = lead
        referenceEnded = false
        pending = nil
        failure = nil
    }

    /// Frames of lead beyond the most the simulation saw: soxr's output comes in steps whose
    /// pattern drifts slowly (over ten minutes at 44.1 kHz it ran 330 frames further short than
    /// in its first ten seconds). Should it ever run further, the render stops with an error.
    static let leadMargin = 1024

    /// The frames of silence the resampled output needs ahead of it: the most it runs short of the
    /// blocks asked for while ten seconds of silence run through the stages (their steps do not
    /// depend on the samples), plus `leadMargin`; `start` starts the stages again afterwards.
    private func measureLead() throws -> Int {
        guard let into, let outOf else { return 0 }
        let block = VoiceNode.blockLength
        let silence = PlanarQueue(channelCount: into.output.channelCount, capacity: block)
        var toDrop = processor.maximumLatency, asked = 0, given = 0, lead = 0
        for _ in 0..<(10 * rate / block + 2) {
            try into.push({ silence.front($0) }, frames: block)
            while into.output.count >= frameLength {
                let skip = min(toDrop, frameLength)
                toDrop -= skip
                if skip < frameLength { try outOf.push({ into.output.front($0) + skip }, frames: frameLength - skip) }
                into.output.removeFirst(frameLength)
            }
            asked += block
            let take = min(outOf.output.count, asked - given)
            outOf.output.removeFirst(take)
            given += take
            lead = max(lead, asked - given)
        }
        return lead + Self.leadMargin
    }

    /// Processes the block set in `blockInput`, `blockOutput` and `blockFrames`, keeping any error in `failure`.
    func run() {
        do {
            try processBlock()
        } catch {
            failure = error
        }
    }

    private func processBlock() throws {
        let frames = blockFrames
        guard let into, let outOf else {
            for offset in stride(from: 0, to: frames, by: frameLength) {
                for channel in 0..<channelCount {
                    inputs[channel] = UnsafePointer(blockInput[channel] + offset)
                    outputs[channel] = blockOutput[channel] + offset
                }
                try process()
            }
            return
        }
        try into.push({ self.blockInput[$0] }, frames: frames)
        while into.output.count >= frameLength {
            for channel in 0..<channelCount {
                inputs[channel] = UnsafePointer(into.output.front(channel))
                outputs[channel] = frame.front(channel)
            }
            try process()
            into.output.removeFirst(frameLength)
            let skip = min(toDrop, frameLength)
            toDrop -= skip
            if skip < frameLength { try outOf.push({ self.frame.front($0) + skip }, frames: frameLength - skip) }
        }
        let silent = min(leadLeft, frames)
        for channel in 0..<channelCount { blockOutput[channel].update(repeating: 0, count: silent) }
        leadLeft -= silent
        let rest = frames - silent
        guard outOf.output.count >= rest else {
            throw VoiceProcessingError.resampledStreamRanShort(frames: rest - outOf.output.count)
        }
        for channel in 0..<channelCount { (blockOutput[channel] + silent).update(from: outOf.output.front(channel), count: rest) }
        outOf.output.removeFirst(rest)
    }

    /// One 10 ms frame through WebRTC, through `inputs` and `outputs`, after the far end's, with
    /// any settings changed since the last frame, delayed to WebRTC's greatest latency.
    private func process() throws {
        if let settings = pending {
            pending = nil
            try processor.update(settings)
            compensation.latencyChanged(to: processor.latency)
        }
        if let farQueue = far?.output ?? farDirect {
            while farQueue.count < frameLength { try readFarEnd() }
            try processor.analyzeFarEnd(farQueue.front(0))
            farQueue.removeFirst(frameLength)
        }
        try processor.process(inputs, into: outputs)
        compensation.apply(outputs, frames: frameLength)
    }

    /// Reads one chunk of the far end (silence after its end), mixes it to mono and queues it at WebRTC's rate.
    private func readFarEnd() throws {
        guard let reference, let farRead else { return }
        let chunk = VoiceNode.farChunk
        let got = referenceEnded ? 0 : try reference.read(into: farRead.list, frames: chunk)
        if got < chunk {
            referenceEnded = true
            farRead.list.zero(from: got, frames: chunk - got)
        }
        farMono.removeAll()
        let channels = farRead.list.channelCount
        let target = farMono.front(0)
        target.update(from: farRead.list[0], count: chunk)
        if channels > 1 {
            for channel in 1..<channels {
                let source = farRead.list[channel]
                for frame in 0..<chunk { target[frame] += source[frame] }
            }
            let scale = 1 / Float(channels)
            for frame in 0..<chunk { target[frame] *= scale }
        }
        if let far {
            try far.push({ _ in target }, frames: chunk)
        } else if let farDirect {
            farDirect.append({ _ in UnsafePointer(target) }, frames: chunk)
        }
    }
}
