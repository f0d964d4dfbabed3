import AudioGraph
import Resampling

/// A kind of node a graph can hold, described as data: its name, a one-line summary, its
/// settings (fixed when the node is made) and its parameters (changeable while rendering).
///
/// Graph files, plans and listings are generated from these descriptions, so they cannot
/// drift from the nodes. A kind is declared beside its node (`GraphicEQNode.kind`) and
/// registered with one line in `NodeCatalogue.kinds`.
public struct NodeKind: Sendable {
    /// Where a kind sits in a graph.
    public enum Role: Sendable {
        /// Brings audio in from a file; the job opens it.
        case source
        /// Processes audio; the catalogue makes it.
        case processor
        /// Takes the finished audio to a file; the job writes it.
        case output
    }

    /// What a graph file calls the kind (`eq`).
    public let name: String
    /// One line on what a node of the kind does.
    public let summary: String
    /// Where it sits in a graph.
    public let role: Role
    /// Its settings.
    public let settings: [SettingDescription]
    /// Its parameters, for listings; a mixer's per-bus ones are named with `[N]`.
    public let parameters: [ParameterDescription]
    let make: (@Sendable (String, NodeSettings, NodeContext) throws -> AudioNode)?
    let choice: @Sendable (String, String, NodeContext) throws -> String

    /// A kind whose nodes `make` builds from a name, checked settings and the graph's context
    /// (nil for sources, which the job opens itself); `choice` turns a text given for an indexed parameter into the name of one of its
    /// choices (an EQ finds presets loosely and in files), and by default keeps it.
    public init(name: String, summary: String, role: Role = .processor, settings: [SettingDescription],
                parameters: [ParameterDescription] = [],
                make: (@Sendable (_ name: String, _ settings: NodeSettings, _ context: NodeContext) throws -> AudioNode)?,
                choice: @escaping @Sendable (_ parameter: String, _ text: String, _ context: NodeContext) throws -> String = { _, text, _ in text }) {
        self.name = name
        self.summary = summary
        self.role = role
        self.settings = settings
        self.parameters = parameters
        self.make = make
        self.choice = choice
    }

    /// The setting called `name`, if the kind has one.
    public func setting(_ name: String) -> SettingDescription? { settings.first { $0.name == name } }

    /// The range the kind declares for `field`: a parameter's (`gain[N]` for a bus's), else a
    /// number setting's; `buses.gain` names a field of a list's items. Nil where it declares
    /// none, so help texts and checks elsewhere read the one declaration.
    public func range(_ field: String) -> ClosedRange<Double>? {
        if let parameter = parameters.first(where: { $0.name == field }) { return SettingDescription.decimal(parameter.range) }
        var candidates = settings
        let path = field.split(separator: ".").map(String.init)
        for list in path.dropLast() {
            guard case .list(let fields)? = candidates.first(where: { $0.name == list })?.type else { return nil }
            candidates = fields
        }
        switch candidates.first(where: { $0.name == path.last })?.type {
        case .number(_, let range)?: return range
        case .integer(let range)?: return Double(range.lowerBound)...Double(range.upperBound)
        default: return nil
        }
    }
}

/// What a node being made needs to know of the graph around it.
public struct NodeContext {
    /// The graph's sample rate: times and rates default to it.
    public var sampleRate: Double
    /// How many input buses the graph's connections feed (a mixer takes as many).
    public var connectedInputBuses: Int
    /// Finds an EQ preset by name (loosely) or by file.
    public var findPreset: (String) throws -> EQPreset
    /// The texts events will give each indexed parameter, so the node has those choices ready
    /// (the presets an EQ will switch to).
    public var scheduledChoices: [String: [String]]
    /// The resampler engine a converter uses unless its settings name one.
    public var resampler: ResamplerEngineKind
    /// The quality a converter asks of its engine unless its settings name one.
    public var resamplerQuality: ResamplerQuality
    /// Where the paths in a node's settings lead: relative to a graph file's folder and confined
    /// to it for a graph file; relative to the working directory and anywhere otherwise.
    public var paths: PathPolicy

    public init(sampleRate: Double, connectedInputBuses: Int = 0, findPreset: @escaping (String) throws -> EQPreset,
                scheduledChoices: [String: [String]] = [:], resampler: ResamplerEngineKind = ResamplerRegistry.defaultEngine,
                resamplerQuality: ResamplerQuality = .best, paths: PathPolicy = .anywhere()) {
        self.sampleRate = sampleRate
        self.paths = paths
        self.resampler = resampler
        self.resamplerQuality = resamplerQuality
        self.connectedInputBuses = connectedInputBuses
        self.findPreset = findPreset
        self.scheduledChoices = scheduledChoices
    }

    /// The path the setting `field` names, as the node should open it, judged by `paths`; nil
    /// where the setting is not given.
    public func path(_ field: String, in settings: NodeSettings) throws(PathRefusal) -> String? {
        guard let path = settings.text(field) else { return nil }
        return try paths.resolve(path, field: field)
    }
}
