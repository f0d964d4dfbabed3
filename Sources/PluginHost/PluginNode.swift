import AudioGraph

/// A LADSPA or LV2 plugin as a node: one input bus, one output bus of the same format, the
/// plugin's control input ports as named, ranged parameters (automatable like the EQ's).
///
/// A plugin with as many audio inputs and outputs as the stream has channels runs as one
/// instance; a 1-in 1-out plugin runs one instance per channel. Instances are made and
/// activated at initialize and run on buffers made there; outputs always have their own
/// buffers, so in-place-broken plugins run safely. A plugin that needs a fixed or power-of-two
/// block length runs in blocks of `PluginNode.fixedBlockLength` frames whatever the slice size.
///
/// The latency a plugin reports (read after its first run) is compensated and its tail rendered
/// up to `tailLimit` frames, by `BlockEffectNode`'s rules.
public final class PluginNode: BlockEffectNode {
    /// The block length for plugins that require a fixed or power-of-two one.
    public static let fixedBlockLength = 1024
    /// The plugin hosted.
    public let plugin: LoadedPlugin
    /// The sample rate its ranges and instances use.
    public let sampleRate: Double
    private let controlPorts: [PluginPort]

    private var instances: [PluginInstance] = []
    private var controlValues: [UnsafeMutablePointer<Float>] = []
    /// A node hosting `plugin` at `sampleRate`, its controls at their defaults, the preset's
    /// values, then `controls` (by port symbol or name) applied; `tailLimit` caps the tail in frames.
    public init(name: String, plugin: LoadedPlugin, sampleRate: Double, preset: String? = nil,
                controls: [(name: String, value: Float)] = [], tailLimit: Int64) throws(PluginError) {
        self.plugin = plugin
        self.sampleRate = sampleRate
        controlPorts = plugin.description.controls
        let description = plugin.description
        super.init(name: name, tailLimit: tailLimit,
                   fixedBlockLength: description.needsFixedBlockLength || description.needsPowerOf2BlockLength ? Self.fixedBlockLength : nil)
        if let preset {
            for (symbol, value) in try plugin.values(ofPreset: preset).sorted(by: { $0.key < $1.key }) {
                if let port = controlPorts.firstIndex(where: { $0.symbol == symbol }) {
                    try? setParameter(port, min(max(value, parameterDescriptions[port].range.lowerBound), parameterDescriptions[port].range.upperBound))
                }
            }
        }
        for control in controls { try setControl(control.name, control.value) }
    }

    /// Sets the control called `symbol`: its port symbol exactly, else the symbol or the port's
    /// name matched as presets are (`Gain` and `GAIN` find `gain`, `Delay (Seconds)` finds
    /// `delay_seconds`). Errors name the plugin and give the range.
    public func setControl(_ symbol: String, _ value: Float) throws(PluginError) {
        let id = plugin.description.id
        let key = NameMatching.key(symbol)
        guard let index = controlPorts.firstIndex(where: { $0.symbol == symbol })
                ?? controlPorts.firstIndex(where: { NameMatching.key($0.symbol) == key || NameMatching.key($0.name) == key }) else {
            throw .badControl(plugin: id, control: symbol,
                              problem: "does not exist (it has \(controlPorts.isEmpty ? "none" : controlPorts.map(\.symbol).joined(separator: ", ")))")
        }
        let description = parameterDescriptions[index]
        guard description.accepts(value) else {
            throw .badControl(plugin: id, control: symbol, problem: "must be from \(Self.text(description.range.lowerBound)) to "
                              + "\(Self.text(description.range.upperBound))\(description.unit == .boolean ? " (a switch)" : ""), not \(Self.text(value))")
        }
        try? setParameter(index, value)
    }

    static func text(_ value: Float) -> String {
        value.isInfinite ? (value < 0 ? "-inf" : "inf") : value == value.rounded() && abs(value) < 1e9 ? String(Int(value)) : String(value)
    }

