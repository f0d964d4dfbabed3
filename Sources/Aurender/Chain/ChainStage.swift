import AudioNodes

/// One stage of a render's chain: a node kind of `NodeCatalogue` and its fields exactly as a
/// graph file's node states them (`eq` with `"preset": "Rock"`).
///
/// The chain is data so that every front door — flags, `--chain`, graph files, `mix` and Swift
/// programs — makes its nodes the one way, through the catalogue, and so that a plan can state
/// any render as a graph file.
public struct ChainStage: Equatable, Sendable {
    /// The kind's name in `NodeCatalogue` (`eq`, `reverb`).
    public var kind: String
    /// The node's name in the graph (plans and messages show it); the kind's name unless given.
    public var name: String
    /// The kind's settings and initial parameter values, by name, as in a graph file.
    public var fields: [String: SettingValue]

    public init(_ kind: String, name: String? = nil, fields: [String: SettingValue] = [:]) {
        self.kind = kind
        self.name = name ?? kind
        self.fields = fields
    }

    /// The stage as a graph file's node.
    public var node: GraphDescription.Node { GraphDescription.Node(name: name, type: kind, fields: fields) }

    /// A time as a field states it: seconds as a number, frames as `441000f`.
    public static func field(_ time: TimeValue) -> SettingValue {
        switch time {
        case .seconds(let seconds): .number(seconds)
        case .frames(let frames): .text("\(frames)f")
        }
    }
}
