/// A value in a graph file or a node's settings, as JSON holds it: a number, a text, a
/// switch, a list or an object.
///
/// Settings are checked against their `SettingDescription` when a node is made, so a graph
/// file's mistakes are found before any audio is read, with the node and field named.
public enum SettingValue: Codable, Equatable, Sendable, CustomStringConvertible,
                          ExpressibleByFloatLiteral, ExpressibleByIntegerLiteral, ExpressibleByStringLiteral,
                          ExpressibleByBooleanLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral {
    case number(Double)
    case text(String)
    case flag(Bool)
    case list([SettingValue])
    case object([String: SettingValue])

    public init(floatLiteral value: Double) { self = .number(value) }
    public init(integerLiteral value: Int) { self = .number(Double(value)) }
    public init(stringLiteral value: String) { self = .text(value) }
    public init(booleanLiteral value: Bool) { self = .flag(value) }
    public init(arrayLiteral elements: SettingValue...) { self = .list(elements) }
    public init(dictionaryLiteral elements: (String, SettingValue)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let value = try? container.decode(Bool.self) {
            self = .flag(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .text(value)
        } else if let value = try? container.decode([SettingValue].self) {
            self = .list(value)
        } else if let value = try? container.decode([String: SettingValue].self) {
            self = .object(value)
        } else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "expected a number, text, true/false, list or object")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .number(let value): try container.encode(value)
        case .text(let value): try container.encode(value)
        case .flag(let value): try container.encode(value)
        case .list(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }

    /// The value as it would appear in a message.
    public var description: String {
        switch self {
        case .number(let value): value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
        case .text(let value): "'\(value)'"
        case .flag(let value): String(value)
        case .list(let values): "[" + values.map(\.description).joined(separator: ", ") + "]"
        case .object: "an object"
        }
    }

    /// What kind of value it is, for messages: `a number`, `a text`.
    public var kindName: String {
        switch self {
        case .number: "a number"
        case .text: "a text"
        case .flag: "true or false"
        case .list: "a list"
        case .object: "an object"
        }
    }
}
