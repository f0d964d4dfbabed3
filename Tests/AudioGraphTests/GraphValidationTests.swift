import AudioGraph
import Testing

@Suite struct GraphValidationTests {
    let stereo = StreamFormat.canonical(sampleRate: 44100, channelCount: 2)

    /// A graph holding `nodes`, added in order.
    func makeGraph(holding nodes: AudioNode...) throws -> Graph {
        let graph = Graph()
        for node in nodes { try graph.addNode(node) }
        return graph
    }

    func expectError(_ expected: GraphError, _ body: () throws -> Void) {
        #expect(throws: expected) { try body() }
    }

    @Test func needsAnOutputNode() throws {
        let graph = Graph()
        try graph.addNode(GainNode(name: "gain", gain: 1))
        expectError(.noOutputNode) { try graph.initialize() }
        #expect(!graph.isInitialized)
    }

    @Test func needsExactlyOneOutputNode() throws {
        let graph = Graph()
        try graph.addNode(GenericOutput(name: "a"))
        try graph.addNode(GenericOutput(name: "b"))
        expectError(.multipleOutputNodes(["a", "b"])) { try graph.initialize() }
    }

    @Test func everyInputMustBeFed() throws {
        let gain = GainNode(name: "gain", gain: 1)
        let output = GenericOutput()
        let graph = try makeGraph(holding: gain, output)
        try graph.connect(gain, to: output)
        expectError(.inputNotFed(node: "gain", bus: 0)) { try graph.initialize() }
    }

    @Test func findsCycles() throws {
        let merge = TwoInputNode(name: "merge"), echo = GainNode(name: "echo", gain: 0.5)
        let tap = GainNode(name: "tap", gain: 1), output = GenericOutput()
        let graph = try makeGraph(holding: merge, echo, output, tap)
        try graph.connect(merge, to: echo)
        try graph.connect(echo, to: merge, inputBus: 0)
        try graph.setRenderCallback(for: merge, bus: 1) { _, request, _ in request.frameCount }
        try tap.setStreamFormat(stereo, scope: .input)
        try graph.setRenderCallback(for: tap) { _, request, _ in request.frameCount }
        try graph.connect(tap, to: output)
        expectError(.cycle(["merge", "echo", "merge"])) { try graph.initialize() }
    }

    @Test func aBusIsFedOnce() throws {
        let gain = GainNode(name: "gain", gain: 1)
        let output = GenericOutput()
        let graph = try makeGraph(holding: gain, output)
        try graph.connect(gain, to: output)
        expectError(.busAlreadyFed(node: "output", bus: 0)) { try graph.connect(gain, to: output) }
        expectError(.busAlreadyFed(node: "output", bus: 0)) {
            try graph.setRenderCallback(for: output) { _, _, _ in 0 }
        }
    }

    @Test func anOutputBusFeedsOneInput() throws {
        let gain = GainNode(name: "gain", gain: 1)
        let merge = TwoInputNode(name: "merge")
        let graph = try makeGraph(holding: gain, merge)
        try graph.connect(gain, to: merge, inputBus: 0)
        expectError(.outputAlreadyConnected(node: "gain", bus: 0)) { try graph.connect(gain, to: merge, inputBus: 1) }
    }

    @Test func busesAndNodesMustExist() throws {
        let gain = GainNode(name: "gain", gain: 1)
        let stranger = GainNode(name: "stranger", gain: 1)
        let graph = try makeGraph(holding: gain)
        expectError(.noSuchBus(node: "gain", scope: .input, bus: 3)) { try graph.setRenderCallback(for: gain, bus: 3) { _, _, _ in 0 } }
        expectError(.noSuchBus(node: "gain", scope: .output, bus: 1)) { try gain.setStreamFormat(stereo, scope: .output, bus: 1) }
        expectError(.nodeNotInGraph("stranger")) { try graph.connect(stranger, to: gain) }
        expectError(.duplicateNodeName("gain")) { try graph.addNode(GainNode(name: "gain", gain: 2)) }
    }

    @Test func aCallbackBusNeedsAFormat() throws {
        let output = GenericOutput()
        let graph = try makeGraph(holding: output)
        try graph.setRenderCallback(for: output) { _, request, _ in request.frameCount }
        expectError(.missingFormat(node: "output", scope: .input, bus: 0)) { try graph.initialize() }
    }

    @Test func propagatesFormatsDownstream() throws {
        let first = GainNode(name: "first", gain: 1), second = GainNode(name: "second", gain: 1)
        let output = GenericOutput()
        let graph = try makeGraph(holding: first, second, output)
        try first.setStreamFormat(stereo, scope: .input)
        try graph.setRenderCallback(for: first) { _, request, _ in request.frameCount }
        try graph.connect(first, to: second)
        try graph.connect(second, to: output)
        try graph.initialize()
        for node in [first, second, output] as [AudioNode] {
            #expect(node.streamFormat(scope: .input) == stereo)
            #expect(node.streamFormat(scope: .output) == stereo)
        }
    }

