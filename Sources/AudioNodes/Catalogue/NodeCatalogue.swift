import AudioGraph

/// Every node kind a graph file can name, and the one generic way they are made: fields are
/// checked against the kind's settings and parameters, never by a per-kind switch.
///
/// Adding a kind is one file (the node and its `kind`) plus one line here.
public enum NodeCatalogue {
    /// The registered kinds.
    public static let kinds: [NodeKind] = [
        FileSourceKind.kind,
        FormatConverterNode.kind,
        GraphicEQNode.kind,
        MixerNode.kind,
        GainNode.kind,
        FilterNode.kind,
        GateNode.kind,
        CompressorNode.kind,
        DistortionNode.kind,
        DelayNode.kind,
        ReverbNode.kind,
        LimiterNode.kind,
        SilenceTrimNode.kind,
        TimePitchNode.kind,
        VoiceKind.kind,
        ConvolutionNode.kind,
        SpatialNode.kind,
        PluginKind.kind,
        GenericOutputKind.kind,
    ]

    /// The kind called `name`.
    public static func kind(named name: String) -> NodeKind? { kinds.first { $0.name == name } }

    /// The kinds' names, for messages.
    public static var kindNames: [String] { kinds.map(\.name) }

    /// Splits a node's fields into checked settings and initial parameter values, refusing
    /// unknown fields, wrong types and values out of range; errors name the node and field.
    public static func check(_ fields: [String: SettingValue], node: String, kind: NodeKind) throws(NodeSettingError)
        -> (settings: NodeSettings, parameters: [(name: String, value: SettingValue)]) {
        var settings: [String: SettingValue] = [:]
        var parameters: [(name: String, value: SettingValue)] = []
        for (field, value) in fields.sorted(by: { $0.key < $1.key }) {
            if let setting = kind.setting(field) {
                settings[field] = try checked(value, setting, node: node, kind: kind, path: field)
            } else if kind.parameters.contains(where: { $0.name == field }) {
                parameters.append((field, value))
            } else {
                let settings = kind.settings.map(\.name)
                let known = settings + kind.parameters.map(\.name).filter { !$0.contains("[") && !settings.contains($0) }
                throw NodeSettingError(node: node, kind: kind.name, field: field,
                                       problem: "unknown field (\(kind.name) takes \(SettingDescription.alternatives(known)))")
            }
        }
        for setting in kind.settings where setting.isRequired && settings[setting.name] == nil {
            throw NodeSettingError(node: node, kind: kind.name, field: setting.name, problem: "missing (\(setting.summary))")
        }
        return (NodeSettings(values: settings), parameters)
    }

    /// Makes a processor or output node of `kind` from its fields: settings checked, the node
    /// built, initial parameter values set.
    public static func make(_ node: String, kind: NodeKind, fields: [String: SettingValue], context: NodeContext) throws -> AudioNode {
        let (settings, parameters) = try check(fields, node: node, kind: kind)
        guard let make = kind.make else {
            throw NodeSettingError(node: node, kind: kind.name, field: "type", problem: "a \(kind.name) is opened by the job, not made")
        }
        let made: AudioNode
        do { made = try make(node, settings, context) } catch let refusal as PathRefusal { throw refusal.naming(node, kind: kind.name) }
        for (name, value) in parameters {
            do {
                try made.setParameter(named: name, try parameterValue(value, for: made.parameterDescription(named: name), of: made,
                                                                       kind: kind, context: context))
            } catch let error as GraphError {
                throw NodeSettingError(node: node, kind: kind.name, field: name, problem: Self.problem(in: error))
            }
        }
        return made
    }