    public override var parameterDescriptions: [ParameterDescription] {
        controlPorts.enumerated().map { id, port in
            let range = port.range(at: sampleRate)
            return ParameterDescription(id: id, name: port.symbol, range: range,
                                        defaultValue: port.isToggle ? (port.defaultValue >= 0.5 ? 1 : 0) : port.defaultValue(at: sampleRate),
                                        unit: port.isToggle ? .boolean : .linear)
        }
    }

    public override var planDetail: String? {
        let description = plugin.description
        var parts = ["\(description.standard.rawValue) \(description.id)"]
        if instances.count > 1 { parts.append("one instance per channel") }
        if description.needsFixedBlockLength || description.needsPowerOf2BlockLength { parts.append("blocks of \(Self.fixedBlockLength)") }
        parts += controlPorts.indices.map { "\(controlPorts[$0].symbol) \(Self.text(parameter($0)))" }
        return parts.joined(separator: ", ")
    }

    public override func validateFormats() throws(GraphError) {
        try super.validateFormats()
        guard let format = streamFormat(scope: .input, bus: 0) else { throw .missingFormat(node: name, scope: .input, bus: 0) }
        let ins = plugin.description.audioInputs.count, outs = plugin.description.audioOutputs.count
        if !(ins == outs && (ins == 1 || ins == format.channelCount)) {
            throw .unsupportedFormat(node: name, scope: .input, bus: 0, format: format,
                                     reason: PluginError.channelMismatch(plugin: plugin.description.id, inputs: ins, outputs: outs,
                                                                         channels: format.channelCount).description)
        }
    }

    public override func allocateBlocks(input: StreamFormat, output: StreamFormat) throws {
        guard let inputs = blockInput, let outputs = blockOutput else { return }
        let channels = input.channelCount
        let description = plugin.description
        let blocks = BlockLengths(minimum: fixedBlockLength ?? 1, maximum: blockCapacity,
                                  nominal: fixedBlockLength ?? min(maximumFramesPerSlice, blockCapacity))
        let perChannel = description.audioInputs.count == 1 && channels > 1
        let audioIn = description.audioInputs.map(\.index), audioOut = description.audioOutputs.map(\.index)
        for instanceIndex in 0..<(perChannel ? channels : 1) {
            let instance = try plugin.instantiate(sampleRate, blocks)
            let values = UnsafeMutablePointer<Float>.allocate(capacity: max(1, description.ports.count))
            values.initialize(repeating: 0, count: max(1, description.ports.count))
            for port in description.ports {
                switch port.kind {
                case .control:
                    values[port.index] = port.defaultValue(at: sampleRate)
                    instance.connect(port: port.index, to: values + port.index)
                case .audio: break
                case .cv, .atom, .other: instance.connect(port: port.index, to: nil)
                }
            }
            for (slot, port) in audioIn.enumerated() { instance.connect(port: port, to: inputs[perChannel ? instanceIndex : slot]) }
            for (slot, port) in audioOut.enumerated() { instance.connect(port: port, to: outputs[perChannel ? instanceIndex : slot]) }
            instances.append(instance)
            controlValues.append(values)
        }
        for id in controlPorts.indices { parameterDidChange(id) }
        for instance in instances { instance.activate() }
    }

    public override func deallocateBlocks() {
        instances.removeAll()
        for values in controlValues { values.deallocate() }
        controlValues.removeAll()
    }

    public override func parameterDidChange(_ id: ParameterID) {
        let port = controlPorts[id].index
        for index in 0..<controlValues.count { controlValues[index][port] = parameter(id) }
    }

    public override func resetBlocks() throws {
        for instance in instances {
            instance.deactivate()
            instance.activate()
        }
    }

    public override func processBlock(input: AudioBufferList, output: AudioBufferList, frames: Int) throws {
        for index in 0..<instances.count { instances[index].run(frames: frames) }
    }

    /// The latency the plugin's latency port reports, read after its first run.
    public override var processingLatency: Int {
        guard let port = plugin.description.latencyPort, let values = controlValues.first else { return 0 }
        return Int(max(0, values[port].rounded()))
    }
}
