/// Identifies one parameter of a node; each node type defines its own.
public typealias ParameterID = Int

/// What a parameter is: the metadata a user interface or a graph file needs.
public struct ParameterDescription: Sendable, Equatable {
    /// The parameter's number on its node.
    public var id: ParameterID
    /// A short name, as used in graph files and messages (`gain`, `preset`).
    public var name: String
    /// The lowest and highest value accepted.
    public var range: ClosedRange<Float>
    /// The value a new node starts with.
    public var defaultValue: Float
    /// What the value counts (`dB`, `index`, `linear`).
    public var unit: String

    public init(id: ParameterID, name: String, range: ClosedRange<Float>, defaultValue: Float, unit: String) {
        self.id = id
        self.name = name
        self.range = range
        self.defaultValue = defaultValue
        self.unit = unit
    }
}