    /// A value given for a parameter, as the parameter's Float: numbers (with their unit; times
    /// as `500ms`), switches, and choices by name.
    public static func parameterValue(_ value: SettingValue, for description: ParameterDescription, of node: AudioNode,
                                      kind: NodeKind?, context: NodeContext?) throws -> Float {
        switch (description.unit, value) {
        case (.indexed, .text(let text)):
            let name = try kind.flatMap { kind in try context.map { try kind.choice(description.name, text, $0) } } ?? text
            return Float(try node.choiceIndex(name, of: description))
        case (.boolean, .flag(let on)):
            return on ? 1 : 0
        case (_, .number(let number)):
            return Float(number)
        case (.decibels, .text(let text)):
            guard let level = ValueSyntax.level(text) else { throw GraphError.parameterNotANumber(node: node.name, name: description.name, text: text) }
            return Float(level)
        case (.seconds, .text(let text)):
            guard let time = TimeValue(text) else { throw GraphError.parameterNotANumber(node: node.name, name: description.name, text: text) }
            return Float(time.seconds(at: context?.sampleRate ?? 1))
        case (.hertz, .text(let text)):
            guard let hertz = ValueSyntax.hertz(text) else { throw GraphError.parameterNotANumber(node: node.name, name: description.name, text: text) }
            return Float(hertz)
        case (_, .text(let text)):
            guard let number = Double(text) else { throw GraphError.parameterNotANumber(node: node.name, name: description.name, text: text) }
            return Float(number)
        default:
            throw GraphError.parameterNotANumber(node: node.name, name: description.name, text: value.description)
        }
    }

    private static func checked(_ value: SettingValue, _ setting: SettingDescription, node: String, kind: NodeKind,
                                path: String) throws(NodeSettingError) -> SettingValue {
        let plain: SettingValue
        do { plain = try setting.check(value) } catch { throw NodeSettingError(node: node, kind: kind.name, field: path, problem: error.message) }
        guard case .list(let fields) = setting.type, case .list(let items) = plain else { return plain }
        var result: [SettingValue] = []
        for (index, item) in items.enumerated() {
            guard case .object(let object) = item else {
                throw NodeSettingError(node: node, kind: kind.name, field: "\(path)[\(index)]", problem: "must be an object, not \(item.kindName)")
            }
            var entry: [String: SettingValue] = [:]
            for (key, inner) in object.sorted(by: { $0.key < $1.key }) {
                guard let field = fields.first(where: { $0.name == key }) else {
                    throw NodeSettingError(node: node, kind: kind.name, field: "\(path)[\(index)].\(key)",
                                           problem: "unknown field (it takes \(SettingDescription.alternatives(fields.map(\.name))))")
                }
                entry[key] = try checked(inner, field, node: node, kind: kind, path: "\(path)[\(index)].\(key)")
            }
            result.append(.object(entry))
        }
        return .list(result)
    }

    /// A parameter's value as written: whole numbers without a fraction, others as short as
    /// Float's own description (0.1, not 0.10000000149011612).
    static func text(_ value: Float) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }

    /// The part of a graph error worth saying once the node and field are named.
    public static func problem(in error: GraphError) -> String {
        switch error {
        case .parameterOutOfRange(_, _, let value, let range):
            "must be from \(text(range.lowerBound)) to \(text(range.upperBound)), not \(text(value))"
        case .parameterNotWhole(_, _, let value): "takes a whole number (a switch or a choice), not \(value)"
        case .noSuchChoice(_, _, let choice, let known): "has no choice '\(choice)' (it has \(known.map { "'\($0)'" }.joined(separator: ", ")))"
        case .parameterNotANumber(_, _, let text): "must be a number, not '\(text)'"
        default: error.description
        }
    }
}

/// A node's field in a graph is wrong: the node, its kind, the field and what is wrong.
public struct NodeSettingError: Error, Equatable, CustomStringConvertible {
    public let node: String
    public let kind: String
    public let field: String
    public let problem: String

    public init(node: String, kind: String, field: String, problem: String) {
        self.node = node
        self.kind = kind
        self.field = field
        self.problem = problem
    }

    public var description: String { "node '\(node)' (\(kind)): field '\(field)': \(problem)" }
}
