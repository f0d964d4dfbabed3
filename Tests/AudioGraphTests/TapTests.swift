import AudioGraph
import GraphTestSupport
import MallocCounter
import Testing

/// A node that keeps every other frame of its input: its input stream is twice as long as its
/// output, so a tap upstream of it counts time in frames of its own stream.
final class DecimatorNode: AudioNode {
    private var halves: (AudioBufferStorage, AudioBufferStorage)?

    init(name: String) { super.init(name: name, inputBusCount: 1, outputBusCount: 1) }

    override func allocateRenderResources() throws {
        let channels = try requiredStreamFormat(scope: .input).channelCount
        halves = (AudioBufferStorage(channelCount: channels, capacity: maximumFramesPerSlice),
                  AudioBufferStorage(channelCount: channels, capacity: maximumFramesPerSlice))
    }

    override func render(_ flags: inout RenderActionFlags, _ request: RenderRequest, _ output: AudioBufferList) throws -> Int {
        guard let (first, second) = halves else { throw GraphError.notInitialized }
        let count = request.frameCount
        var got = try pullInput(bus: 0, &flags, request, into: first.list)
        if got == count { got += try pullInput(bus: 0, &flags, request, into: second.list) }
        for channel in 0..<output.channelCount {
            for frame in 0..<count {
                let index = 2 * frame
                output[channel][frame] = index < count ? first.list[channel][index] : second.list[channel][index - count]
            }
        }
        return (got + 1) / 2
    }
}

@Suite struct TapTests {
    @Test(arguments: [1, 7, 64, 4095, 4096])
    func aTapSeesEveryFrameOnceInOrder(sliceSize: Int) throws {
        let length = 10_000
        let (graph, output, _) = try makeChain(length: length, channels: 2)
        let gain = try #require(graph.nodes.first { $0.name == "gain" })
        let atGain = TapRecording(channels: 2)
        let atOutput = TapRecording(channels: 2)
        try graph.installTap(on: gain, block: atGain.block)
        try graph.installTap(on: output, block: atOutput.block)
        let rendered = try output.renderAll(sliceSize: sliceSize)
        for recording in [atGain, atOutput] {
            #expect(recording.timesAreContiguousFromZero)
            #expect(recording.frameCounts.reduce(0, +) == length)
            #expect(recording.frameCounts.count == (length + sliceSize - 1) / sliceSize)
            #expect(recording.samples == rendered, "the tap sees exactly what the bus gave")
        }
        for channel in 0..<2 {
            #expect(atGain.samples[channel] == (0..<length).map { RampSource.value(frame: $0, channel: channel) * 0.5 })
        }
    }

    @Test func aSliceSplitByAScheduledChangeReachesTheTapInPartsThatLineUp() throws {
        let (graph, level, output) = try makeLevelGraph(length: 10_000)
        try graph.scheduleParameter(LevelNode.level, on: level, value: 2, atFrame: 2500)
        try graph.initialize()
        let seen = TapRecording(channels: 1)
        try graph.installTap(on: level, block: seen.block)
        _ = try output.renderAll(sliceSize: 4000)
        #expect(seen.sampleTimes == [0, 2500, 4000, 8000])
        #expect(seen.timesAreContiguousFromZero)
        #expect(seen.samples[0] == Array(repeating: 1, count: 2500) + Array(repeating: 2, count: 7500))
    }

