/// The two plugin standards aurender hosts.
public enum PluginStandard: String, Sendable {
    /// LV2, through lilv.
    case lv2 = "LV2"
    /// LADSPA, through dlopen and `ladspa.h`.
    case ladspa = "LADSPA"
}

/// One port of a plugin, as its metadata states it.
public struct PluginPort: Sendable, Equatable {
    /// What a port carries.
    public enum Kind: String, Sendable {
        /// Audio samples, one buffer per block.
        case audio
        /// One value per block: a knob or a meter.
        case control
        /// LV2 control voltage: a value per sample.
        case cv
        /// LV2 atoms: events such as MIDI or patch messages.
        case atom
        /// Anything else.
        case other
    }

    /// The port's index on the plugin.
    public var index: Int
    /// The name a parameter of the node takes from it (`gain`): the LV2 symbol, or the LADSPA
    /// name in lower case with `_` for anything not a letter or digit.
    public var symbol: String
    /// The name the plugin gives it (`Gain`).
    public var name: String
    /// What it carries.
    public var kind: Kind
    /// Whether the plugin reads it (else it writes it).
    public var isInput: Bool
    /// The lowest and highest value of a control port (infinite where the plugin states none).
    public var range: ClosedRange<Float>
    /// The value a control port starts at.
    public var defaultValue: Float
    /// Whether a control port is an on/off switch.
    public var isToggle: Bool
    /// Whether the plugin runs without the port connected (LV2 `connectionOptional`).
    public var isOptional: Bool
    /// Whether the range and default are fractions of the sample rate (LADSPA `SAMPLE_RATE`).
    public var scalesWithSampleRate: Bool

    /// The range at `sampleRate`.
    public func range(at sampleRate: Double) -> ClosedRange<Float> {
        scalesWithSampleRate ? range.lowerBound * Float(sampleRate)...range.upperBound * Float(sampleRate) : range
    }

    /// The default at `sampleRate`.
    public func defaultValue(at sampleRate: Double) -> Float {
        scalesWithSampleRate ? defaultValue * Float(sampleRate) : defaultValue
    }
}

/// What a plugin is, read from its metadata without instantiating it: enough to list it, check
/// what it needs and make a node of it.
public struct PluginDescription: Sendable {
    /// Its identifier: an LV2 URI, or `ladspa:FILE.so:LABEL`.
    public var id: String
    /// The standard it follows.
    public var standard: PluginStandard
    /// Its name.
    public var name: String
    /// Its LADSPA label (`amp_stereo`), nil for LV2.
    public var label: String?
    /// The shared library it lives in.
    public var library: String
    /// Every port, in index order.
    public var ports: [PluginPort]
    /// The control output port where it reports its latency in frames, if any.
    public var latencyPort: Int?
    /// The features it cannot run without (LV2 URIs).
    public var requiredFeatures: [String]
    /// Why it cannot be used as an effect (an instrument, no audio), or nil when it can.
    public var refusal: String?
    /// Whether it must be run in blocks of one fixed length (LV2 `bufsz:fixedBlockLength`).
    public var needsFixedBlockLength: Bool
    /// Whether its blocks must be a power of two long (LV2 `bufsz:powerOf2BlockLength`).
    public var needsPowerOf2BlockLength: Bool
    /// Whether it breaks when an output shares a buffer with an input; aurender always gives
    /// outputs their own buffers, so such plugins run as they are.
    public var isInPlaceBroken: Bool

    /// The audio input ports, in order.
    public var audioInputs: [PluginPort] { ports.filter { $0.kind == .audio && $0.isInput } }
    /// The audio output ports, in order.
    public var audioOutputs: [PluginPort] { ports.filter { $0.kind == .audio && !$0.isInput } }
    /// The control input ports: the node's parameters, in order.
    public var controls: [PluginPort] { ports.filter { $0.kind == .control && $0.isInput } }
}

/// A plugin cannot be found, made or given a value: every message names the plugin.
public enum PluginError: Error, Equatable, CustomStringConvertible {
    /// No installed plugin has the identifier; `nearest` lists the closest identifiers installed.
    case notInstalled(id: String, nearest: [String])
    /// The plugin needs a feature the host does not provide.
    case missingFeature(plugin: String, feature: String)
    /// The plugin is not an effect aurender can run (an instrument, no audio in or out, a
    /// required CV or atom port).
    case refused(plugin: String, reason: String)
    /// The plugin's library could not be loaded or instantiated.
    case cannotLoad(plugin: String, reason: String)
    /// The plugin's audio ports do not fit the stream's channels.
    case channelMismatch(plugin: String, inputs: Int, outputs: Int, channels: Int)
    /// The plugin has no preset with that URI or label.
    case noSuchPreset(plugin: String, preset: String, known: [String])
    /// A control value given for the plugin is wrong: no such control, not a number, out of range.
    case badControl(plugin: String, control: String, problem: String)

    /// The message a user reads, naming the plugin.
    public var description: String {
        switch self {
        case .notInstalled(let id, let nearest):
            "plugin '\(id)' is not installed" + (nearest.isEmpty ? "" : " (nearest: \(nearest.joined(separator: ", ")))")
        case .missingFeature(let plugin, let feature):
            "plugin '\(plugin)' requires the feature \(feature), which aurender does not provide"
        case .refused(let plugin, let reason): "plugin '\(plugin)' cannot be used: \(reason)"
        case .cannotLoad(let plugin, let reason): "plugin '\(plugin)' cannot be loaded: \(reason)"
        case .channelMismatch(let plugin, let inputs, let outputs, let channels):
            "plugin '\(plugin)' has \(inputs) audio input(s) and \(outputs) output(s); it cannot process \(channels)-channel audio "
                + "(aurender runs a 1-in 1-out plugin once per channel, or a plugin with as many ins and outs as channels)"
        case .noSuchPreset(let plugin, let preset, let known):
            "plugin '\(plugin)' has no preset '\(preset)'" + (known.isEmpty ? " (it has none)" : " (it has \(known.map { "'\($0)'" }.joined(separator: ", ")))")
        case .badControl(let plugin, let control, let problem): "plugin '\(plugin)': control '\(control)' \(problem)"
        }
    }
}