    @Test func disagreeingFormatsNeedAConverter() throws {
        let first = GainNode(name: "first", gain: 1)
        let output = GenericOutput()
        let graph = try makeGraph(holding: first, output)
        try first.setStreamFormat(stereo, scope: .input)
        let mono48 = StreamFormat.canonical(sampleRate: 48000, channelCount: 1)
        try output.setStreamFormat(mono48, scope: .input)
        try graph.setRenderCallback(for: first) { _, request, _ in request.frameCount }
        try graph.connect(first, to: output)
        expectError(.formatMismatch(source: "first", sourceBus: 0, destination: "output", destinationBus: 0,
                                    sourceFormat: stereo, destinationFormat: mono48)) { try graph.initialize() }
        #expect(String(describing: GraphError.formatMismatch(
            source: "first", sourceBus: 0, destination: "output", destinationBus: 0,
            sourceFormat: stereo, destinationFormat: mono48)).contains("insert a format converter"))
    }

    @Test func nodesTakeOnlyTheCanonicalFormat() throws {
        let output = GenericOutput()
        let graph = try makeGraph(holding: output)
        let int16 = StreamFormat(sampleRate: 44100, channelCount: 2, sampleType: .int16, isInterleaved: true)
        try output.setStreamFormat(int16, scope: .input)
        try graph.setRenderCallback(for: output) { _, request, _ in request.frameCount }
        #expect(throws: GraphError.self) { try graph.initialize() }
    }

    @Test func invalidFormatsAreRefusedWhenSet() {
        let gain = GainNode(name: "gain", gain: 1)
        expectError(.invalidFormat(node: "gain", scope: .input, bus: 0, reason: .noChannels)) {
            try gain.setStreamFormat(.canonical(sampleRate: 44100, channelCount: 0), scope: .input)
        }
    }

    @Test func propertiesAreFrozenWhileInitialized() throws {
        let (graph, output, _) = try makeChain(length: 10)
        expectError(.initialized(node: "output", operation: "set a stream format")) {
            try output.setStreamFormat(stereo, scope: .input)
        }
        expectError(.graphInitialized(operation: "set the maximum frames per slice")) { try graph.setMaximumFramesPerSlice(10) }
        expectError(.graphInitialized(operation: "add a node")) { try graph.addNode(GainNode(name: "late", gain: 1)) }
        graph.uninitialize()
        try output.setStreamFormat(stereo, scope: .input)
        try graph.setMaximumFramesPerSlice(10)
    }

    @Test func maximumFramesPerSliceIsEnforced() throws {
        let (graph, output, _) = try makeChain(length: 100, maximumFrames: 64)
        #expect(output.maximumFramesPerSlice == 64)
        expectError(.tooManyFrames(node: "output", requested: 65, maximum: 64)) { _ = try output.renderSlice(frameCount: 65) }
        expectError(.invalidMaximumFramesPerSlice(0)) { try Graph().setMaximumFramesPerSlice(0) }
        _ = graph
    }

    @Test func renderingNeedsInitialize() throws {
        let graph = Graph()
        try graph.addNode(GenericOutput())
        expectError(.notInitialized) { _ = try graph.renderSlice(frameCount: 10) }
    }

    @Test func parametersAreCheckedAgainstTheirRange() throws {
        let node = ParameterNode(name: "knob")
        #expect(node.parameter(0) == -6)
        try node.setParameter(0, 3)
        #expect(node.parameter(0) == 3)
        #expect(node.changes == [0])
        expectError(.parameterOutOfRange(node: "knob", name: "gain", value: 20, range: -12...12)) { try node.setParameter(0, 20) }
        expectError(.noSuchParameter(node: "knob", id: 5)) { try node.setParameter(5, 0) }
    }

    @Test func removingANodeRemovesItsConnections() throws {
        let gain = GainNode(name: "gain", gain: 1)
        let output = GenericOutput()
        let graph = try makeGraph(holding: gain, output)
        try graph.connect(gain, to: output)
        try graph.removeNode(gain)
        #expect(graph.source(of: output, bus: 0) == nil)
        #expect(graph.nodes.map(\.name) == ["output"])
    }
}

/// A node with two inputs, for topology tests.
final class TwoInputNode: AudioNode {
    init(name: String) { super.init(name: name, inputBusCount: 2, outputBusCount: 1) }
}

/// A node with one parameter, for parameter tests.
final class ParameterNode: AudioNode {
    var changes: [ParameterID] = []
    init(name: String) { super.init(name: name, inputBusCount: 1, outputBusCount: 1) }
    override var parameterDescriptions: [ParameterDescription] {
        [ParameterDescription(id: 0, name: "gain", range: -12...12, defaultValue: -6, unit: .decibels)]
    }
    override func parameterDidChange(_ id: ParameterID) { changes.append(id) }
}

