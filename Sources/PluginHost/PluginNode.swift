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
/// The latency a plugin reports (read after its first run) is compensated: its first frames
/// are dropped and the input is followed by as many frames of silence, so output frame n is
/// the plugin's answer to input frame n. After the input ends the plugin keeps running on
/// silence while its output (its tail: a reverb's decay, a delay's echoes) reaches −120 dBFS
/// in some 1024-frame stretch, up to `tailLimit` frames; the output ends after the last frame
/// at or above that level.
public final class PluginNode: AudioNode {
    /// The block length for plugins that require a fixed or power-of-two one.
    public static let fixedBlockLength = 1024
    /// The level under which a tail counts as silent: −120 dBFS.
    public static let tailThreshold: Float = 1e-6
    /// The stretch of tail that must be silent throughout for the tail to end.
    public static let tailStretch = 1024

    /// The plugin hosted.
    public let plugin: LoadedPlugin
    /// The sample rate its ranges and instances use.
    public let sampleRate: Double
    /// The most frames of tail rendered after the input (and the latency) ends.
    public let tailLimit: Int64
    private let controlPorts: [PluginPort]

    private var instances: [PluginInstance] = []
    private var controlValues: [UnsafeMutablePointer<Float>] = []
    private var inputs: AudioBufferStorage?
    private var outputs: AudioBufferStorage?
    private var fifo: AudioBufferStorage?
    private var pullView: UnsafeMutableBufferPointer<UnsafeMutablePointer<Float>>?
    private var blockLength = 0
    private var stream = StreamPosition()

    /// Where the node is in its stream: frames fed to the plugin, the input's length once
    /// known, the latency, and the frames waiting in the FIFO.
    private struct StreamPosition {
        /// Frames the plugin has run.
        var position: Int64 = 0
        /// Frames pulled from the input.
        var inputFrames: Int64 = 0
        var inputEnded = false
        var latency: Int64?
        /// The FIFO's first unread frame, its end of committed frames, and its end of frames
        /// held back (a quiet tail stretch that is emitted only if sound follows).
        var read = 0, committed = 0, written = 0
        /// Whether the current tail stretch had a frame at or above the threshold.
        var stretchLoud = false
        var finished = false
    }

    /// A node hosting `plugin` at `sampleRate`, its controls at their defaults, the preset's
    /// values, then `controls` (by port symbol or name) applied; `tailLimit` caps the tail in frames.
    public init(name: String, plugin: LoadedPlugin, sampleRate: Double, preset: String? = nil,
                controls: [(name: String, value: Float)] = [], tailLimit: Int64) throws(PluginError) {
        self.plugin = plugin
        self.sampleRate = sampleRate
        self.tailLimit = tailLimit
        controlPorts = plugin.description.controls
        super.init(name: name, inputBusCount: 1, outputBusCount: 1)
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

    public override func allocateRenderResources() throws {
        let channels = streamFormat(scope: .input, bus: 0)!.channelCount
        let description = plugin.description
        let fixed = description.needsFixedBlockLength || description.needsPowerOf2BlockLength
        blockLength = fixed ? Self.fixedBlockLength : max(maximumFramesPerSlice, Self.tailStretch)
        let blocks = BlockLengths(minimum: fixed ? blockLength : 1, maximum: blockLength,
                                  nominal: fixed ? blockLength : min(maximumFramesPerSlice, blockLength))
        let inputs = AudioBufferStorage(channelCount: channels, capacity: blockLength)
        let outputs = AudioBufferStorage(channelCount: channels, capacity: blockLength)
        self.inputs = inputs
        self.outputs = outputs
        fifo = AudioBufferStorage(channelCount: channels, capacity: blockLength + 2 * Self.tailStretch)
        pullView = .allocate(capacity: channels)
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
            for (slot, port) in audioIn.enumerated() { instance.connect(port: port, to: inputs.list[perChannel ? instanceIndex : slot]) }
            for (slot, port) in audioOut.enumerated() { instance.connect(port: port, to: outputs.list[perChannel ? instanceIndex : slot]) }
            instances.append(instance)
            controlValues.append(values)
        }
        for id in controlPorts.indices { parameterDidChange(id) }
        for instance in instances { instance.activate() }
        stream = StreamPosition()
    }

    public override func deallocateRenderResources() {
        instances.removeAll()
        for values in controlValues { values.deallocate() }
        controlValues.removeAll()
        inputs = nil
        outputs = nil
        fifo = nil
        pullView?.deallocate()
        pullView = nil
    }

    public override func parameterDidChange(_ id: ParameterID) {
        let port = controlPorts[id].index
        for index in 0..<controlValues.count { controlValues[index][port] = parameter(id) }
    }

