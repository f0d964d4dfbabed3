/// A job that renders one output: a single file, a mix or a graph file. What a front end needs
/// to plan, run and report any of them the same way.
public protocol RenderingJob {
    /// Resampling, dither, clipping, slice size and progress: the settings every job has.
    var settings: RenderSettings { get set }
    /// The files the job reads, as named.
    var inputPaths: [String] { get }
    /// Where the output goes.
    var outputDestination: OutputDestination { get throws }
    /// The resolved graph, decided without reading audio, as text or Graphviz dot.
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
}

/// A job whose plan is a `RenderPlan` (a render or a mix): it describes itself through it.
protocol PlannedByRenderPlan: RenderingJob {
    var output: OutputDestination { get }
    func plan() throws -> RenderPlan
}

extension PlannedByRenderPlan {
    public var outputDestination: OutputDestination { output }

    public func describe(as style: PlanStyle) throws -> String {
        let plan = try plan()
        return style == .dot ? plan.dot : plan.text
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
}

extension GraphJob: RenderingJob {
    public var settings: RenderSettings {
        get { options }
        set { options = newValue }
    }

    public func describe(as style: PlanStyle) throws -> String {
        style == .dot ? try dot() : try plan()
    }
}
