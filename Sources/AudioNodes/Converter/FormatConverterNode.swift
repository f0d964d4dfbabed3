import AudioDSP
import AudioGraph
import Resampling

/// Converts a stream to another sample rate and channel layout: the format converter unit.
///
/// The output format is a property set at init; the input format comes from what feeds the
/// node. Rates change through libsamplerate, one converter per channel, streaming: the node
/// pulls input in blocks of the graph's slice size as its output needs them. Channels are
/// mapped with a `ChannelMatrix` (the standard one for the two counts unless one is given),
/// before resampling when that leaves fewer channels to resample, after it otherwise.
///
/// Output length is exact: round(input frames × output rate / input rate), for any slice
/// size. libsamplerate compensates its filter's delay, so there is no leading silence, and the
/// end of input flushes the tail. With equal formats the node passes audio through untouched.
public final class FormatConverterNode: AudioNode {
    /// The libsamplerate converter used when the rates differ.
    public let quality: ConverterQuality
    /// The channel matrix given at init, if any.
    public let requestedMatrix: ChannelMatrix?

    /// The matrix in use, once initialized (nil when channels pass straight through).
    public private(set) var matrix: ChannelMatrix?
    private var ratio = 1.0
    private var mixBeforeResampling = true
    private var converters: [SampleRateConverter] = []
    private var pulled: AudioBufferStorage?
    private var pending: AudioBufferStorage?
    private var resampled: AudioBufferStorage?
    private var pendingStart = 0
    private var pendingFrames = 0
    private var inputEnded = false
    private var inputFrames: Int64 = 0
    private var outputFrames: Int64 = 0

    /// A converter producing `output` (its rate and channel count; the graph's canonical form).
    public init(name: String = "converter", output: StreamFormat, quality: ConverterQuality = .best,
                matrix: ChannelMatrix? = nil) throws(GraphError) {
        self.quality = quality
        requestedMatrix = matrix
        super.init(name: name, inputBusCount: 1, outputBusCount: 1)
        try setStreamFormat(output.canonical, scope: .output)
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
        let ratio = output.sampleRate / input.sampleRate
        guard ratio >= 1.0 / 256, ratio <= 256 else {
            throw .unsupportedFormat(node: name, scope: .output, bus: 0, format: output,
                                     reason: "libsamplerate converts between rates at most 256 times apart; the input is \(input.sampleRate) Hz")
        }
    }

    public override func allocateRenderResources() throws {
        guard let input = streamFormat(scope: .input), let output = streamFormat(scope: .output) else { return }
        let chosen = requestedMatrix ?? .standard(from: input.channelCount, to: output.channelCount)
        matrix = chosen.isIdentity ? nil : chosen
        ratio = output.sampleRate / input.sampleRate
        mixBeforeResampling = output.channelCount <= input.channelCount
        let resampledChannels = mixBeforeResampling ? output.channelCount : input.channelCount
        let block = maximumFramesPerSlice
        pulled = AudioBufferStorage(channelCount: input.channelCount, capacity: block)
        converters = []
        pending = nil
        resampled = nil
        if resamples {
            converters = try (0..<resampledChannels).map { _ in try SampleRateConverter(ratio: ratio, quality: quality) }
            pending = AudioBufferStorage(channelCount: resampledChannels, capacity: 2 * block)
            if !mixBeforeResampling { resampled = AudioBufferStorage(channelCount: resampledChannels, capacity: block) }
        }
        pendingStart = 0
        pendingFrames = 0
        inputEnded = false
        inputFrames = 0
        outputFrames = 0
    }

    public override func deallocateRenderResources() {
        converters = []
        pulled = nil
        pending = nil
        resampled = nil
    }

    public override func render(_ flags: inout RenderActionFlags, _ request: RenderRequest, _ output: AudioBufferList) throws -> Int {
        guard let pulled else { return 0 }
        guard resamples, let pending else {
            guard let matrix else { return try pullInput(bus: 0, &flags, request, into: output) }
            let frames = try pullInput(bus: 0, &flags, request, into: pulled.list)
            matrix.apply(pulled.list, into: output, frames: request.frameCount)
            return frames
        }
        let target = mixBeforeResampling ? output : resampled!.list
        var filled = 0
        while filled < request.frameCount {
            var room = request.frameCount - filled
            if inputEnded {
                let total = Int64((Double(inputFrames) * ratio).rounded())
                room = min(room, Int(total - outputFrames))
                if room == 0 { break }
            } else if pendingFrames == 0 {
                try refill(pending: pending, pulled: pulled, request: request)
                continue
            }
            var progress = SampleRateConverter.Progress(framesUsed: 0, framesGenerated: 0)
            for channel in 0..<converters.count {
                progress = try converters[channel].process(input: pending.list[channel] + pendingStart, inputFrames: pendingFrames,
                                                 output: target[channel] + filled, outputCapacity: room, endOfInput: inputEnded)
            }
            pendingStart += progress.framesUsed
            pendingFrames -= progress.framesUsed
            filled += progress.framesGenerated
            outputFrames += Int64(progress.framesGenerated)
            if progress.framesGenerated == 0, progress.framesUsed == 0 {
                if inputEnded {
                    // libsamplerate has flushed everything but fell short of the exact length: pad.
                    target.zero(from: filled, frames: room)
                    filled += room
                    outputFrames += Int64(room)
                } else {
                    try refill(pending: pending, pulled: pulled, request: request)
                }
            }
        }
        if !mixBeforeResampling, let matrix = matrix {
            matrix.apply(target, into: output, frames: filled)
        } else if !mixBeforeResampling {
            output.copy(from: target, frames: filled)
        }
        output.endStream(filled: filled, requested: request.frameCount, flags: &flags)
        return filled
    }

    /// Moves the unconverted input to the front, then pulls one more block from upstream
    /// (mixed first, when mixing reduces the channels).
    private func refill(pending: AudioBufferStorage, pulled: AudioBufferStorage, request: RenderRequest) throws {
        if pendingStart > 0 {
            for channel in 0..<pending.list.channelCount {
                pending.list[channel].update(from: pending.list[channel] + pendingStart, count: pendingFrames)
            }
            pendingStart = 0
        }
        var flags: RenderActionFlags = []
        let block = pulled.list.capacity
        let upstream = RenderRequest(timeStamp: AudioTimeStamp(sampleTime: inputFrames), bus: 0, frameCount: block)
        let frames = try pullInput(bus: 0, &flags, upstream, into: pulled.list)
        if mixBeforeResampling, let matrix {
            withOffset(pending.list, pendingFrames) { matrix.apply(pulled.list, into: $0, frames: frames) }
        } else {
            for channel in 0..<pulled.list.channelCount {
                (pending.list[channel] + pendingFrames).update(from: pulled.list[channel], count: frames)
            }
        }
        pendingFrames += frames
        inputFrames += Int64(frames)
        if frames < block || flags.contains(.endOfStream) { inputEnded = true }
    }

    /// Calls `body` with a view of `list` starting `offset` frames in.
    private func withOffset(_ list: AudioBufferList, _ offset: Int, _ body: (AudioBufferList) -> Void) {
        withUnsafeTemporaryAllocation(of: UnsafeMutablePointer<Float>.self, capacity: list.channelCount) { pointers in
            for channel in 0..<list.channelCount { pointers[channel] = list[channel] + offset }
            body(AudioBufferList(channels: pointers, capacity: list.capacity - offset))
        }
    }
}
