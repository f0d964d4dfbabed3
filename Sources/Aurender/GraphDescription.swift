import AudioFormats
import AudioGraph
import AudioNodes
import FoundationEssentials

/// A render graph as data: the library's own description, which `aurender render GRAPH.json`
/// reads, so the file format and the Swift API cannot drift apart.
///
/// Nodes are of the kinds `NodeCatalogue` lists (files, converters, EQs, mixers, gains and one
/// output); each node's other fields are its kind's settings and initial parameter values,
/// checked against the kind's description. Connections join nodes by name, into a bus of the
/// destination for mixers; events change parameters, by name, at exact times while rendering.
public struct GraphDescription: Codable, Equatable, Sendable {
    /// One node: its name, its kind, and its settings and parameters as fields.
    public struct Node: Codable, Equatable, Sendable {
        /// Unique in the graph; connections and events use it.
        public var name: String
        /// The kind's name in `NodeCatalogue` (`eq`, `mixer`).
        public var type: String
        /// Everything else: settings and initial parameter values, by name (`"preset": "Rock"`).
        public var fields: [String: SettingValue]

        public init(name: String, type: String, fields: [String: SettingValue] = [:]) {
            self.name = name
            self.type = type
            self.fields = fields
        }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: FieldKey.self)
            name = try container.decode(String.self, forKey: FieldKey("name"))
            type = try container.decode(String.self, forKey: FieldKey("type"))
            guard NodeCatalogue.kind(named: type) != nil else {
                throw DecodingError.dataCorruptedError(forKey: FieldKey("type"), in: container, debugDescription:
                    "unknown node kind '\(type)' (it is one of \(NodeCatalogue.kindNames.joined(separator: ", ")))")
            }
            fields = [:]
            for key in container.allKeys where key.stringValue != "name" && key.stringValue != "type" {
                fields[key.stringValue] = try container.decode(SettingValue.self, forKey: key)
            }
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: FieldKey.self)
            try container.encode(name, forKey: FieldKey("name"))
            try container.encode(type, forKey: FieldKey("type"))
            for (field, value) in fields { try container.encode(value, forKey: FieldKey(field)) }
        }
    }

    /// A connection from one node's output to another's input bus (0 unless a mixer's).
    public struct Connection: Codable, Equatable, Sendable {
        public var from: String
        public var to: String
        public var bus: Int?

        public init(from: String, to: String, bus: Int? = nil) {
            self.from = from
            self.to = to
            self.bus = bus
        }

        public init(from decoder: any Decoder) throws {
            let container = try FieldKey.strictContainer(decoder, allowing: ["from", "to", "bus"], what: "a connection")
            from = try container.decode(String.self, forKey: FieldKey("from"))
            to = try container.decode(String.self, forKey: FieldKey("to"))
            bus = try container.decodeIfPresent(Int.self, forKey: FieldKey("bus"))
        }
    }

    /// A change at an exact time: a parameter set or ramped (by name), or an EQ preset switched.
    public struct Event: Codable, Equatable, Sendable {
        /// When, from the start of the render: seconds, or a time such as `1.5s`, `500ms`, `441000f`, `1:30`.
        public var at: SettingValue
        /// The node changed.
        public var node: String
        /// The parameter, by name: `volume`, `gain[1]`, `preamp`, `preset` …
        public var parameter: String?
        /// The new value: a number (with its unit, as `-12dB`), true/false, or a choice's name.
        public var value: SettingValue?
        /// How long the parameter takes to move linearly to `value` (a time; none: at once).
        public var ramp: SettingValue?
        /// An EQ preset to switch to: short for `"parameter": "preset", "value": NAME`.
        public var preset: String?

        public init(at: SettingValue, node: String, parameter: String? = nil, value: SettingValue? = nil,
                    ramp: SettingValue? = nil, preset: String? = nil) {
            self.at = at
            self.node = node
            self.parameter = parameter
            self.value = value
            self.ramp = ramp
            self.preset = preset
        }

        public init(from decoder: any Decoder) throws {
            let container = try FieldKey.strictContainer(decoder, allowing: ["at", "node", "parameter", "value", "ramp", "preset"],
                                                         what: "an event")
            at = try container.decode(SettingValue.self, forKey: FieldKey("at"))
            node = try container.decode(String.self, forKey: FieldKey("node"))
            parameter = try container.decodeIfPresent(String.self, forKey: FieldKey("parameter"))
            value = try container.decodeIfPresent(SettingValue.self, forKey: FieldKey("value"))
            ramp = try container.decodeIfPresent(SettingValue.self, forKey: FieldKey("ramp"))
            preset = try container.decodeIfPresent(String.self, forKey: FieldKey("preset"))
        }
    }

    public var nodes: [Node]
    public var connections: [Connection]
    public var events: [Event]?

    public init(nodes: [Node], connections: [Connection], events: [Event]? = nil) {
        self.nodes = nodes
        self.connections = connections
        self.events = events
    }

    public init(from decoder: any Decoder) throws {
        let container = try FieldKey.strictContainer(decoder, allowing: ["nodes", "connections", "events"], what: "a graph")
        nodes = try container.decode([Node].self, forKey: FieldKey("nodes"))
        connections = try container.decode([Connection].self, forKey: FieldKey("connections"))
        events = try container.decodeIfPresent([Event].self, forKey: FieldKey("events"))
    }

    /// Reads a description from JSON; malformed files get one error naming the file and field.
    public static func load(path: String) throws(RenderError) -> GraphDescription {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw .input(AudioFormatError(path: path, kind: .cannotOpen, reason: "cannot read the graph file"))
        }
        do {
            return try JSONDecoder().decode(GraphDescription.self, from: data)
        } catch let error as DecodingError {
            throw .usage("\(path): \(Self.describe(error))")
        } catch {
            throw .usage("\(path): not valid JSON")
        }
    }

    private static func describe(_ error: DecodingError) -> String {
        func path(_ keys: [any CodingKey]) -> String {
            keys.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined().drop { $0 == "." }.description
        }
        switch error {
        case .keyNotFound(let key, let context): return "field '\(path(context.codingPath + [key]))': missing"
        case .typeMismatch(_, let context): return "field '\(path(context.codingPath))': wrong type (\(context.debugDescription))"
        case .valueNotFound(_, let context): return "field '\(path(context.codingPath))': missing value"
        case .dataCorrupted(let context):
            return context.codingPath.isEmpty ? "not valid JSON" : "field '\(path(context.codingPath))': \(context.debugDescription)"
        @unknown default: return "not a valid graph"
        }
    }
}

/// A JSON object's key by name, for objects whose keys are checked rather than ignored.
struct FieldKey: CodingKey {
    let stringValue: String
    var intValue: Int? { nil }
    init(_ name: String) { stringValue = name }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }

    /// The object's container, refusing any key not in `allowed`: a misspelt field is an error, not ignored.
    static func strictContainer(_ decoder: any Decoder, allowing allowed: [String], what: String) throws -> KeyedDecodingContainer<FieldKey> {
        let container = try decoder.container(keyedBy: FieldKey.self)
        if let unknown = container.allKeys.first(where: { !allowed.contains($0.stringValue) }) {
            throw DecodingError.dataCorruptedError(forKey: unknown, in: container, debugDescription:
                "unknown field (\(what) takes \(allowed.dropLast().joined(separator: ", ")) and \(allowed.last!))")
        }
        return container
    }
}