    public override func reset() throws {
        for instance in instances {
            instance.deactivate()
            instance.activate()
        }
        stream = StreamPosition()
    }

    public override func render(_ flags: inout RenderActionFlags, _ request: RenderRequest, _ output: AudioBufferList) throws -> Int {
        guard let fifo else { return 0 }
        var produced = 0
        while produced < request.frameCount {
            let available = stream.committed - stream.read
            if available > 0 {
                let count = min(available, request.frameCount - produced)
                for channel in 0..<output.channelCount {
                    (output[channel] + produced).update(from: fifo.list[channel] + stream.read, count: count)
                }
                stream.read += count
                produced += count
            } else if stream.finished {
                break
            } else {
                try processBlock(&flags, wanted: request.frameCount - produced)
            }
        }
        output.endStream(filled: produced, requested: request.frameCount, flags: &flags)
        return produced
    }

    /// Runs the plugin on one block of input (silence once the input ended) and moves its
    /// output into the FIFO: latency frames dropped, tail frames held back until sound follows.
    private func processBlock(_ flags: inout RenderActionFlags, wanted: Int) throws {
        guard let inputs, let outputs, let fifo, let pullView else { return }
        let fixed = plugin.description.needsFixedBlockLength || plugin.description.needsPowerOf2BlockLength
        let frames = fixed ? blockLength : min(blockLength, max(wanted, 1))
        var filled = 0
        while filled < frames && !stream.inputEnded {
            let count = min(frames - filled, maximumFramesPerSlice)
            for channel in 0..<pullView.count { pullView[channel] = inputs.list[channel] + filled }
            var pullFlags = RenderActionFlags()
            let request = RenderRequest(timeStamp: AudioTimeStamp(sampleTime: stream.inputFrames), bus: 0, frameCount: count)
            let got = try pullInput(bus: 0, &pullFlags, request, into: AudioBufferList(channels: pullView, capacity: count))
            filled += got
            stream.inputFrames += Int64(got)
            if got < count || pullFlags.contains(.endOfStream) { stream.inputEnded = true }
        }
        if filled < frames { inputs.list.zero(from: filled, frames: frames - filled) }
        for index in 0..<instances.count { instances[index].run(frames: frames) }
        if stream.latency == nil {
            let port = plugin.description.latencyPort
            stream.latency = port.map { Int64(max(0, controlValues[0][$0].rounded())) } ?? 0
        }
        if stream.read == stream.committed {
            let held = stream.written - stream.committed
            for channel in 0..<fifo.list.channelCount {
                fifo.list[channel].update(from: fifo.list[channel] + stream.committed, count: held)
            }
            stream.read = 0
            stream.committed = 0
            stream.written = held
        }
        let latency = stream.latency ?? 0
        let start = stream.position
        stream.position += Int64(frames)
        let bodyEnd: Int64 = stream.inputEnded ? stream.inputFrames + latency : .max
        let bodyFrom = Int(min(max(latency - start, 0), Int64(frames)))
        let bodyTo = Int(min(max(bodyEnd - start, Int64(bodyFrom)), Int64(frames)))
        if bodyTo > bodyFrom {
            for channel in 0..<fifo.list.channelCount {
                (fifo.list[channel] + stream.written).update(from: outputs.list[channel] + bodyFrom, count: bodyTo - bodyFrom)
            }
            stream.written += bodyTo - bodyFrom
            stream.committed = stream.written
        }
        for frame in max(bodyTo, bodyFrom)..<frames where !stream.finished {
            appendTail(frame, intoTail: start + Int64(frame) - bodyEnd)
        }
        if stream.finished { stream.written = stream.committed }
    }

    /// Holds back one frame of tail, `intoTail` frames after the aligned input's end; a frame
    /// at or above the threshold commits the frames before it. A silent stretch, or the limit, ends the stream.
    private func appendTail(_ frame: Int, intoTail: Int64) {
        guard let outputs, let fifo else { return }
        if intoTail >= tailLimit || (intoTail > 0 && intoTail % Int64(Self.tailStretch) == 0 && !stream.stretchLoud) {
            stream.finished = true
            return
        }
        if intoTail % Int64(Self.tailStretch) == 0 { stream.stretchLoud = false }
        var loud = false
        for channel in 0..<fifo.list.channelCount {
            let sample = outputs.list[channel][frame]
            fifo.list[channel][stream.written] = sample
            if abs(sample) >= Self.tailThreshold { loud = true }
        }
        stream.written += 1
        if loud {
            stream.committed = stream.written
            stream.stretchLoud = true
        }
    }
}
