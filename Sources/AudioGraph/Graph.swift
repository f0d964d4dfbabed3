/// A graph of nodes, pulled from its one output node: Core Audio's AUGraph.
///
/// Build it while uninitialized (add nodes, connect buses, attach render callbacks),
/// then `initialize()`: it validates the topology, propagates stream formats along the
/// connections, and lets every node allocate what it needs. Render through `output`.
public final class Graph {
    /// The maximum frames per slice a new graph uses, as in Core Audio.
    public static let defaultMaximumFramesPerSlice = 4096
    /// The maximum frames per slice a graph takes.
    public static let framesPerSliceRange = 1...1_048_576
    /// The most steps a ramp may take (2^22: 46 minutes in 32-frame steps at 48 kHz); each is
    /// one scheduled change, held from `scheduleParameterRamp` until the graph is rewound.
    public static let maximumRampSteps: Int64 = 1 << 22

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
    /// The parameter changes to apply while rendering, handed to the output at initialize.
    private let schedule = ParameterSchedule()

    struct InputKey: Hashable {
        let node: ObjectIdentifier
        let bus: Int
    }

    public init() {}

    /// Sets the maximum frames per slice (global property); only while uninitialized.
    public func setMaximumFramesPerSlice(_ frames: Int) throws(GraphError) {
        try requireUninitialized("set the maximum frames per slice")
        guard Self.framesPerSliceRange.contains(frames) else { throw .invalidMaximumFramesPerSlice(frames) }
        maximumFramesPerSlice = frames
    }

    /// Adds a node; its name must be unique in the graph.
    public func addNode(_ node: AudioNode) throws(GraphError) {
        try requireUninitialized("add a node")
        guard !nodes.contains(where: { $0.name == node.name }) else { throw .duplicateNodeName(node.name) }
        nodes.append(node)
    }

    /// Removes a node, every connection to or from it and its taps.
    public func removeNode(_ node: AudioNode) throws(GraphError) {
        try requireUninitialized("remove a node")
        try requireMember(node)
        nodes.removeAll { $0 === node }
        for bus in node.outputTaps.indices { node.outputTaps[bus].block = nil }
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
    /// Scheduled parameter changes land on their exact frames inside the slice.
    public func renderSlice(frameCount: Int) throws -> SliceResult {
        guard let renderingOutput else { throw GraphError.notInitialized }
        return try renderingOutput.renderSlice(frameCount: frameCount)
    }

    /// Clears every node's render state, so that the graph renders again from sample time 0
    /// with the same result: Core Audio's `AudioUnitReset` on every node.
    ///
    /// Filter memories, ramps, converters and sample times start over; sources that can rewind
    /// (a `FilePlayerNode` over a rewindable file) go back to their first frame. Parameters that
    /// scheduled changes moved go back to the values they had before those changes, and the
    /// changes are due again. A render callback cannot be reset by the graph: its owner rewinds
    /// whatever the callback reads before rendering again (a callback that reads
    /// `request.timeStamp.sampleTime` needs nothing). Taps count their sample times from 0 again.
    /// Only while initialized, between slices.
    public func reset() throws {
        guard isInitialized else { throw GraphError.notInitialized }
        try schedule.rewind()
        for node in nodes { node.restartOutputFrameCounts() }
        for node in nodes { try node.reset() }
    }

    // MARK: Scheduled parameter changes

    /// The scheduled parameter changes, sorted by frame.
    public var scheduledParameterChanges: [ScheduledParameterChange] { schedule.changes }

    /// Sets `parameter` of `node` to `value` when the render reaches `frame`, landing on that
    /// exact frame whatever the slice size (the output splits its slice there).
    ///
    /// Allowed before and after `initialize()` (between slices); a change at a frame already
    /// rendered applies before the next slice. The value is checked against the parameter's
    /// range now, so rendering cannot fail on it. Scheduling stores the change: call it before
    /// rendering, not from a render callback.
    public func scheduleParameter(_ parameter: ParameterID, on node: AudioNode, value: Float,
                                  atFrame frame: Int64) throws(GraphError) {
        try requireMember(node)
        try node.checkParameter(parameter, value)
        try node.checkChangesWhileRendering(parameter)
        guard frame >= 0 else { throw .scheduledBeforeStart(node: node.name, frame: frame) }
        schedule.insert(ScheduledParameterChange(frame: frame, node: node, parameter: parameter, value: value))
    }

    /// Schedules a linear ramp of `parameter` of `node` from `start` to `end`, as a step every
    /// `stepFrames` frames from `frame` over `frames` frames; the first step is already one
    /// step away from `start` and the last one lands on `end`.
    ///
    /// Steps rather than a continuous ramp keep nodes simple; nodes that glide between values
    /// (the mixer over 64 frames) smooth them.
    public func scheduleParameterRamp(_ parameter: ParameterID, on node: AudioNode, from start: Float, to end: Float,
                                      atFrame frame: Int64, overFrames frames: Int64, stepFrames: Int = 32) throws(GraphError) {
        try requireMember(node)
        try node.checkParameter(parameter, start)
        try node.checkParameter(parameter, end)
        try node.checkChangesWhileRendering(parameter)
        guard frame >= 0 else { throw .scheduledBeforeStart(node: node.name, frame: frame) }
        let step = Int64(max(1, stepFrames))
        let steps = max(1, Int64(min((Double(frames) / Double(step)).rounded(), Double(Int64.max / 2))))
        guard steps <= Self.maximumRampSteps, frame <= Int64.max - steps * step else {
            throw .rampTooLong(node: node.name, maximum: Self.maximumRampSteps)
        }
        for index in 1...steps {
            let fraction = Float(index) / Float(steps)
            schedule.insert(ScheduledParameterChange(frame: frame + (index - 1) * step, node: node, parameter: parameter,
                                                     value: start + (end - start) * fraction))
        }
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
                node.restartOutputFrameCounts()
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
        renderingOutput?.schedule = schedule
    }

    /// Frees every node's render resources; properties and connections may change again.
    /// Parameters that scheduled changes moved go back to their values before those changes,
    /// so that initializing again renders as the first time did.
    public func uninitialize() {
        guard isInitialized else { return }
        try? schedule.rewind()
        renderingOutput?.schedule = nil
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

    func requireMember(_ node: AudioNode) throws(GraphError) {
        guard nodes.contains(where: { $0 === node }) else { throw .nodeNotInGraph(node.name) }
    }

    private func requireFreeInput(_ node: AudioNode, bus: Int) throws(GraphError) {
        try requireMember(node)
        guard bus >= 0, bus < node.inputBusCount else { throw .noSuchBus(node: node.name, scope: .input, bus: bus) }
        if source(of: node, bus: bus) != nil { throw .busAlreadyFed(node: node.name, bus: bus) }
    }
}
