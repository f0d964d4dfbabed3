import AudioGraph
import GraphTestSupport
import MallocCounter
import Testing

/// Multiplies its input by its one parameter, `level`, with no glide: a change shows on the
/// exact frame it lands on.
final class LevelNode: AudioNode {
    static let level: ParameterID = 0

    init(name: String = "level") {
        super.init(name: name, inputBusCount: 1, outputBusCount: 1)
    }

    /// A parameter that may not change while rendering, to test that scheduling refuses it.
    static let width: ParameterID = 1

    override var parameterDescriptions: [ParameterDescription] {
        [ParameterDescription(id: Self.level, name: "level", range: 0...4, defaultValue: 1, unit: .linear),
         ParameterDescription(id: Self.width, name: "width", range: 1...8, defaultValue: 1, unit: .linear, changesWhileRendering: false)]
    }

    override func render(_ flags: inout RenderActionFlags, _ request: RenderRequest, _ output: AudioBufferList) throws -> Int {
        let frames = try pullInput(bus: 0, &flags, request, into: output)
        let level = parameter(Self.level)
        for channel in 0..<output.channelCount {
            for frame in 0..<frames { output[channel][frame] *= level }
        }
        return frames
    }
}

/// A constant 1.0 of `length` frames → level → generic output; the callback keeps no position.
func makeLevelGraph(length: Int64, maximumFrames: Int = 4096) throws -> (Graph, LevelNode, GenericOutput) {
    let graph = Graph()
    try graph.setMaximumFramesPerSlice(maximumFrames)
    let level = LevelNode()
    let output = GenericOutput()
    try graph.addNode(level)
    try graph.addNode(output)
    try level.setStreamFormat(.canonical(sampleRate: 48000, channelCount: 1), scope: .input)
    try graph.setRenderCallback(for: level) { flags, request, buffers in
        let frames = Int(max(0, min(Int64(request.frameCount), length - request.timeStamp.sampleTime)))
        buffers[0].update(repeating: 1, count: frames)
        buffers.endStream(filled: frames, requested: request.frameCount, flags: &flags)
        return frames
    }
    try graph.connect(level, to: output)
    return (graph, level, output)
}

@Suite struct ScheduledParameterTests {
    @Test(arguments: [1, 7, 512, 4096])
    func aChangeLandsOnItsFrameForAnySliceSize(sliceSize: Int) throws {
        let (graph, level, output) = try makeLevelGraph(length: 10000)
        try graph.scheduleParameter(LevelNode.level, on: level, value: 0.5, atFrame: 1000)
        try graph.scheduleParameter(LevelNode.level, on: level, value: 2, atFrame: 4099)
        try graph.scheduleParameter(LevelNode.level, on: level, value: 3, atFrame: 4099)
        try graph.initialize()
        var samples: [Float] = []
        var sizes: Set<Int> = []
        while case .rendered(let frames) = try graph.renderSlice(frameCount: sliceSize) {
            sizes.insert(frames)
            samples.append(contentsOf: UnsafeBufferPointer(start: output.buffers[0], count: frames))
        }
        #expect(samples.count == 10000)
        #expect(samples[..<1000].allSatisfy { $0 == 1 })
        #expect(samples[1000..<4099].allSatisfy { $0 == 0.5 })
        #expect(samples[4099...].allSatisfy { $0 == 3 }, "changes on one frame apply in the order they were scheduled")
        #expect(sizes.subtracting([sliceSize, 10000 % sliceSize]).isEmpty, "slices keep the size asked for")
    }

