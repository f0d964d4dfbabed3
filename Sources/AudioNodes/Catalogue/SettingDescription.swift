import AudioGraph

/// One setting of a node kind: fixed when the node is made, unlike a parameter.
///
/// The description is all a graph file reader needs to check a value and all a listing needs
/// to document it, as an FFmpeg filter's option table is.
public struct SettingDescription: Sendable {
    /// What values a setting takes.
    public indirect enum ValueType: Sendable {
        /// A number in `unit` within `range`; texts with the unit's suffix are accepted (`-3dB`, `48kHz`).
        case number(ParameterUnit, ClosedRange<Double>)
        /// A whole number within the range.
        case integer(ClosedRange<Int>)
        /// Any text (a path, a preset name).
        case text
        /// One of the names, case ignored.
        case choice([String])
        /// true or false.
        case flag
        /// A time: `90`, `1.5s`, `500ms`, `441000f`, `1:30`.
        case time
        /// A list of objects, each with these settings (a mixer's buses).
        case list([SettingDescription])
    }

    /// The field's name in a graph file.
    public let name: String
    /// What it takes.
    public let type: ValueType
    /// One line on what it does, with its default.
    public let summary: String
    /// Whether a node of the kind needs it.
    public let isRequired: Bool

    public init(_ name: String, _ type: ValueType, _ summary: String, required: Bool = false) {
        self.name = name
        self.type = type
        self.summary = summary
        isRequired = required
    }

    /// A setting called `name` that takes what `parameter` takes: its unit and range (a number),
    /// its choices, or on and off (a switch). A value that is both a node's setting and its
    /// parameter (a mixer bus's gain) is so declared once, as the parameter.
    public init(_ name: String, as parameter: ParameterDescription, _ summary: String, required: Bool = false) {
        let type: ValueType = switch parameter.unit {
        case .boolean: .flag
        case .indexed(let choices): .choice(choices)
        default: .number(parameter.unit, Self.decimal(parameter.range))
        }
        self.init(name, type, summary, required: required)
    }

    /// A parameter's range as the decimals it was written in (0.01, not 0.009999999776482582).
    static func decimal(_ range: ClosedRange<Float>) -> ClosedRange<Double> {
        func decimal(_ value: Float) -> Double { Double(value.description) ?? Double(value) }
        return decimal(range.lowerBound)...decimal(range.upperBound)
    }

    /// A sample-rate setting in Hz (1 Hz to 768 kHz).
    public static func sampleRate(_ summary: String) -> SettingDescription {
        SettingDescription("rate", .number(.hertz, 1...768_000), summary)
    }

    /// A channel-count setting (1 to the most a stream has).
    public static func channelCount(_ summary: String) -> SettingDescription {
        SettingDescription("channels", .integer(1...StreamFormat.maximumChannelCount), summary)
    }

    /// Checks `value`, turning texts with units into numbers and times; the error names only the problem.
    func check(_ value: SettingValue) throws(SettingProblem) -> SettingValue {
        switch (type, value) {
        case (.number(let unit, let range), _):
            let number: Double?
            switch value {
            case .number(let plain): number = plain
            case .text(let text): number = unit == .hertz ? ValueSyntax.hertz(text) : unit == .decibels ? ValueSyntax.level(text) : Double(text)
            default: number = nil
            }
            guard let number else { throw SettingProblem("must be a number\(unit.symbol.isEmpty ? "" : " in \(unit.symbol)"), not \(value)") }
            guard range.contains(number) else {
                throw SettingProblem("must be from \(Self.text(range.lowerBound)) to \(Self.text(range.upperBound))"
                                     + "\(unit.symbol.isEmpty ? "" : " \(unit.symbol)"), not \(Self.text(number))")
            }
            return .number(number)
        case (.integer(let range), .number(let number)):
            guard number == number.rounded(), let whole = Int(exactly: number), range.contains(whole) else {
                throw SettingProblem("must be a whole number from \(range.lowerBound) to \(range.upperBound), not \(value)")
            }
            return value
        case (.text, .text(let text)):
            guard !text.isEmpty else { throw SettingProblem("must not be empty") }
            return value
        case (.choice, .number(let number)):
            return try check(.text(Self.text(number)))
        case (.choice(let names), .text(let text)):
            guard let name = names.first(where: { $0.lowercased() == text.lowercased() }) else {
                throw SettingProblem("must be \(Self.alternatives(names)), not \(value)")
            }
            return .text(name)
        case (.flag, .flag):
            return value
        case (.time, .number(let seconds)):
            guard seconds >= 0, seconds <= TimeValue.maximumSeconds else {
                throw SettingProblem("must be a time from 0 to \(Int(TimeValue.maximumSeconds)) s, not \(value)")
            }
            return value
        case (.time, .text(let text)):
            guard TimeValue(text) != nil else {
                throw SettingProblem("must be a time like 90, 1.5s, 500ms, 441000f or 1:30, not \(value)")
            }
            return value
        case (.list, .list):
            return value
        default:
            throw SettingProblem("must be \(expected), not \(value.kindName)")
        }
    }

    /// What the setting takes, for messages.
    var expected: String {
        switch type {
        case .number: "a number"
        case .integer: "a whole number"
        case .text: "a text"
        case .choice(let names): Self.alternatives(names)
        case .flag: "true or false"
        case .time: "a time"
        case .list: "a list of objects"
        }
    }

    static func alternatives(_ names: [String]) -> String {
        names.count < 2 ? names.joined() : names.dropLast().joined(separator: ", ") + " or " + names.last!
    }

    static func text(_ number: Double) -> String {
        number == number.rounded() && abs(number) < 1e15 ? String(Int64(number)) : String(number)
    }
}

/// What is wrong with one value, before the node and field are known.
struct SettingProblem: Error {
    let message: String
    init(_ message: String) { self.message = message }
}

/// A node's settings, checked against its kind: typed access to each value.
public struct NodeSettings: Sendable {
    /// The checked values, by field name.
    public let values: [String: SettingValue]

    public init(values: [String: SettingValue]) { self.values = values }

    /// A number setting, if given.
    public func number(_ name: String) -> Double? {
        if case .number(let value)? = values[name] { return value }
        return nil
    }

    /// A whole-number setting, if given.
    public func integer(_ name: String) -> Int? { number(name).map { Int($0) } }

    /// A text or choice setting, if given.
    public func text(_ name: String) -> String? {
        if case .text(let value)? = values[name] { return value }
        return nil
    }

    /// A switch, if given.
    public func flag(_ name: String) -> Bool? {
        if case .flag(let value)? = values[name] { return value }
        return nil
    }

    /// A time setting, if given.
    public func time(_ name: String) -> TimeValue? {
        switch values[name] {
        case .number(let seconds)?: .seconds(seconds)
        case .text(let text)?: TimeValue(text)
        default: nil
        }
    }

    /// A list of objects, each checked against the list's own settings.
    public func list(_ name: String) -> [NodeSettings] {
        guard case .list(let items)? = values[name] else { return [] }
        return items.map { item in
            if case .object(let fields) = item { return NodeSettings(values: fields) }
            return NodeSettings(values: [:])
        }
    }
}
