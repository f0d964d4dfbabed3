/// Identifies one parameter of a node; each node type defines its own.
public typealias ParameterID = Int

/// What a parameter's value counts, and so which values it takes.
///
/// Parameters are Float values, as in Core Audio; a boolean takes 0 or 1 and an indexed
/// parameter a whole number naming one of its choices (an EQ's preset), never 2.5.
public enum ParameterUnit: Sendable, Equatable {
    /// Decibels of gain.
    case decibels
    /// A stereo position, −1 (left) to 1 (right).
    case pan
    /// Off (0) or on (1).
    case boolean
    /// One of the named choices, by its index.
    case indexed([String])
    /// Seconds.
    case seconds
    /// Hertz.
    case hertz
    /// Semitones of pitch, twelve to the octave.
    case semitones
    /// A plain number or factor.
    case linear

    /// The unit as plans and messages print it after a value (`dB`, `Hz`), or empty.
    public var symbol: String {
        switch self {
        case .decibels: "dB"
        case .seconds: "s"
        case .hertz: "Hz"
        case .semitones: "st"
        case .pan, .boolean, .indexed, .linear: ""
        }
    }

    /// Whether the value must be a whole number (a switch or a choice).
    public var isDiscrete: Bool {
        switch self {
        case .boolean, .indexed: true
        default: false
        }
    }
}

/// What a parameter is: the metadata a user interface, a graph file or a plan needs.
public struct ParameterDescription: Sendable, Equatable {
    /// The parameter's number on its node.
    public var id: ParameterID
    /// A short name, as used in graph files, events and messages (`gain[1]`, `preset`).
    public var name: String
    /// The lowest and highest value accepted.
    public var range: ClosedRange<Float>
    /// The value a new node starts with.
    public var defaultValue: Float
    /// What the value counts.
    public var unit: ParameterUnit
    /// Whether the value may change while rendering (between slices); others are fixed at initialize.
    public var changesWhileRendering: Bool

    public init(id: ParameterID, name: String, range: ClosedRange<Float>, defaultValue: Float, unit: ParameterUnit,
                changesWhileRendering: Bool = true) {
        self.id = id
        self.name = name
        self.range = range
        self.defaultValue = defaultValue
        self.unit = unit
        self.changesWhileRendering = changesWhileRendering
    }

    /// A boolean parameter (0 or 1).
    public static func boolean(id: ParameterID, name: String, defaultValue: Bool) -> ParameterDescription {
        ParameterDescription(id: id, name: name, range: 0...1, defaultValue: defaultValue ? 1 : 0, unit: .boolean)
    }

    /// An indexed parameter choosing one of `choices` (at least one).
    public static func indexed(id: ParameterID, name: String, choices: [String], defaultIndex: Int = 0) -> ParameterDescription {
        ParameterDescription(id: id, name: name, range: 0...Float(max(0, choices.count - 1)), defaultValue: Float(defaultIndex),
                             unit: .indexed(choices))
    }

    /// Whether `value` is one this parameter takes: in range, and whole for switches and choices.
    public func accepts(_ value: Float) -> Bool {
        range.contains(value) && (!unit.isDiscrete || value == value.rounded())
    }

    /// `value` as a person reads it: a choice's name, on/off, or the number and its unit.
    public func describe(_ value: Float) -> String {
        switch unit {
        case .indexed(let choices):
            let index = Int(value)
            return choices.indices.contains(index) ? "'\(choices[index])'" : "\(index)"
        case .boolean:
            return value == 0 ? "off" : "on"
        default:
            let rounded = (Double(value) * 1000).rounded() / 1000
            let text = rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
            return unit.symbol.isEmpty ? text : "\(text) \(unit.symbol)"
        }
    }
}
