/// What feeds one input bus of a node: another node's output bus or a render callback.
public enum InputSource {
    case node(AudioNode, bus: Int)
    case callback(RenderCallback)
}

/// A unit in a graph: an audio unit with input and output buses, properties and parameters.
///
/// Subclasses override the lifecycle hooks they need; the defaults describe a unit with one
/// input and one output that keeps its input format and passes audio through unchanged.
///
/// Lifecycle, as in Core Audio and SoX:
/// 1. *configure* — set properties (stream formats, bus counts) while uninitialized;
/// 2. *initialize* — the graph propagates formats, then calls `allocateRenderResources()`:
///    formats are fixed, buffers and coefficients are made here and nowhere later;
/// 3. *render* — `render(_:_:_:)` is called once per slice; it must not allocate or lock;
/// 4. *uninitialize* — `deallocateRenderResources()`; properties may change again.
open class AudioNode {
    /// The node's name, unique in its graph; every error about the node uses it.
    public let name: String
    /// Whether the node's graph is initialized; properties are frozen while it is.
    public internal(set) var isInitialized = false
    /// The most frames one render call may ask for (global scope); set by the graph.
    public internal(set) var maximumFramesPerSlice = Graph.defaultMaximumFramesPerSlice

    private var inputFormats: [StreamFormat?]
    private var outputFormats: [StreamFormat?]
    private var explicitOutputBuses: Set<Int> = []
    private var explicitInputBuses: Set<Int> = []
    private var parameterValues: [Float]
    /// `parameterDescriptions`, read once at init so that setting a parameter allocates nothing.
    private var parameterInfo: [ParameterDescription] = []
    /// What feeds each input bus, filled in by the graph when it initializes.
    public internal(set) var inputSources: [InputSource?]
    /// Each output bus's tap and frame count, for `Graph.installTap(on:bus:block:)`.
    var outputTaps: [OutputTap]

    /// A node with the given bus counts; formats are unset until set or propagated.
    public init(name: String, inputBusCount: Int, outputBusCount: Int) {
        self.name = name
        inputFormats = Array(repeating: nil, count: inputBusCount)
        outputFormats = Array(repeating: nil, count: outputBusCount)
        inputSources = Array(repeating: nil, count: inputBusCount)
        outputTaps = Array(repeating: OutputTap(), count: outputBusCount)
        parameterValues = []
        parameterInfo = parameterDescriptions
        parameterValues = parameterInfo.map(\.defaultValue)
    }

    // MARK: Buses and properties

    /// Input buses (elements of the input scope).
    public var inputBusCount: Int { inputFormats.count }
    /// Output buses (elements of the output scope).
    public var outputBusCount: Int { outputFormats.count }

    /// Sets the number of input buses (Core Audio's element count property); only while uninitialized.
    public func setInputBusCount(_ count: Int) throws(GraphError) {
        try requireUninitialized("set the input bus count")
        inputFormats = Array(inputFormats.prefix(count)) + Array(repeating: nil, count: max(0, count - inputFormats.count))
        inputSources = Array(inputSources.prefix(count)) + Array(repeating: nil, count: max(0, count - inputSources.count))
        explicitInputBuses = explicitInputBuses.filter { $0 < count }
        refreshParameters()
    }

    /// Re-reads `parameterDescriptions` after the node's shape changed (a mixer's bus count),
    /// keeping the values of parameters that still exist.
    public func refreshParameters() {
        let previous = parameterValues
        parameterInfo = parameterDescriptions
        parameterValues = parameterInfo.map { previous.indices.contains($0.id) ? previous[$0.id] : $0.defaultValue }
    }

    /// The stream format of a bus, if set or propagated.
    public func streamFormat(scope: Scope, bus: Int = 0) -> StreamFormat? {
        switch scope {
        case .input: inputFormats.indices.contains(bus) ? inputFormats[bus] : nil
        case .output: outputFormats.indices.contains(bus) ? outputFormats[bus] : nil
        case .global: nil
        }
    }

    /// Sets the stream format of a bus (Core Audio's `kAudioUnitProperty_StreamFormat`); only while uninitialized.
    public func setStreamFormat(_ format: StreamFormat, scope: Scope, bus: Int = 0) throws(GraphError) {
        try requireUninitialized("set a stream format")
        do { try format.validate() } catch { throw .invalidFormat(node: name, scope: scope, bus: bus, reason: error) }
        switch scope {
        case .input:
            guard inputFormats.indices.contains(bus) else { throw .noSuchBus(node: name, scope: scope, bus: bus) }
            inputFormats[bus] = format
            explicitInputBuses.insert(bus)
        case .output:
            guard outputFormats.indices.contains(bus) else { throw .noSuchBus(node: name, scope: scope, bus: bus) }
            outputFormats[bus] = format
            explicitOutputBuses.insert(bus)
        case .global:
            throw .noSuchBus(node: name, scope: scope, bus: bus)
        }
    }

