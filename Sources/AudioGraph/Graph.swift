/// A graph of nodes, pulled from its one output node: Core Audio's AUGraph.
///
/// Build it while uninitialized (add nodes, connect buses, attach render callbacks),
/// then `initialize()`: it validates the topology, propagates stream formats along the
/// connections, and lets every node allocate what it needs. Render through `output`.
public final class Graph {
    /// The maximum frames per slice a new graph uses, as in Core Audio.
    public static let defaultMaximumFramesPerSlice = 4096

    /// The nodes, in the order they were added.
    public private(set) var nodes: [AudioNode] = []
    /// What feeds each input bus, by destination node and bus.
    private(set) var sources: [InputKey: InputSource] = [:]
    /// Whether `initialize()` succeeded and `uninitialize()` has not been called since.
    public var isInitialized: Bool { renderingOutput != nil }
    /// The output node, found once by `initialize()` so that rendering does no searching.
    private var renderingOutput: GenericOutput?
    /// The most frames one render call may ask for, for every node of the graph.
    public private(set) var maximumFramesPerSlice = Graph.defaultMaximumFramesPerSlice

    struct InputKey: Hashable {
        let node: ObjectIdentifier
        let bus: Int
    }

    public init() {}

    /// Sets the maximum frames per slice (global property); only while uninitialized.
    public func setMaximumFramesPerSlice(_ frames: Int) throws(GraphError) {
        try requireUninitialized("set the maximum frames per slice")
        guard (1...1_048_576).contains(frames) else { throw .invalidMaximumFramesPerSlice(frames) }
        maximumFramesPerSlice = frames
    }

    /// Adds a node; its name must be unique in the graph.
    public func addNode(_ node: AudioNode) throws(GraphError) {
        try requireUninitialized("add a node")
        guard !nodes.contains(where: { $0.name == node.name }) else { throw .duplicateNodeName(node.name) }
        nodes.append(node)
    }

    /// Removes a node and every connection to or from it.
    public func removeNode(_ node: AudioNode) throws(GraphError) {
        try requireUninitialized("remove a node")
        try requireMember(node)
        nodes.removeAll { $0 === node }
        sources = sources.filter { key, source in
            if key.node == ObjectIdentifier(node) { return false }
            if case .node(let upstream, _) = source, upstream === node { return false }
            return true
        }
    }

    /// Connects output bus `sourceBus` of `source` to input bus `destinationBus` of `destination`
    /// (Core Audio's `AUGraphConnectNodeInput`).
    public func connect(_ source: AudioNode, outputBus sourceBus: Int = 0, to destination: AudioNode,
                        inputBus destinationBus: Int = 0) throws(GraphError) {
        try requireUninitialized("connect nodes")
        try requireMember(source)
        guard sourceBus >= 0, sourceBus < source.outputBusCount else {
            throw .noSuchBus(node: source.name, scope: .output, bus: sourceBus)
        }
        try requireFreeInput(destination, bus: destinationBus)
        let alreadyUsed = sources.values.contains { existing in
            if case .node(let node, let bus) = existing { return node === source && bus == sourceBus }
            return false
        }
        if alreadyUsed { throw .outputAlreadyConnected(node: source.name, bus: sourceBus) }
        sources[InputKey(node: ObjectIdentifier(destination), bus: destinationBus)] = .node(source, bus: sourceBus)
    }

    /// Feeds input bus `bus` of `destination` from a render callback instead of a node.
    /// Set that bus's stream format too: a callback carries none.
    public func setRenderCallback(for destination: AudioNode, bus: Int = 0,
                                  _ callback: @escaping RenderCallback) throws(GraphError) {
        try requireUninitialized("set a render callback")
        try requireFreeInput(destination, bus: bus)
        sources[InputKey(node: ObjectIdentifier(destination), bus: bus)] = .callback(callback)
    }

    /// Removes whatever feeds input bus `bus` of `destination`.
    public func disconnect(_ destination: AudioNode, bus: Int = 0) throws(GraphError) {
        try requireUninitialized("disconnect nodes")
        try requireMember(destination)
        sources[InputKey(node: ObjectIdentifier(destination), bus: bus)] = nil
    }

    /// What feeds input bus `bus` of `node`, if anything.
    public func source(of node: AudioNode, bus: Int) -> InputSource? {
        sources[InputKey(node: ObjectIdentifier(node), bus: bus)]
    }

    /// The graph's one generic output node, once there is exactly one.
    public var output: GenericOutput? {
        let outputs = nodes.compactMap { $0 as? GenericOutput }
        return outputs.count == 1 ? outputs[0] : nil
    }

    /// Pulls one slice through the output node; see `GenericOutput.renderSlice(frameCount:)`.
    public func renderSlice(frameCount: Int) throws -> SliceResult {
        guard let renderingOutput else { throw GraphError.notInitialized }
        return try renderingOutput.renderSlice(frameCount: frameCount)
    }

    // MARK: Lifecycle

    /// Validates the graph, propagates formats and initializes every node, in that order.
    /// On failure the graph stays uninitialized and nothing is allocated.
    public func initialize() throws {
        try requireUninitialized("initialize")
        let order = try validate()
        try propagateFormats(in: order)
        var prepared: [AudioNode] = []
        do {
            for node in order {
                node.maximumFramesPerSlice = maximumFramesPerSlice
                for bus in 0..<node.inputBusCount {
                    node.inputSources[bus] = source(of: node, bus: bus)
                }
                try node.allocateRenderResources()
                node.isInitialized = true
                prepared.append(node)
            }
        } catch {
            for node in prepared { node.deallocateRenderResources(); node.isInitialized = false }
            throw error
        }
        renderingOutput = output
    }

    /// Frees every node's render resources; properties and connections may change again.
    public func uninitialize() {
        guard isInitialized else { return }
        for node in nodes {
            node.deallocateRenderResources()
            node.isInitialized = false
            node.inputSources = Array(repeating: nil, count: node.inputBusCount)
        }
        renderingOutput = nil
    }

    // MARK: Helpers

    private func requireUninitialized(_ operation: String) throws(GraphError) {
        if isInitialized { throw .graphInitialized(operation: operation) }
    }

    private func requireMember(_ node: AudioNode) throws(GraphError) {
        guard nodes.contains(where: { $0 === node }) else { throw .nodeNotInGraph(node.name) }
    }

    private func requireFreeInput(_ node: AudioNode, bus: Int) throws(GraphError) {
        try requireMember(node)
        guard bus >= 0, bus < node.inputBusCount else { throw .noSuchBus(node: node.name, scope: .input, bus: bus) }
        if source(of: node, bus: bus) != nil { throw .busAlreadyFed(node: node.name, bus: bus) }
    }
}
