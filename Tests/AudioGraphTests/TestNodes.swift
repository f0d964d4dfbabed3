import MallocCounter
import AudioGraph

/// A node that multiplies its input by a constant: the simplest processing node.
final class GainNode: AudioNode {
    let gain: Float
    init(name: String, gain: Float) {
        self.gain = gain
        super.init(name: name, inputBusCount: 1, outputBusCount: 1)
    }

    override func render(_ flags: inout RenderActionFlags, _ request: RenderRequest, _ output: AudioBufferList) throws -> Int {
        let frames = try pullInput(bus: 0, &flags, request, into: output)
        for channel in 0..<output.channelCount {
            for frame in 0..<request.frameCount { output[channel][frame] *= gain }
        }
        return frames
    }
}

/// A render callback source of `length` frames whose sample n of channel c is a fixed function
/// of n and c, recording every request it receives.
final class RampSource {
    let length: Int
    let channels: Int
    private(set) var position = 0
    var requests: [RenderRequest] = []
    var recordsRequests = true

    init(length: Int, channels: Int) {
        self.length = length
        self.channels = channels
    }

    /// Starts the source again at its first frame, as its owner must after `Graph.reset()`.
    func rewind() { position = 0 }

    static func value(frame: Int, channel: Int) -> Float {
        Float((frame * 7 + channel * 13) % 1000) / 1000 - 0.5
    }

    var callback: RenderCallback {
        { [self] flags, request, buffers in
            if recordsRequests { requests.append(request) }
            let frames = min(request.frameCount, length - position)
            for channel in 0..<buffers.channelCount {
                for frame in 0..<frames { buffers[channel][frame] = Self.value(frame: position + frame, channel: channel) }
            }
            position += frames
            buffers.endStream(filled: frames, requested: request.frameCount, flags: &flags)
            return frames
        }
    }
}

/// Builds source → gain → output, initialized, with the given slice maximum.
func makeChain(length: Int, channels: Int = 2, maximumFrames: Int = 4096) throws -> (Graph, GenericOutput, RampSource) {
    let graph = Graph()
    try graph.setMaximumFramesPerSlice(maximumFrames)
    let gain = GainNode(name: "gain", gain: 0.5)
    let output = GenericOutput()
    try graph.addNode(gain)
    try graph.addNode(output)
    let source = RampSource(length: length, channels: channels)
    try gain.setStreamFormat(.canonical(sampleRate: 48000, channelCount: channels), scope: .input)
    try graph.setRenderCallback(for: gain, source.callback)
    try graph.connect(gain, to: output)
    try graph.initialize()
    return (graph, output, source)
}

/// Pulls `output` to its end in slices of `sliceSize` after one slice of warm-up, counting the
/// slices and the allocations the render thread made meanwhile.
func steadyStateAllocations(of output: GenericOutput, sliceSize: Int) throws -> (slices: Int, allocations: Int) {
    _ = try output.renderSlice(frameCount: sliceSize)
    let before = malloc_counter_thread_allocations()
    var slices = 0
    while case .rendered = try output.renderSlice(frameCount: sliceSize) { slices += 1 }
    return (slices, Int(malloc_counter_thread_allocations() - before))
}
