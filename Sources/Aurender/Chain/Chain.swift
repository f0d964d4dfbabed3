import AudioDSP
import AudioFiles
import AudioNodes

/// A chain of effects in the order given, as Swift values: what `--chain` states as text.
///
/// `try Chain(.highpass(80), .eq("Rock"), .reverb(.largeHall, wet: 30)).render(input: "in.wav", output: "out.wav")`
/// renders the bytes `aurender in.wav out.wav --chain 'highpass frequency=80 | eq preset=Rock |
/// reverb preset="large hall" wet=30'` does: both are the same `ChainStage`s, made into nodes by
/// `NodeCatalogue`. Each stage is checked against its kind when the chain is made; a value out of
/// range is refused, never clamped.
public struct Chain: Equatable, Sendable {
    /// The stages, in order; a kind given again has a numbered name (`eq`, `eq 2`), as names are unique in a graph.
    public let stages: [ChainStage]

    /// A chain of `stages`, in order.
    public init(_ stages: ChainStage...) throws(ChainError) {
        try self.init(stages)
    }

    /// A chain of `stages`, in order, checked against their kinds: a mistake is a `ChainError`
    /// naming the stage's position, its kind (`highpass` for a one-band filter made by `highpass`)
    /// and the field, as `--chain`'s are.
    public init(_ stages: [ChainStage]) throws(ChainError) {
        do { try ChainStage.check(stages) } catch {
            let stage = stages[error.position - 1]
            let band = stage.kind == "filter" && FilterShape(rawValue: stage.name) != nil
            throw ChainError(position: error.position, kind: band ? stage.name : stage.kind,
                             field: error.field.map { band ? Self.bandField($0) : $0 }, problem: error.problem)
        }
        var counts: [String: Int] = [:]
        self.stages = stages.map { stage in
            counts[stage.name, default: 0] += 1
            guard let count = counts[stage.name], count > 1 else { return stage }
            var numbered = stage
            numbered.name = "\(stage.name) \(count)"
            return numbered
        }
    }

    /// A field's name as the user wrote it: a short filter's `bands[0].q` is its `q`.
    private static func bandField(_ field: String) -> String {
        field.hasPrefix("bands[0].") ? String(field.dropFirst("bands[0].".count)) : field
    }

    /// The chain `text` states, written as `--chain` takes it (`highpass frequency=80 | eq preset=Rock`).
    public init(parsing text: String) throws(ChainError) {
        stages = try ChainSyntax.parse(text)
    }

    /// The render of `input` through the chain into `output`, with `options`' format, rate, bits and settings.
    public func job(input: String, output: String, options: RenderJob.Options = RenderJob.Options()) -> RenderJob {
        RenderJob(input: input, output: OutputDestination(output), options: options, stages: stages)
    }

    /// Renders `input` through the chain into `output` (whole, or not at all), with `options`'
    /// format, rate, bits and settings, and says what the render did.
    @discardableResult
    public func render(input: String, output: String, options: RenderJob.Options = RenderJob.Options()) throws -> RenderJob.Summary {
        try job(input: input, output: output, options: options).run()
    }
}
