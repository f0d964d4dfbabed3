import Testing
import AudioGraph
import GraphTestSupport

/// A kernel that answers late: output frame n is input frame n − `delay`, times `gain`, plus
/// `feedback` times the output `delay` frames before (an echo that rings when feedback > 0).
final class EchoKernelNode: BlockEffectNode {
    let delay: Int
    let gain: Float
    let feedback: Float
    /// The last `delay` + 1 input frames and the last `delay` output frames, per channel, as rings.
    private var inputs: AudioBufferStorage?
    private var outputs: AudioBufferStorage?
    private var position = 0

    init(delay: Int, gain: Float = 1, feedback: Float = 0, tailLimit: Int64?, fixedBlockLength: Int? = nil) {
        self.delay = delay
        self.gain = gain
        self.feedback = feedback
        super.init(name: "echo", tailLimit: tailLimit, fixedBlockLength: fixedBlockLength)
    }

    override func allocateBlocks(input: StreamFormat, output: StreamFormat) throws {
        inputs = AudioBufferStorage(channelCount: input.channelCount, capacity: delay + 1)
        outputs = AudioBufferStorage(channelCount: output.channelCount, capacity: delay)
        position = 0
    }

    override func resetBlocks() throws {
        inputs?.list.zero(frames: delay + 1)
        outputs?.list.zero(frames: delay)
        position = 0
    }

    override func processBlock(input: AudioBufferList, output: AudioBufferList, frames: Int) throws {
        guard let inputs = inputs?.list, let outputs = outputs?.list else { return }
        for frame in 0..<frames {
            let slot = (position + frame) % (delay + 1), oldest = (position + frame + 1) % (delay + 1)
            let echoSlot = (position + frame) % delay
            for channel in 0..<input.channelCount {
                inputs[channel][slot] = input[channel][frame]
                let sample = gain * inputs[channel][oldest] + feedback * outputs[channel][echoSlot]
                outputs[channel][echoSlot] = sample
                output[channel][frame] = sample
            }
        }
        position += frames
    }

    override var processingLatency: Int { delay }
}

@Suite("BlockEffectNode")
struct BlockEffectNodeTests {
    /// Builds ramp source → `node` → output at 48 kHz stereo.
    private func chain(_ node: BlockEffectNode, length: Int, maximumFrames: Int = 4096) throws -> GenericOutput {
        let graph = Graph()
        try graph.setMaximumFramesPerSlice(maximumFrames)
        let output = GenericOutput()
        try graph.addNode(node)
        try graph.addNode(output)
        try node.setStreamFormat(.canonical(sampleRate: 48000, channelCount: 2), scope: .input)
        let source = RampSource(length: length, channels: 2)
        source.recordsRequests = false
        try graph.setRenderCallback(for: node, source.callback)
        try graph.connect(node, to: output)
        try graph.initialize()
        return output
    }

    @Test("the latency is hidden: output frame n is input frame n, with the input's length", arguments: [1, 7, 512, 4096])
    func latencyIsCompensated(sliceSize: Int) throws {
        let output = try chain(EchoKernelNode(delay: 300, gain: 0.5, tailLimit: nil), length: 10_000)
        let rendered = try output.renderAll(sliceSize: sliceSize)
        #expect(rendered[0].count == 10_000)
        let wrong = (0..<10_000).filter { frame in
            (0..<2).contains { rendered[$0][frame] != 0.5 * RampSource.value(frame: frame, channel: $0) }
        }
        #expect(wrong.isEmpty, "first wrong frame \(wrong.first ?? -1)")
    }

    @Test("a fixed block length gives the same output as any other block")
    func fixedBlocksChangeNothing() throws {
        let free = try chain(EchoKernelNode(delay: 100, feedback: 0.5, tailLimit: 48000), length: 5000).renderAll(sliceSize: 333)
        let fixed = try chain(EchoKernelNode(delay: 100, feedback: 0.5, tailLimit: 48000, fixedBlockLength: 64), length: 5000)
            .renderAll(sliceSize: 1000)
        #expect(free == fixed)
    }

    @Test("a tail rings on until it stays under −120 dBFS, ending at its last loud frame", arguments: [1, 100, 4096])
    func tailEndsAtTheLastLoudFrame(sliceSize: Int) throws {
        let length = 2000, delay = 100
        let rendered = try chain(EchoKernelNode(delay: delay, feedback: 0.5, tailLimit: 1_000_000), length: length).renderAll(sliceSize: sliceSize)
        // The echo of the last input frames decays by half every `delay` frames: the last frame
        // at or above 1e-6 in either channel is found by running the recursion independently.
        let expected = (0..<2).map { channel in
            var echo = [Float](repeating: 0, count: length + 40 * delay)
            for frame in echo.indices {
                let dry = frame < length ? RampSource.value(frame: frame, channel: channel) : 0
                echo[frame] = dry + (frame >= delay ? 0.5 * echo[frame - delay] : 0)
            }
            return echo
        }
        let lastLoud = expected.map { $0.lastIndex { abs($0) >= BlockEffectNode.tailThreshold }! }.max()!
        #expect(lastLoud > length + BlockEffectNode.tailWindow)
        #expect(rendered[0].count == lastLoud + 1)
        #expect(rendered.indices.allSatisfy { rendered[$0] == Array(expected[$0].prefix(rendered[$0].count)) })
    }

    @Test("the tail limit cuts a tail that would ring longer")
    func tailLimitCaps() throws {
        let rendered = try chain(EchoKernelNode(delay: 100, feedback: 0.9, tailLimit: 500), length: 2000).renderAll(sliceSize: 256)
        #expect(rendered[0].count == 2500)
    }

    @Test("reset renders the stream again from its start")
    func resetStartsOver() throws {
        let node = EchoKernelNode(delay: 50, feedback: 0.25, tailLimit: 10_000)
        let graph = Graph()
        let output = GenericOutput()
        try graph.addNode(node)
        try graph.addNode(output)
        try node.setStreamFormat(.canonical(sampleRate: 48000, channelCount: 2), scope: .input)
        var source = RampSource(length: 3000, channels: 2)
        try graph.setRenderCallback(for: node) { flags, request, buffers in try source.callback(&flags, request, buffers) }
        try graph.connect(node, to: output)
        try graph.initialize()
        let first = try output.renderAll(sliceSize: 512)
        try graph.reset()
        source = RampSource(length: 3000, channels: 2)
        let second = try output.renderAll(sliceSize: 512)
        #expect(first[0].count > 3000)
        #expect(first == second)
    }

    @Test("rendering allocates nothing after the first slice")
    func allocatesNothing() throws {
        let output = try chain(EchoKernelNode(delay: 64, feedback: 0.5, tailLimit: 48000), length: 48000)
        let (slices, allocations) = try steadyStateAllocations(of: output, sliceSize: 512)
        #expect(slices > 50)
        #expect(allocations == 0)
    }
}