    @Test func aParameterFixedWhileRenderingCannotBeScheduled() throws {
        let (graph, level, _) = try makeLevelGraph(length: 100)
        let refusal = GraphError.parameterFixedWhileRendering(node: "level", name: "width")
        #expect(throws: refusal) { try graph.scheduleParameter(LevelNode.width, on: level, value: 2, atFrame: 10) }
        #expect(throws: refusal) {
            try graph.scheduleParameterRamp(LevelNode.width, on: level, from: 1, to: 2, atFrame: 0, overFrames: 64)
        }
        #expect(graph.scheduledParameterChanges.isEmpty)
        try level.setParameter(LevelNode.width, 2)
        #expect(level.parameter(LevelNode.width) == 2, "set before the render, it is taken")
    }

    @Test func aRampMovesInStepsAndEndsOnItsTarget() throws {
        let (graph, level, output) = try makeLevelGraph(length: 400)
        try graph.scheduleParameterRamp(LevelNode.level, on: level, from: 1, to: 3, atFrame: 100, overFrames: 128, stepFrames: 32)
        #expect(graph.scheduledParameterChanges.map(\.frame) == [100, 132, 164, 196])
        #expect(graph.scheduledParameterChanges.map(\.value) == [1.5, 2, 2.5, 3])
        try graph.initialize()
        guard case .rendered(400) = try graph.renderSlice(frameCount: 400) else { Issue.record("one slice of 400 frames"); return }
        let samples = Array(UnsafeBufferPointer(start: output.buffers[0], count: 400))
        #expect(samples[99] == 1)
        #expect(samples[100] == 1.5 && samples[131] == 1.5)
        #expect(samples[132] == 2 && samples[195] == 2.5)
        #expect(samples[196...].allSatisfy { $0 == 3 })
    }

    @Test func aChangeScheduledBetweenSlicesLandsOnItsFrame() throws {
        let (graph, level, output) = try makeLevelGraph(length: 3000)
        try graph.initialize()
        _ = try graph.renderSlice(frameCount: 1000)
        try graph.scheduleParameter(LevelNode.level, on: level, value: 0, atFrame: 1500)
        guard case .rendered(1000) = try graph.renderSlice(frameCount: 1000) else { Issue.record("a full slice"); return }
        #expect(output.buffers[0][499] == 1)
        #expect(output.buffers[0][500] == 0)
    }

    @Test func aChangeForAFrameAlreadyRenderedAppliesNextThenOnItsFrameAfterReset() throws {
        let (graph, level, output) = try makeLevelGraph(length: 3000)
        try graph.scheduleParameter(LevelNode.level, on: level, value: 2, atFrame: 800)
        try graph.initialize()
        _ = try graph.renderSlice(frameCount: 1000)
        try graph.scheduleParameter(LevelNode.level, on: level, value: 0.5, atFrame: 500)
        _ = try graph.renderSlice(frameCount: 1000)
        #expect(output.buffers[0][0] == 0.5)
        try graph.reset()
        #expect(level.parameter(LevelNode.level) == 1)
        #expect(graph.scheduledParameterChanges.map(\.frame) == [500, 800])
        _ = try graph.renderSlice(frameCount: 1000)
        let samples = Array(UnsafeBufferPointer(start: output.buffers[0], count: 1000))
        #expect(samples[499] == 1)
        #expect(samples[500] == 0.5 && samples[799] == 0.5)
        #expect(samples[800] == 2)
    }

    @Test func schedulingChecksTheNodeTheParameterAndTheFrame() throws {
        let (graph, level, _) = try makeLevelGraph(length: 10)
        #expect(throws: GraphError.parameterOutOfRange(node: "level", name: "level", value: 5, range: 0...4)) {
            try graph.scheduleParameter(LevelNode.level, on: level, value: 5, atFrame: 0)
        }
        #expect(throws: GraphError.noSuchParameter(node: "level", id: 3)) {
            try graph.scheduleParameter(3, on: level, value: 1, atFrame: 0)
        }
        #expect(throws: GraphError.nodeNotInGraph("stranger")) {
            try graph.scheduleParameter(LevelNode.level, on: LevelNode(name: "stranger"), value: 1, atFrame: 0)
        }
        let negative = GraphError.scheduledBeforeStart(node: "level", frame: -1)
        #expect(throws: negative) { try graph.scheduleParameter(LevelNode.level, on: level, value: 1, atFrame: -1) }
        #expect(negative.description == "a change to node 'level' cannot be scheduled at frame -1; frames count from 0")
        #expect(graph.scheduledParameterChanges.isEmpty)
    }

    @Test func renderingWithChangesScheduledAllocatesNothing() throws {
        let length: Int64 = 2_000_000
        let (warmUpGraph, warmUpLevel, warmUp) = try makeLevelGraph(length: 100_000, maximumFrames: 512)
        try warmUpGraph.scheduleParameter(LevelNode.level, on: warmUpLevel, value: 2, atFrame: 300)
        try warmUpGraph.initialize()
        _ = try warmUp.renderAll(sliceSize: 512)
        let (graph, level, output) = try makeLevelGraph(length: length, maximumFrames: 512)
        for index in 0..<2000 {
            try graph.scheduleParameter(LevelNode.level, on: level, value: Float(index % 4), atFrame: Int64(index) * 997 + 13)
        }
        try graph.initialize()
        let (slices, allocations) = try steadyStateAllocations(of: output, sliceSize: 512)
        #expect(slices > 3000)
        #expect(allocations == 0)
        #expect(level.parameter(LevelNode.level) == Float(1999 % 4), "every change was applied")
    }
}
