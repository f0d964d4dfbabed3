import AudioDSP
import AudioGraph
import AudioNodes
import AudioFormats

/// An initialized graph ready to render into one output, with what the output needs to know:
/// what `RenderJob` and `MixJob` build, and plan or run the same way.
struct PreparedRender {
    /// Each input and the nodes after it, up to the tail.
    let branches: [RenderPlan.Branch]
    /// The mixer and what follows it, for a mix; empty for a single input.
    let tail: [AudioNode]
    /// The sources feeding the graph (kept alive while it renders), each with the input it reads.
    let readers: [(input: String, source: FileSource)]
    let graph: Graph
    let outputNode: GenericOutput
    let format: StreamFormat
    let type: AudioContainer
    let encoding: AudioEncoding
    let dither: TPDFDither?
    /// The frames the output will have, when the inputs' lengths are known.
    var expectedFrames: Int64?
    /// The bit rate or quality of a lossy output.
    var encoderSettings = EncoderSettings()

    /// The resolved graph, as `--dry-run` prints it.
    func plan(output: OutputDestination) -> RenderPlan {
        RenderPlan(branches: branches, tail: tail, output: output.path, outputType: type, outputEncoding: encoding, dither: dither)
    }

    /// Renders what `prepare` builds into `output`, counting progress; with a loudness
    /// normalization, the graph is built and measured first, then built again with the gain
    /// (`prepare` is given the gain node to put last before the output). Refuses standard input
    /// there, as it cannot be read twice. Errors about the loudness name `subject`.
    static func render(output: OutputDestination, settings options: RenderSettings, normalization: LoudnessNormalization?,
                       inputs: [String], subject: String,
                       prepare: (GainNode?) throws -> PreparedRender) throws -> RenderJob.Summary {
        guard let normalization else {
            let prepared = try prepare(nil)
            options.progress?.expect(frames: prepared.expectedFrames, sampleRate: prepared.format.sampleRate)
            return try prepared.run(output: output, settings: options)
        }
        if inputs.contains("-") { throw RenderError.usage("-: loudness normalization reads the input twice, so it cannot be standard input") }
        let first = try prepare(nil)
        options.progress?.expect(frames: first.expectedFrames, sampleRate: first.format.sampleRate, passes: 2)
        let measured = try LoudnessScan.measure(first, path: subject, progress: options.progress)
        var outcome = try normalization.outcome(for: measured, path: subject)
        if outcome.limited {
            outcome = try measuredThroughTheLimiter(outcome, normalization: normalization, frames: first.expectedFrames,
                                                    sampleRate: first.format.sampleRate, settings: options, subject: subject, prepare: prepare)
        }
        var summary = try prepare(GainNode(name: "normalize", decibels: outcome.gain)).run(output: output, settings: options)
        summary.normalization = outcome
        return summary
    }

    /// Measurement passes a normalization that limits may take to find its gain.
    static let limiterPasses = 5
    /// How near the target, in the target's unit, a measured pass must come to be kept.
    static let limiterTolerance = 0.1

    /// The gain that reaches the target through the limiter, and the levels measured with it.
    ///
    /// The limiter takes the peaks the gain puts over the ceiling, so the programme comes out a
    /// little quieter than the gain alone says, and the more so the more it takes: each pass
    /// measures the whole graph with the gain and the limiter and corrects the gain by what it
    /// missed, scaled by how much the last correction moved the level (the secant method),
    /// until a pass lands within
    /// `limiterTolerance` of the target or `limiterPasses` have run. The gain kept is the
    /// measured one nearest the target (the smaller of two that come as near), so the levels
    /// reported are ones measured.
    private static func measuredThroughTheLimiter(_ first: LoudnessNormalization.Outcome, normalization: LoudnessNormalization,
                                                  frames: Int64?, sampleRate: Double, settings options: RenderSettings, subject: String,
                                                  prepare: (GainNode?) throws -> PreparedRender) throws -> LoudnessNormalization.Outcome {
        var gain = first.gain
        var best: (outcome: LoudnessNormalization.Outcome, miss: Double)?
        var previous: (gain: Double, level: Double)?
        for pass in 1...limiterPasses {
            options.progress?.expect(frames: frames, sampleRate: sampleRate, passes: 2 + pass)
            let through = try LoudnessScan.measure(prepare(GainNode(name: "normalize", decibels: gain)), path: subject, progress: options.progress)
            guard let level = normalization.level(of: through) else { break }
            let outcome = LoudnessNormalization.Outcome(measured: first.measured, gain: gain, integrated: through.integrated,
                                                        samplePeak: through.samplePeak, truePeak: through.truePeak, lowered: false, limited: true)
            let miss = normalization.target - level
            if best == nil || abs(miss) < abs(best!.miss) - 0.05 { best = (outcome, miss) }
            if abs(miss) <= limiterTolerance { break }
            let slope = previous.map { (level - $0.level) / (gain - $0.gain) } ?? 1
            previous = (gain, level)
            gain += min(12, miss / max(0.05, slope))
        }
        guard var kept = best else { return first }
        kept.outcome.reachedTarget = abs(kept.miss) <= LoudnessNormalization.reachTolerance
        return kept.outcome
    }

    /// The gain node a plan shows for `normalization`: its gain is found only when rendering,
    /// so it says what it aims at.
    static func plannedGain(_ normalization: LoudnessNormalization?) -> GainNode? {
        normalization.map {
            GainNode(name: "normalize", decibels: 0, purpose: "to \(RenderError.format($0.target)) \($0.measure.unit)"
                     + ($0.truePeakCeiling.isFinite && $0.measure != .truePeak ? ", true peak under \(RenderError.format($0.truePeakCeiling)) dBTP" : "")
                     + "; the gain is measured when rendering")
        }
    }

    /// Renders into `output`, leaving either a complete file or none.
    func run(output: OutputDestination, settings: RenderSettings) throws -> RenderJob.Summary {
        let written = try OutputRendering.write(outputNode, format: format, to: output, type: type, encoding: encoding,
                                                encoderSettings: encoderSettings, dither: dither, settings: settings)
        var summary = RenderJob.Summary(inputFormat: branches[0].file.format, outputType: type, outputEncoding: encoding,
                                        frames: written.frames, clipCount: written.clipCount, dither: dither, outputFormat: format,
                                        rms: written.sumOfSquares.map { RenderJob.Summary.rms($0, frames: written.frames, channels: format.channelCount) })
        let gaveAudio = Set(readers.filter { $0.source.framesRead > 0 }.map(\.input))
        for (input, _) in readers where !gaveAudio.contains(input) && !summary.inputsWithoutAudio.contains(input) {
            summary.inputsWithoutAudio.append(input)
        }
        return summary
    }
}
