import AudioDSP
import AudioGraph

/// Compresses a stream's dynamics: above the threshold, levels grow by 1/ratio as fast, with a
/// soft knee, attack and release, and makeup gain (`Compressor`); the channels are linked.
///
/// Every setting is a parameter, so events can ride it; a change applies from the next slice.
public final class CompressorNode: DynamicsNode<Compressor> {
    /// The node's parameters.
    public enum Parameter: Int, CaseIterable, Sendable {
        case threshold, ratio, attack, release, knee, makeup, detection
    }

    /// The parameters' descriptions, shared by the node and its catalogued kind.
    static let descriptions: [ParameterDescription] = [
        ParameterDescription(id: Parameter.threshold.rawValue, name: "threshold", range: -80...0, defaultValue: -20, unit: .decibels),
        ParameterDescription(id: Parameter.ratio.rawValue, name: "ratio", range: 1...100, defaultValue: 4, unit: .linear),
        ParameterDescription(id: Parameter.attack.rawValue, name: "attack", range: 0...1, defaultValue: 0.01, unit: .seconds),
        ParameterDescription(id: Parameter.release.rawValue, name: "release", range: 0...5, defaultValue: 0.1, unit: .seconds),
        ParameterDescription(id: Parameter.knee.rawValue, name: "knee", range: 0...24, defaultValue: 6, unit: .decibels),
        ParameterDescription(id: Parameter.makeup.rawValue, name: "makeup", range: -24...40, defaultValue: 0, unit: .decibels),
        .indexed(id: Parameter.detection.rawValue, name: "detection", choices: Compressor.Detection.allCases.map(\.rawValue)),
    ]

    /// A compressor starting at `settings`; a setting out of its parameter's range is refused.
    public init(name: String = "compressor", settings: Compressor.Settings) throws(GraphError) {
        super.init(name: name, inputBusCount: 1, outputBusCount: 1)
        for (parameter, value) in [(Parameter.threshold, settings.threshold), (.ratio, settings.ratio), (.attack, settings.attack),
                                   (.release, settings.release), (.knee, settings.knee), (.makeup, settings.makeup)] {
            try setParameter(parameter.rawValue, Float(value))
        }
        try setParameter(Parameter.detection.rawValue, Float(Compressor.Detection.allCases.firstIndex(of: settings.detection)!))
    }

    public override var parameterDescriptions: [ParameterDescription] { Self.descriptions }

    /// The settings the parameters stand at.
    public override var settings: Compressor.Settings {
        func value(_ parameter: Parameter) -> Double { Double(self.parameter(parameter.rawValue)) }
        return Compressor.Settings(threshold: value(.threshold), ratio: value(.ratio), attack: value(.attack), release: value(.release),
                                   knee: value(.knee), makeup: value(.makeup),
                                   detection: Compressor.Detection.allCases[Int(parameter(Parameter.detection.rawValue))])
    }

    /// Every parameter of `node` with its value, for plans: `threshold -20 dB, ratio 4, …`.
    static func describe(_ descriptions: [ParameterDescription], of node: AudioNode) -> String {
        descriptions.map { "\($0.name) \($0.describe(node.parameter($0.id)))" }.joined(separator: ", ")
    }

    /// The compressor as a catalogued node kind: its settings are its parameters.
    public static let kind = NodeKind(
        name: "compressor", summary: "compresses dynamics above a threshold: ratio, soft knee, attack, release, makeup; channels linked",
        settings: [], parameters: descriptions,
        make: { name, _, _ in try CompressorNode(name: name, settings: Compressor.Settings(threshold: -20, ratio: 4)) })
}