    /// Whether the user set this bus's format, rather than the graph propagating it.
    public func hasExplicitFormat(scope: Scope, bus: Int) -> Bool {
        scope == .input ? explicitInputBuses.contains(bus) : explicitOutputBuses.contains(bus)
    }

    func propagate(_ format: StreamFormat?, scope: Scope, bus: Int) {
        if scope == .input { inputFormats[bus] = format } else { outputFormats[bus] = format }
    }

    /// Throws unless the node is uninitialized: properties change only then.
    public func requireUninitialized(_ operation: String) throws(GraphError) {
        if isInitialized { throw .initialized(node: name, operation: operation) }
    }

    // MARK: Parameters

    /// The parameters this node type has; override to declare them.
    open var parameterDescriptions: [ParameterDescription] { [] }

    /// The current value of a parameter.
    public func parameter(_ id: ParameterID) -> Float {
        parameterValues.indices.contains(id) ? parameterValues[id] : 0
    }

    /// Sets a parameter; allowed at any time between slices. Values outside the range, and
    /// fractions of a switch or a choice, are refused.
    public func setParameter(_ id: ParameterID, _ value: Float) throws(GraphError) {
        try checkParameter(id, value)
        parameterValues[id] = value
        parameterDidChange(id)
    }

    /// Throws unless the node has parameter `id` and `value` is one it takes.
    func checkParameter(_ id: ParameterID, _ value: Float) throws(GraphError) {
        guard parameterValues.indices.contains(id) else { throw .noSuchParameter(node: name, id: id) }
        let description = parameterInfo[id]
        guard description.range.contains(value) else {
            throw .parameterOutOfRange(node: name, name: description.name, value: value, range: description.range)
        }
        guard description.accepts(value) else { throw .parameterNotWhole(node: name, name: description.name, value: value) }
    }

    /// Throws unless parameter `id` may change while the graph renders, as a scheduled change does.
    func checkChangesWhileRendering(_ id: ParameterID) throws(GraphError) {
        if parameterValues.indices.contains(id), !parameterInfo[id].changesWhileRendering {
            throw .parameterFixedWhileRendering(node: name, name: parameterInfo[id].name)
        }
    }

    /// The description of the parameter called `parameterName` (`gain[1]`, `preset`).
    public func parameterDescription(named parameterName: String) throws(GraphError) -> ParameterDescription {
        guard let found = parameterInfo.first(where: { $0.name == parameterName }) else {
            throw .noParameterNamed(node: name, name: parameterName, known: parameterInfo.map(\.name))
        }
        return found
    }

    /// The current value of the parameter called `parameterName`.
    public func parameter(named parameterName: String) throws(GraphError) -> Float {
        parameter(try parameterDescription(named: parameterName).id)
    }

    /// Sets the parameter called `parameterName`; see `setParameter(_:_:)`.
    public func setParameter(named parameterName: String, _ value: Float) throws(GraphError) {
        try setParameter(try parameterDescription(named: parameterName).id, value)
    }

    /// Sets an indexed parameter to the choice called `choice` (case ignored).
    public func setParameter(named parameterName: String, choice: String) throws(GraphError) {
        let description = try parameterDescription(named: parameterName)
        try setParameter(description.id, Float(try choiceIndex(choice, of: description)))
    }

    /// The index of `choice` among an indexed parameter's choices (case ignored).
    public func choiceIndex(_ choice: String, of description: ParameterDescription) throws(GraphError) -> Int {
        guard case .indexed(let choices) = description.unit else {
            throw .noSuchChoice(node: name, parameter: description.name, choice: choice, known: [])
        }
        guard let index = choices.firstIndex(where: { $0.lowercased() == choice.lowercased() }) else {
            throw .noSuchChoice(node: name, parameter: description.name, choice: choice, known: choices)
        }
        return index
    }

    /// Called after a parameter changed, between slices; override to react (start a ramp).
    open func parameterDidChange(_ id: ParameterID) {}

    // MARK: Lifecycle hooks

    /// What a plan says about the node beyond its formats (`preset 'Rock', accurate`), or nil.
    open var planDetail: String? { nil }

    /// The frames this node gives for `frames` frames of input (a stream of known length); nil
    /// when it cannot be known before rendering. The default keeps the length: only nodes that
    /// change it (time stretching, trimming) override this, so fades and progress can count on it.
    open func outputFrames(forInputFrames frames: Int64) -> Int64? { frames }

