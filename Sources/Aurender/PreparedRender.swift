import AudioDSP
import AudioFiles
import AudioGraph
import AudioNodes
import AudioFormats
import Loudness
import AudioMetadata

/// An initialized graph ready to render into one output, with what the output needs to know:
/// what `RenderJob` and `MixJob` build, and plan or run the same way.
struct PreparedRender {
    /// Each input and the nodes after it, up to the tail.
    let branches: [RenderPlan.Branch]
    /// The mixer and what follows it, for a mix; empty for a single input.
    let tail: [AudioNode]
    /// The sources feeding the graph (kept alive while it renders), each with the input it reads.
    let readers: [OutputRendering.InputReader]
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

    /// Renders what `prepare` builds into `output`, counting progress. A render that normalizes
    /// or trims silence is built and rendered more than once, `prepare` being told what each pass
    /// is for (`RenderPass`): the first finds where its silence-trim nodes' audio lies; a
    /// normalization then measures the loudness of the render as it will be written (trimmed,
    /// its fades where the trims put them) but for the gain; the last pass renders with both.
    /// The loudness meter, by far the dearest part of a pass, runs once, unless a limiter makes
    /// the gain a search (`measuredThroughTheLimiter`). Refuses standard input
    /// there, as it cannot be read twice, and any other input that cannot go back to its start
    /// (a pipe). Errors about the loudness name `subject`.
    static func render(output: OutputDestination, settings options: RenderSettings, normalization: LoudnessNormalization?,
                       inputs: [String], subject: String, metadata reading: () throws -> MetadataCarriage = { .none },
                       prepare: (RenderPass) throws -> PreparedRender) throws -> RenderJob.Summary {
        if normalization != nil, inputs.contains("-") {
            throw RenderError.usage("-: loudness normalization reads the input twice, so it cannot be standard input")
        }
        let first = try prepare(RenderPass(findingSilence: true))
        // The tags are read once the inputs are open, so that what a decoder reads of its header
        // and lets go is freed before the tags' pictures are held (libsndfile has libFLAC hand it
        // every metadata block, a 15 MB cover too): the two never add up in the peak memory.
        let metadata = try reading()
        let trims = first.silenceTrimNodes
        guard normalization != nil || !trims.isEmpty else {
            options.progress?.expect(frames: first.expectedFrames, sampleRate: first.format.sampleRate)
            var summary = try first.run(output: output, settings: options, metadata: metadata)
            summary.inputsWithoutAudio = first.inputsWithoutAudio
            return summary
        }
        if let once = inputs.first(where: { $0 == "-" }) ?? first.branches.first(where: { !$0.file.isSeekable })?.input {
            throw RenderError.usage("\(once): \(normalization != nil ? "loudness normalization" : "silence trimming") reads the input twice, "
                                    + "so it cannot be \(once == "-" ? "standard input" : "a pipe")")
        }
        options.progress?.expect(frames: first.expectedFrames, sampleRate: first.format.sampleRate,
                                 passes: 1 + (trims.isEmpty ? 0 : 1) + (normalization == nil ? 0 : 1))
        var pass = RenderPass()
        // The graph whose loudness a normalization measures: the first, or the trimmed one.
        var measuring = first
        if !trims.isEmpty {
            _ = try first.measure(loudness: false, subject: subject, progress: options.progress)
            var silence: [String: SilenceTrimNode.Measurement] = [:]
            for node in trims {
                guard let measured = node.measured else {
                    throw RenderError.usage("\(subject): the silence node '\(node.name)' was not rendered to its input's end, so its silence is unknown")
                }
                silence[node.name] = measured
            }
            pass.silence = silence
            if normalization != nil {
                measuring = try prepare(pass)
                options.progress?.expect(frames: measuring.expectedFrames.map { (options.progress?.framesDone ?? 0) + 2 * $0 },
                                         sampleRate: measuring.format.sampleRate)
            }
        }
        let loudness = normalization == nil ? nil : try measuring.measure(loudness: true, subject: subject, progress: options.progress)
        let inputsWithoutAudio = first.inputsWithoutAudio
        var outcome: LoudnessNormalization.Outcome?
        if let normalization, let loudness {
            var found = try normalization.outcome(for: loudness, path: subject)
            if found.limited {
                let trims = pass.silence
                found = try measuredThroughTheLimiter(found, normalization: normalization, frames: measuring.expectedFrames,
                                                      sampleRate: measuring.format.sampleRate, settings: options, subject: subject) { gain in
                    try prepare(RenderPass(silence: trims, gain: gain))
                }
            }
            outcome = found
            pass.gain = GainNode(name: "normalize", decibels: found.gain)
        }
        let last = try prepare(pass)
        options.progress?.expect(frames: last.expectedFrames.map { (options.progress?.framesDone ?? 0) + $0 }, sampleRate: last.format.sampleRate)
        var summary = try last.run(output: output, settings: options, metadata: metadata)
        summary.normalization = outcome
        summary.silenceTrims = last.silenceTrimNodes.compactMap(\.outcome)
        summary.inputsWithoutAudio = inputsWithoutAudio
        return summary
    }

    /// Pulls the graph to its end, measuring the loudness when asked (nil when not), and stops
    /// its readers: a silence trim may end the stream before its inputs end, and the next pass
    /// rewinds the decoders they read.
    private func measure(loudness: Bool, subject: String, progress: RenderProgress?) throws -> LoudnessMeasurement? {
        defer {
            for reader in readers { (reader.source as? ThreadedFileReader)?.stop() }
        }
        if loudness { return try LoudnessScan.measure(self, path: subject, progress: progress) }
        while case .rendered(let frames) = try outputNode.renderSlice(frameCount: outputNode.maximumFramesPerSlice) {
            progress?.add(frames)
        }
        return nil
    }

