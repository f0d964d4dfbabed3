import AudioFiles
import FoundationEssentials

/// A job that renders one output: a single file, a mix or a graph file. What a front end needs
/// to plan, run and report any of them the same way.
public protocol RenderingJob {
    /// Resampling, dither, clipping, slice size and progress: the settings every job has.
    var settings: RenderSettings { get set }
    /// The files the job reads, as named.
    var inputPaths: [String] { get }
    /// Where the output goes.
    var outputDestination: OutputDestination { get throws }
    /// The resolved graph, decided without reading audio, as text, Graphviz dot or a graph file.
    func describe(as style: PlanStyle) throws -> String
    /// Renders, leaving either a complete output or none.
    func run() throws -> RenderJob.Summary
}

/// How a plan is written out.
public enum PlanStyle: String, CaseIterable, Sendable {
    /// One line per node and connection.
    case text
    /// Graphviz's dot language.
    case dot
    /// The graph file (`GraphDescription`, JSON) that renders the same output.
    case json
}

extension GraphDescription {
    /// The description as a graph file: JSON, keys sorted, so the same job prints the same text.
    public func json() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(self), as: UTF8.self)
    }
}

/// A job whose plan is a `RenderPlan` (a render or a mix): it describes itself through it.
protocol PlannedByRenderPlan: RenderingJob {
    var output: OutputDestination { get }
    func plan() throws -> RenderPlan
    func graphDescription() throws -> GraphDescription
}

extension PlannedByRenderPlan {
    public var outputDestination: OutputDestination { output }

    public func describe(as style: PlanStyle) throws -> String {
        switch style {
        case .text: try plan().text
        case .dot: try plan().dot
        case .json: try graphDescription().json()
        }
    }
}

extension RenderJob: PlannedByRenderPlan {
    public var settings: RenderSettings {
        get { options.settings }
        set { options.settings = newValue }
    }

    public var inputPaths: [String] { [input] }
}

extension MixJob: PlannedByRenderPlan {
    public var settings: RenderSettings {
        get { options.settings }
        set { options.settings = newValue }
    }

    public var inputPaths: [String] { inputs.map(\.path) }

    /// A mix as a graph file: not stated yet.
    public func graphDescription() throws -> GraphDescription {
        throw RenderError.usage("\(output.path): a mix cannot be stated as a graph file yet")
    }
}

extension GraphJob: RenderingJob {
    public var settings: RenderSettings {
        get { options }
        set { options = newValue }
    }

    public func describe(as style: PlanStyle) throws -> String {
        switch style {
        case .text: try plan()
        case .dot: try dot()
        case .json: try description.json()
        }
    }
}
