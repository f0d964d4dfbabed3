import AudioDSP
import AudioGraph
import AudioNodes
import SoundFile

/// An initialized graph ready to render into one output, with what the output needs to know:
/// what `RenderJob` and `MixJob` build, and plan or run the same way.
struct PreparedRender {
    /// Each input and the nodes after it, up to the tail.
    let branches: [RenderPlan.Branch]
    /// The mixer and what follows it, for a mix; empty for a single input.
    let tail: [AudioNode]
    /// The sources feeding the graph (kept alive while it renders).
    let readers: [FileSource]
    let graph: Graph
    let outputNode: GenericOutput
    let format: StreamFormat
    let type: SoundFileType
    let encoding: SoundFileEncoding
    let dither: TPDFDither?
    /// The frames the output will have, when the inputs' lengths are known.
    var expectedFrames: Int64?

    /// The resolved graph, as `--dry-run` prints it.
    func plan(output: String) -> RenderPlan {
        RenderPlan(branches: branches, tail: tail, output: output, outputType: type, outputEncoding: encoding, dither: dither)
    }

    /// Renders into `output`, leaving either a complete file or none; `changes` land on their frames.
    func run(output: String, options: RenderJob.Options, changes: [GraphJob.ScheduledChange] = []) throws -> RenderJob.Summary {
        let written = try OutputRendering.write(outputNode, format: format, to: output, type: type, encoding: encoding,
                                                dither: dither, options: options, changes: changes)
        return RenderJob.Summary(inputFormat: branches[0].file.format, outputType: type, outputEncoding: encoding,
                                 frames: written.frames, clipCount: written.clipCount, dither: dither, outputFormat: format,
                                 rms: RenderJob.Summary.rms(written.sumOfSquares, frames: written.frames, channels: format.channelCount))
    }
}