    /// Where the one input's frames land in the output: cut by its excerpt and its silence
    /// trims, converted to the output's rate and stretched by its time-pitch nodes; nil for a
    /// render of several inputs.
    var retiming: Retiming? {
        guard branches.count == 1 else { return nil }
        let file = branches[0].file
        let processing = branches[0].chain + tail
        let stretch = processing.compactMap { $0 as? TimePitchNode }.reduce(1.0) { product, node in
            product / Double(node.parameter(TimePitchNode.Parameter.tempo) * node.parameter(TimePitchNode.Parameter.speed))
        }
        let trimmed = silenceTrimNodes.compactMap(\.outcome).reduce(0.0) { $0 + $1.seconds($1.removedAtStart) }
        return Retiming(inputRate: file.format.sampleRate, outputRate: format.sampleRate,
                        cutFrames: (file as? ExcerptDecoder)?.firstFrame ?? 0, trimmedSeconds: trimmed, stretch: stretch)
    }

    /// The graph's silence-trim nodes.
    var silenceTrimNodes: [SilenceTrimNode] {
        (branches.flatMap(\.chain) + tail).compactMap { $0 as? SilenceTrimNode }
    }

    /// The inputs that gave no audio so far, in the order read.
    var inputsWithoutAudio: [String] {
        var found: [String] = []
        for reader in readers where reader.source.framesRead == 0 && !found.contains(reader.input) { found.append(reader.input) }
        return found
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
                                                  prepare: (GainNode) throws -> PreparedRender) throws -> LoudnessNormalization.Outcome {
        var gain = first.gain
        var best: (outcome: LoudnessNormalization.Outcome, miss: Double)?
        var previous: (gain: Double, level: Double)?
        for _ in 1...limiterPasses {
            options.progress?.expect(frames: frames.map { (options.progress?.framesDone ?? 0) + 2 * $0 }, sampleRate: sampleRate)
            guard let through = try prepare(GainNode(name: "normalize", decibels: gain)).measure(loudness: true, subject: subject,
                                                                                               progress: options.progress),
                  let level = normalization.level(of: through) else { break }
            let outcome = LoudnessNormalization.Outcome(measured: first.measured, gain: gain, integrated: through.integrated,
                                                        samplePeak: through.samplePeak, truePeak: through.truePeak,
                                                        reconstructedPeak: through.reconstructedPeak, lowered: false, limited: true)
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

    /// Renders into `output` with `metadata`'s tags and pictures, leaving either a complete file or none; the inputs without audio
    /// are for `render` to say, which knows the pass that read them to their ends.
    func run(output: OutputDestination, settings: RenderSettings, metadata: MetadataCarriage) throws -> RenderJob.Summary {
        var metadata = metadata
        if metadata.retiming == nil, !metadata.metadata.chunks.isEmpty { metadata.retiming = retiming }
        let written = try OutputRendering.write(outputNode, format: format, to: output, type: type, encoding: encoding,
                                                encoderSettings: encoderSettings, dither: dither,
                                                expectedFrames: expectedFrames, settings: settings, metadata: metadata)
        var summary = RenderJob.Summary(inputFormat: branches[0].file.format, outputType: type, outputEncoding: encoding,
                                        frames: written.frames, clipCount: written.clipCount, dither: dither, outputFormat: format,
                                        rms: written.sumOfSquares.map { RenderJob.Summary.rms($0, frames: written.frames, channels: format.channelCount) })
        summary.metadata = written.metadata
        if let output = written.sketch {
            let processing = branches.count == 1 ? branches[0].chain + tail : tail
            summary.sketches = RenderSketches(inputs: readers.compactMap { reader in reader.sketcher.map { .init(input: reader.input, sketch: $0.sketch()) } },
                                              output: output, response: RenderSketches.designedResponse(of: processing, sampleRate: format.sampleRate))
        }
        return summary
    }
}

/// What one build of a render's graph is for. The first build measures: its silence-trim nodes
/// record where the audio lies. Later builds render with what it found: each trim node is given
/// its namesake's measurement, and the last has the normalizing gain.
struct RenderPass {
    /// What the first pass's silence-trim nodes measured, by node name; nil in the first pass.
    var silence: [String: SilenceTrimNode.Measurement]?
    /// The gain that normalizes, to put last before the output; nil without one.
    var gain: GainNode?
    /// Whether the pass is the first of a render, which only finds the silence when the graph
    /// has trim nodes: a job may then leave out the nodes after its last trim, which cannot change
    /// what the trims find. A graph without trims must be whole, as it may be the one rendered.
    var findingSilence: Bool

    init(silence: [String: SilenceTrimNode.Measurement]? = nil, gain: GainNode? = nil, findingSilence: Bool = false) {
        self.silence = silence
        self.gain = gain
        self.findingSilence = findingSilence
    }

    /// Gives each silence-trim node among `nodes` what its namesake measured, before the graph
    /// initializes, so the node trims and its length (`outputFrames(forInputFrames:)`) is the
    /// trimmed one; in the first pass they are left to measure.
    func prepare(_ nodes: [AudioNode]) throws {
        guard let silence else { return }
        for case let node as SilenceTrimNode in nodes {
            guard let measurement = silence[node.name] else {
                throw RenderError.usage("the silence node '\(node.name)' was not in the graph that measured the silence")
            }
            try node.setMeasurement(measurement)
        }
    }

    /// When this pass only finds the silence and `nodes` hold a trim, the part of them it needs:
    /// up to their last trim. Nil when the pass needs the whole graph.
    func silenceFinding(_ nodes: [AudioNode]) -> [AudioNode]? {
        guard findingSilence, let last = nodes.lastIndex(where: { $0 is SilenceTrimNode }) else { return nil }
        return Array(nodes[...last])
    }
}
