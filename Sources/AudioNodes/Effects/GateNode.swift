import AudioDSP
import AudioGraph

/// Silences what is quieter than a threshold (`NoiseGate`): opens while the signal reaches it,
/// holds, then closes down to the range; the channels are linked.
///
/// Every setting is a parameter, so events can ride it; a change applies from the next slice.
public final class GateNode: DynamicsNode<NoiseGate> {
    /// The node's parameters.
    public enum Parameter: Int, CaseIterable, Sendable {
        case threshold, attack, hold, release, range
    }

    static let descriptions: [ParameterDescription] = [
        ParameterDescription(id: Parameter.threshold.rawValue, name: "threshold", range: -120...0, defaultValue: -50, unit: .decibels),
        ParameterDescription(id: Parameter.attack.rawValue, name: "attack", range: 0...1, defaultValue: 0.001, unit: .seconds),
        ParameterDescription(id: Parameter.hold.rawValue, name: "hold", range: 0...5, defaultValue: 0.02, unit: .seconds),
        ParameterDescription(id: Parameter.release.rawValue, name: "release", range: 0...5, defaultValue: 0.1, unit: .seconds),
        ParameterDescription(id: Parameter.range.rawValue, name: "range", range: -120...0, defaultValue: -80, unit: .decibels),
    ]

    /// A gate starting at `settings`; a setting out of its parameter's range is refused.
    public init(name: String = "gate", settings: NoiseGate.Settings) throws(GraphError) {
        super.init(name: name, inputBusCount: 1, outputBusCount: 1)
        for (parameter, value) in [(Parameter.threshold, settings.threshold), (.attack, settings.attack), (.hold, settings.hold),
                                   (.release, settings.release), (.range, settings.range)] {
            try setParameter(parameter.rawValue, Float(value))
        }
    }

    public override var parameterDescriptions: [ParameterDescription] { Self.descriptions }

    /// The settings the parameters stand at.
    public override var settings: NoiseGate.Settings {
        func value(_ parameter: Parameter) -> Double { Double(self.parameter(parameter.rawValue)) }
        return NoiseGate.Settings(threshold: value(.threshold), attack: value(.attack), hold: value(.hold), release: value(.release),
                                  range: value(.range))
    }

    /// The gate as a catalogued node kind: its settings are its parameters.
    public static let kind = NodeKind(
        name: "gate", summary: "a noise gate: silences what stays under a threshold, with attack, hold, release and range; channels linked",
        settings: [], parameters: descriptions,
        make: { name, _, _ in try GateNode(name: name, settings: NoiseGate.Settings(threshold: -50)) })
}