    @Test func aTapDoesNotChangeTheOutput() throws {
        let (_, plain, _) = try makeChain(length: 30_000, channels: 2)
        let expected = try plain.renderAll(sliceSize: 1000)
        let (graph, output, _) = try makeChain(length: 30_000, channels: 2)
        let recordings = (TapRecording(channels: 2), TapRecording(channels: 2))
        try graph.installTap(on: try #require(graph.nodes.first), block: recordings.0.block)
        try graph.installTap(on: output, block: recordings.1.block)
        #expect(try output.renderAll(sliceSize: 1000) == expected)
        #expect(recordings.0.samples == expected)
    }

    @Test func aTapUpstreamOfALengthChangeCountsItsOwnStream() throws {
        let graph = Graph()
        let gain = GainNode(name: "gain", gain: 1)
        let decimator = DecimatorNode(name: "decimator")
        let output = GenericOutput()
        for node in [gain, decimator, output] as [AudioNode] { try graph.addNode(node) }
        let source = RampSource(length: 9000, channels: 1)
        try gain.setStreamFormat(.canonical(sampleRate: 48000, channelCount: 1), scope: .input)
        try graph.setRenderCallback(for: gain, source.callback)
        try graph.connect(gain, to: decimator)
        try graph.connect(decimator, to: output)
        try graph.initialize()
        let atGain = TapRecording(channels: 1)
        let atOutput = TapRecording(channels: 1)
        try graph.installTap(on: gain, block: atGain.block)
        try graph.installTap(on: output, block: atOutput.block)
        let rendered = try output.renderAll(sliceSize: 1000)
        #expect(rendered[0].count == 4500)
        #expect(atGain.timesAreContiguousFromZero)
        #expect(atGain.frameCounts.reduce(0, +) == 9000)
        #expect(atGain.sampleTimes.prefix(3) == [0, 1000, 2000], "two pulls of the gain for each slice of the output")
        #expect(atGain.samples[0] == (0..<9000).map { RampSource.value(frame: $0, channel: 0) })
        #expect(atOutput.timesAreContiguousFromZero)
        #expect(atOutput.samples == rendered)
    }

    @Test func removingATapStopsItsCallsAndAnotherCountsOnFromTheBussPosition() throws {
        let (graph, output, source) = try makeChain(length: 10_000, channels: 1)
        let gain = try #require(graph.nodes.first)
        var calls = 0
        try graph.installTap(on: gain) { _, _ in calls += 1 }
        for _ in 0..<3 { _ = try graph.renderSlice(frameCount: 1000) }
        try graph.removeTap(on: gain)
        _ = try output.renderAll(sliceSize: 1000)
        #expect(calls == 3)

        try graph.reset()
        source.rewind()
        for _ in 0..<4 { _ = try graph.renderSlice(frameCount: 1000) }
        let late = TapRecording(channels: 1)
        try graph.installTap(on: gain, block: late.block)
        _ = try output.renderAll(sliceSize: 1500)
        #expect(late.sampleTimes == [4000, 5500, 7000, 8500], "sample time is the bus's, from the reset, not the tap's")
        #expect(late.samples[0] == (4000..<10_000).map { RampSource.value(frame: $0, channel: 0) * 0.5 })

        try graph.reset()
        source.rewind()
        late.sampleTimes = []
        _ = try graph.renderSlice(frameCount: 2500)
        #expect(late.sampleTimes == [0], "a reset starts the bus's time again")
    }

    @Test func aBlockMayRemoveItsOwnTap() throws {
        let (graph, output, _) = try makeChain(length: 10_000, channels: 1)
        var times: [Int64] = []
        try graph.installTap(on: output) { [weak graph] _, sampleTime in
            times.append(sampleTime)
            try? graph?.removeTap(on: output)
        }
        #expect(try output.renderAll(sliceSize: 1000)[0].count == 10_000, "the render goes on without the tap")
        #expect(times == [0])
    }

    @Test func aBusThatIsNotThereOrATakenOneIsRefused() throws {
        let (graph, output, _) = try makeChain(length: 100, channels: 1)
        let gain = try #require(graph.nodes.first)
        for bus in [1, -1] {
            #expect(throws: GraphError.noSuchBus(node: "gain", scope: .output, bus: bus)) {
                try graph.installTap(on: gain, bus: bus) { _, _ in }
            }
            #expect(throws: GraphError.noSuchBus(node: "gain", scope: .output, bus: bus)) { try graph.removeTap(on: gain, bus: bus) }
        }
        #expect(GraphError.noSuchBus(node: "gain", scope: .output, bus: 1).description == "node 'gain' has no output bus 1")
        #expect(throws: GraphError.nodeNotInGraph("stranger")) {
            try graph.installTap(on: GainNode(name: "stranger", gain: 1)) { _, _ in }
        }
        try graph.installTap(on: output) { _, _ in }
        let second = #expect(throws: GraphError.tapAlreadyInstalled(node: "output", bus: 0)) {
            try graph.installTap(on: output) { _, _ in }
        }
        #expect(second?.description == "output bus 0 of node 'output' already has a tap; remove it before installing another")
        try graph.removeTap(on: output)
        try graph.removeTap(on: output)
        try graph.installTap(on: output) { _, _ in }
    }

    @Test func tappingAllocatesNothing() throws {
        // A first full render instantiates the runtime's type metadata for every path.
        let (warmGraph, warmUp, _) = try makeChain(length: 5000, channels: 2, maximumFrames: 512)
        try warmGraph.installTap(on: warmUp) { _, _ in }
        _ = try warmUp.renderAll(sliceSize: 512)
        let (graph, output, source) = try makeChain(length: 2_000_000, channels: 2, maximumFrames: 512)
        source.recordsRequests = false
        var peak: Float = 0
        var frames: Int64 = 0
        try graph.installTap(on: try #require(graph.nodes.first)) { buffer, _ in
            for channel in 0..<buffer.channelCount {
                for sample in buffer[channel] { peak = max(peak, abs(sample)) }
            }
        }
        try graph.installTap(on: output) { buffer, sampleTime in frames = sampleTime + Int64(buffer.frameCount) }
        let (slices, allocations) = try steadyStateAllocations(of: output, sliceSize: 512)
        #expect(slices > 3000)
        #expect(allocations == 0)
        #expect(frames == 2_000_000)
        #expect(peak == 0.25)
    }
}