    /// The format an output bus produces when none was set explicitly.
    /// The default keeps the format of input bus 0.
    open func defaultOutputFormat(bus: Int) -> StreamFormat? {
        inputBusCount > 0 ? streamFormat(scope: .input, bus: 0) : nil
    }

    /// Checks the resolved formats; throw `GraphError.unsupportedFormat` to refuse them.
    /// The default requires the canonical form on every bus and output formats equal to input bus 0's.
    open func validateFormats() throws(GraphError) {
        for bus in 0..<inputBusCount {
            try requireCanonical(scope: .input, bus: bus)
        }
        for bus in 0..<outputBusCount {
            try requireCanonical(scope: .output, bus: bus)
            if inputBusCount > 0, let input = streamFormat(scope: .input, bus: 0),
               let output = streamFormat(scope: .output, bus: bus), input != output {
                throw .unsupportedFormat(node: name, scope: .output, bus: bus, format: output,
                                         reason: "this node does not convert; its input is \(input)")
            }
        }
    }

    /// The stream format of a bus, which initializing the graph settles; throws
    /// `GraphError.missingFormat` while it is neither set nor propagated.
    public func requiredStreamFormat(scope: Scope, bus: Int = 0) throws(GraphError) -> StreamFormat {
        guard let format = streamFormat(scope: scope, bus: bus) else {
            throw .missingFormat(node: name, scope: scope, bus: bus)
        }
        return format
    }

    /// Throws unless the bus carries Float32 non-interleaved audio.
    public func requireCanonical(scope: Scope, bus: Int) throws(GraphError) {
        let format = try requiredStreamFormat(scope: scope, bus: bus)
        if !format.isCanonical {
            throw .unsupportedFormat(node: name, scope: scope, bus: bus, format: format,
                                     reason: "nodes take Float32 non-interleaved audio; convert at the file edge")
        }
    }

    /// Makes buffers, coefficients and state; formats are fixed from here to uninitialize.
    open func allocateRenderResources() throws {}

    /// Frees what `allocateRenderResources()` made.
    open func deallocateRenderResources() {}

    /// Clears the render state (filter memories, ramps, positions, sample time) so the node
    /// renders again as it did after initialize, keeping its parameters: Core Audio's
    /// `AudioUnitReset`, called by `Graph.reset()` between slices. Override it in every node
    /// that keeps state across slices; a source throws if it cannot go back to its start.
    /// The default does nothing: a stateless node has nothing to clear.
    open func reset() throws {}

    /// Renders `request.frameCount` frames of output bus `request.bus` into `output`,
    /// returning how many are audio (fewer means the stream ends; the rest are zeros).
    /// The default pulls input bus 0 straight into `output`.
    open func render(_ flags: inout RenderActionFlags, _ request: RenderRequest, _ output: AudioBufferList) throws -> Int {
        try pullInput(bus: 0, &flags, request, into: output)
    }

    /// Pulls input bus `bus` for the frames of `request` into `buffers`: the recursive step of the pull model.
    public final func pullInput(bus: Int, _ flags: inout RenderActionFlags, _ request: RenderRequest,
                                into buffers: AudioBufferList) throws -> Int {
        switch inputSources[bus] {
        case .node(let source, let sourceBus)?:
            var upstream = request
            upstream.bus = sourceBus
            let frames = try source.render(&flags, upstream, buffers)
            source.tapOutput(bus: sourceBus, buffers, frames: min(request.frameCount, max(0, frames)))
            return frames
        case .callback(let callback)?:
            var upstream = request
            upstream.bus = bus
            return try callback(&flags, upstream, buffers)
        case nil:
            throw GraphError.inputNotFed(node: name, bus: bus)
        }
    }

    // MARK: Taps

    /// Counts the `frames` frames output bus `bus` just gave into `buffers` and shows them to
    /// the bus's tap, if it has one: called once for every slice the bus gives, in order.
    final func tapOutput(bus: Int, _ buffers: AudioBufferList, frames: Int) {
        let sampleTime = outputTaps[bus].framesGiven
        outputTaps[bus].framesGiven += Int64(frames)
        if frames > 0, let block = outputTaps[bus].block {
            block(TapBuffer(buffers, frameCount: frames), sampleTime)
        }
    }

    /// Starts every output bus's frame count, which is its tap's sample time, at 0 again.
    final func restartOutputFrameCounts() {
        for bus in outputTaps.indices { outputTaps[bus].framesGiven = 0 }
    }
}
