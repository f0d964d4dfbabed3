/// A graph or node refused an operation; the message names the node and bus at fault.
public enum GraphError: Error, Equatable, CustomStringConvertible {
    case initialized(node: String, operation: String)
    case graphInitialized(operation: String)
    case notInitialized
    case noSuchBus(node: String, scope: Scope, bus: Int)
    case duplicateNodeName(String)
    case nodeNotInGraph(String)
    case busAlreadyFed(node: String, bus: Int)
    case outputAlreadyConnected(node: String, bus: Int)
    case noOutputNode
    case multipleOutputNodes([String])
    case cycle([String])
    case inputNotFed(node: String, bus: Int)
    case missingFormat(node: String, scope: Scope, bus: Int)
    case invalidFormat(node: String, scope: Scope, bus: Int, reason: FormatError)
    case unsupportedFormat(node: String, scope: Scope, bus: Int, format: StreamFormat, reason: String)
    case formatMismatch(source: String, sourceBus: Int, destination: String, destinationBus: Int,
                        sourceFormat: StreamFormat, destinationFormat: StreamFormat)
    case tooManyFrames(node: String, requested: Int, maximum: Int)
    case invalidMaximumFramesPerSlice(Int)
    case noSuchParameter(node: String, id: ParameterID)
    case parameterOutOfRange(node: String, name: String, value: Float, range: ClosedRange<Float>)
    case parameterNotWhole(node: String, name: String, value: Float)
    case noParameterNamed(node: String, name: String, known: [String])
    case parameterNotANumber(node: String, name: String, text: String)
    case parameterFixedWhileRendering(node: String, name: String)
    case noSuchChoice(node: String, parameter: String, choice: String, known: [String])
    case scheduledBeforeStart(node: String, frame: Int64)
    /// A ramp of more steps than `Graph.maximumRampSteps`, or one ending past the last frame
    /// a stream can count: its steps are scheduled one by one, so it is refused, not held.
    case rampTooLong(node: String, maximum: Int64)
    case cannotReset(node: String, reason: String)
    /// A second tap on one output bus: a bus has one tap at a time, as in AVAudioEngine.
    case tapAlreadyInstalled(node: String, bus: Int)

    public var description: String {
        switch self {
        case .initialized(let node, let operation):
            "cannot \(operation) on node '\(node)' while it is initialized; uninitialize the graph first"
        case .graphInitialized(let operation):
            "cannot \(operation) while the graph is initialized; uninitialize it first"
        case .notInitialized:
            "the graph is not initialized; call initialize() before rendering"
        case .noSuchBus(let node, let scope, let bus):
            "node '\(node)' has no \(scope.rawValue) bus \(bus)"
        case .duplicateNodeName(let name):
            "the graph already has a node named '\(name)'; node names must be unique"
        case .nodeNotInGraph(let name):
            "node '\(name)' is not in this graph; add it first"
        case .busAlreadyFed(let node, let bus):
            "input bus \(bus) of node '\(node)' is already fed; disconnect it first"
        case .outputAlreadyConnected(let node, let bus):
            "output bus \(bus) of node '\(node)' already feeds another input; an output bus feeds one input"
        case .noOutputNode:
            "the graph has no output node; add a GenericOutput"
        case .multipleOutputNodes(let names):
            "the graph has \(names.count) output nodes (\(names.joined(separator: ", "))); it needs exactly one"
        case .cycle(let names):
            "the connections form a cycle: \(names.joined(separator: " -> "))"
        case .inputNotFed(let node, let bus):
            "input bus \(bus) of node '\(node)' is not fed; connect a node or set a render callback"
        case .missingFormat(let node, let scope, let bus):
            "\(scope.rawValue) bus \(bus) of node '\(node)' has no stream format; set one"
        case .invalidFormat(let node, let scope, let bus, let reason):
            "\(scope.rawValue) bus \(bus) of node '\(node)': \(reason)"
        case .unsupportedFormat(let node, let scope, let bus, let format, let reason):
            "\(scope.rawValue) bus \(bus) of node '\(node)' cannot take \(format): \(reason)"
        case .formatMismatch(let source, let sourceBus, let destination, let destinationBus, let sourceFormat, let destinationFormat):
            "output bus \(sourceBus) of '\(source)' gives \(sourceFormat) but input bus \(destinationBus) of '\(destination)' "
                + "expects \(destinationFormat); insert a format converter"
        case .tooManyFrames(let node, let requested, let maximum):
            "node '\(node)' was asked for \(requested) frames, more than its maximum of \(maximum) per slice"
        case .invalidMaximumFramesPerSlice(let value):
            "maximum frames per slice must be from \(Graph.framesPerSliceRange.lowerBound) to \(Graph.framesPerSliceRange.upperBound), not \(value)"
        case .noSuchParameter(let node, let id):
            "node '\(node)' has no parameter \(id)"
        case .parameterOutOfRange(let node, let name, let value, let range):
            "parameter '\(name)' of node '\(node)' must be from \(range.lowerBound) to \(range.upperBound), not \(value)"
        case .parameterNotWhole(let node, let name, let value):
            "parameter '\(name)' of node '\(node)' takes a whole number (a switch or a choice), not \(value)"
        case .noParameterNamed(let node, let name, let known):
            "node '\(node)' has no parameter '\(name)'"
                + (known.isEmpty ? "; it has none" : " (it has \(known.joined(separator: ", ")))")
        case .parameterFixedWhileRendering(let node, let name):
            "parameter '\(name)' of node '\(node)' is fixed while rendering; set it before the render starts"
        case .parameterNotANumber(let node, let name, let text):
            "parameter '\(name)' of node '\(node)' takes a number, not '\(text)'"
        case .noSuchChoice(let node, let parameter, let choice, let known):
            "parameter '\(parameter)' of node '\(node)' has no choice '\(choice)' (it has \(known.map { "'\($0)'" }.joined(separator: ", ")))"
        case .scheduledBeforeStart(let node, let frame):
            "a change to node '\(node)' cannot be scheduled at frame \(frame); frames count from 0"
        case .rampTooLong(let node, let maximum):
            "a ramp on node '\(node)' is too long: a ramp takes at most \(maximum) steps of 32 frames"
        case .cannotReset(let node, let reason):
            "node '\(node)' cannot be reset: \(reason)"
        case .tapAlreadyInstalled(let node, let bus):
            "output bus \(bus) of node '\(node)' already has a tap; remove it before installing another"
        }
    }
}
