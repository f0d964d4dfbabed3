import Aurender
import Foundation
import TestSupport
import Testing

/// What `RenderJob.graphDescription()` cannot state is refused, naming it, never left out of the
/// graph file; what it can is written as the `file` and `output` nodes' fields.
@Suite struct RenderJobGraphFileTests {
    @Test func whatAGraphFileCannotStateIsRefusedNamingIt() throws {
        let folder = try TemporaryFolder()
        let input = fixture("music.wav"), output = OutputDestination(folder.file("out.wav"))
        let closure = RenderJob(input: input, output: output) { _ in [GainNode(decibels: -3)] }
        var slowLimiter = RenderJob(input: input, output: output)
        slowLimiter.options.finishing.limiter = LimiterSettings(ceiling: -1, release: 0.2)
        var unbounded = RenderJob(input: input, output: output)
        unbounded.options.finishing.normalization = LoudnessNormalization(target: -16, truePeakCeiling: .infinity)
        var muLaw = RenderJob(input: input, output: output)
        muLaw.options.rawInput = RawFormat(sampleRate: 8000, channelCount: 1, encoding: .ulaw)
        for (job, what) in [(closure, "nodes made by a closure"), (slowLimiter, "a last limiter's own release or lookahead"),
                            (unbounded, "this normalization's true-peak ceiling"), (muLaw, "a headerless input of U-Law")] {
            do {
                _ = try job.graphDescription()
                Issue.record("\(what) was left out of the graph file rather than refused")
            } catch {
                #expect("\(error)" == "\(input): a graph file cannot state \(what) yet")
            }
        }
        #expect(folder.contents().isEmpty, "a plan writes nothing")
    }

    @Test func anExcerptAFadeAndANormalizationAreTheEdgeNodesFields() throws {
        let folder = try TemporaryFolder()
        var job = RenderJob(input: fixture("music.wav"), output: OutputDestination(folder.file("out.wav")))
        job.options.excerpt = InputExcerpt(start: .seconds(0.5), end: .at(.frames(88_200)))
        job.options.finishing.fadeOut = 0.25
        job.options.finishing.normalization = LoudnessNormalization(target: -3, measure: .samplePeak, truePeakCeiling: .infinity,
                                                                        overCeiling: .lower)
        let nodes = try job.graphDescription().nodes
        #expect(nodes.first?.fields == ["path": .text(fixture("music.wav")), "start": .number(0.5), "end": .text("88200f")])
        #expect(nodes.last?.fields == ["path": .text(folder.file("out.wav")), "fadeOut": .number(0.25), "normalize": .number(-3),
                                       "measure": .text("samplePeak"), "overCeiling": .text("lower")])
    }
}
