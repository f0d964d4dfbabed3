import AudioGraph
import AudioNodes
import SpatialAudio

extension ChainStage {
    /// The nodes of `stages`, in order, each made by the catalogue from its kind and fields in
    /// `context`. An EQ whose preset and preamp change nothing drops out, as SoX's flat EQ does.
    /// A stage's mistake is a `ChainError` naming its position, kind and field.
    public static func makeNodes(_ stages: [ChainStage], context: NodeContext) throws -> [AudioNode] {
        var nodes: [AudioNode] = []
        for (index, stage) in stages.enumerated() {
            let kind = try stage.processorKind(position: index + 1)
            let node: AudioNode
            do {
                node = try NodeCatalogue.make(stage.name, kind: kind, fields: stage.fields, context: context)
            } catch let error as NodeSettingError {
                throw ChainError(position: index + 1, kind: stage.kind, field: error.field, problem: error.problem)
            } catch let error as HRTFError {
                throw RenderError.usage(error.description)
            }
            if let equalizer = node as? GraphicEQNode, equalizer.currentPreset.isFlat,
               equalizer.parameter(GraphicEQNode.Parameter.preamp) == 0 { continue }
            nodes.append(node)
        }
        return nodes
    }

    /// What a job's stages are made with at `sampleRate`: its resampler and quality, its presets,
    /// and paths as the user typed them.
    static func context(sampleRate: Double, settings: RenderSettings, presets: PresetLookup) throws -> NodeContext {
        NodeContext(sampleRate: sampleRate, findPreset: { name in try presets.preset(named: name) },
                    resampler: try OutputRendering.resamplerEngine(named: settings.resampler), resamplerQuality: settings.resamplerQuality)
    }

    /// Checks `stages` before anything is opened: each kind is a processor of the catalogue, each
    /// setting is known and in range, and each numeric parameter is in its range.
    public static func check(_ stages: [ChainStage]) throws(ChainError) {
        for (index, stage) in stages.enumerated() {
            let kind = try stage.processorKind(position: index + 1)
            let parameters: [(name: String, value: SettingValue)]
            do { parameters = try NodeCatalogue.check(stage.fields, node: stage.name, kind: kind).parameters } catch {
                throw ChainError(position: index + 1, kind: stage.kind, field: error.field, problem: error.problem)
            }
            for (name, value) in parameters {
                guard let description = kind.parameters.first(where: { $0.name == name }),
                      let number = Self.number(value, unit: description.unit) else { continue }
                guard description.range.contains(Float(number)) else {
                    throw ChainError(position: index + 1, kind: stage.kind, field: name, problem: NodeCatalogue.problem(in:
                        .parameterOutOfRange(node: stage.name, name: name, value: Float(number), range: description.range)))
                }
            }
        }
    }

    /// The stage's kind, when the catalogue has it and it processes audio.
    private func processorKind(position: Int) throws(ChainError) -> NodeKind {
        guard let kind = NodeCatalogue.kind(named: kind) else {
            let processors = NodeCatalogue.kinds.filter { $0.role == .processor }.map(\.name)
            throw ChainError(position: position, kind: self.kind, field: nil,
                             problem: "unknown kind (it is one of \(processors.joined(separator: ", ")))")
        }
        guard kind.role == .processor else {
            throw ChainError(position: position, kind: self.kind, field: nil, problem: "a \(kind.name) node is the job's, not a stage of the chain")
        }
        return kind
    }

    /// A parameter's value as a number in its unit, when it is one (times in seconds; frames need the rate).
    private static func number(_ value: SettingValue, unit: ParameterUnit) -> Double? {
        switch (unit, value) {
        case (.indexed, _), (.boolean, _): nil
        case (_, .number(let number)): number
        case (.decibels, .text(let text)): ValueSyntax.level(text)
        case (.hertz, .text(let text)): ValueSyntax.hertz(text)
        case (.seconds, .text(let text)): TimeValue(text).flatMap { if case .seconds(let seconds) = $0 { seconds } else { nil } }
        case (_, .text(let text)): Double(text)
        default: nil
        }
    }
}

/// A stage of a chain is wrong: its position (from 1), its kind, the field and what is wrong.
public struct ChainError: Error, Equatable, CustomStringConvertible {
    public let position: Int
    public let kind: String
    /// The field at fault; nil when the kind itself is.
    public let field: String?
    public let problem: String

    public init(position: Int, kind: String, field: String?, problem: String) {
        self.position = position
        self.kind = kind
        self.field = field
        self.problem = problem
    }

    public var description: String {
        "stage \(position)" + (kind.isEmpty ? ": " : " (\(kind)): ") + (field.map { "field '\($0)': " } ?? "") + problem
    }
}
