import AudioGraph
import FoundationEssentials

/// A render graph as data: the library's own description, which `aurender render GRAPH.json`
/// reads, so the file format and the Swift API cannot drift apart.
///
/// Nodes are files (sources), converters, EQs, mixers and one output (the file written);
/// connections join them by name, into a bus of the destination for mixers; events change
/// parameters at exact times while rendering.
public struct GraphDescription: Codable, Equatable, Sendable {
    /// One node; which fields apply depends on `type`.
    public struct Node: Codable, Equatable, Sendable {
        public enum Kind: String, Codable, Sendable { case file, converter, eq, mixer, output }
        public var name: String
        public var type: Kind
        /// file and output: the path.
        public var path: String?
        /// converter and mixer: the rate in Hz; output: the file's rate, converted if needed.
        public var rate: Double?
        /// converter and mixer: the channel count.
        public var channels: Int?
        /// converter: best, medium, fastest, zoh or linear.
        public var quality: String?
        /// eq: a preset name or a preset file.
        public var preset: String?
        /// eq: accurate or classic.
        public var mode: String?
        /// eq: preamp in dB.
        public var preamp: Double?
        /// mixer: master volume in dB.
        public var volume: Double?
        /// mixer: the settings of each input bus, in bus order.
        public var buses: [Bus]?
        /// output: the encoding (8, 16, 24, 32, float, double) and container.
        public var bits: String?
        public var container: String?

        public init(name: String, type: Kind) {
            self.name = name
            self.type = type
        }
    }

    /// A mixer input's settings.
    public struct Bus: Codable, Equatable, Sendable {
        public var gain: Double?
        public var pan: Double?
        public var start: Double?
        public var mute: Bool?
        public var enabled: Bool?
        public init() {}
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
    }

    /// A change at an exact time: a parameter set or ramped, an EQ preset switched, a bus
    /// enabled or disabled.
    public struct Event: Codable, Equatable, Sendable {
        /// Seconds from the start of the render.
        public var at: Double
        public var node: String
        /// A mixer parameter: volume, gain[N], pan[N], enable[N], mute[N]; or an EQ's preamp.
        public var parameter: String?
        public var value: Double?
        /// Seconds over which the parameter moves linearly to `value` (0: at once).
        public var ramp: Double?
        /// An EQ preset to switch to (the EQ crossfades over 20 ms).
        public var preset: String?
        public init(at: Double, node: String) {
            self.at = at
            self.node = node
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
