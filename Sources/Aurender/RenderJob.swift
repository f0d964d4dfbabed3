import AudioDSP
import AudioFiles
import AudioGraph
import AudioNodes
import Resampling
import AudioFormats

/// Renders one input file through a graph into one output file: what `aurender IN OUT` does.
///
/// The graph is file reader (render callback) → [format converter] → the chain's stages (nodes
/// made by `NodeCatalogue`, in the order given) → generic output; the loop pulls slices from the output and hands them to the file writer.
/// A converter is inserted when the output rate or channels differ from the input's, as Core
/// Audio's I/O unit converts between formats, or when the output cannot hold the input's rate
/// and none was asked for (Opus: 48 kHz). Reading and writing run on their own threads,
/// so the disk and the conversions overlap the DSP. The output appears only when everything
/// succeeded.
public struct RenderJob {
    /// How the input is read, converted and stored: every field applies to a render of one file.
    public struct Options {
        /// The output's container, encoding, rate and channels.
        public var format = OutputFormatChoice()
        /// How input channels become output channels; nil uses the standard matrix.
        public var channelMatrix: ChannelMatrix?
        /// The format of a headerless input.
        public var rawInput: RawFormat?
        /// The part of the input to render; nil renders all of it.
        public var excerpt: InputExcerpt?
        /// Fades and loudness normalization.
        public var finishing = FinishingOptions()
        /// Resampling, dither, clipping, slice size and progress.
        public var settings = RenderSettings()
        /// Finds the EQ presets the chain's `eq` stages name.
        public var presets = PresetLookup(environment: [:])

        public init() {}
    }

    /// When to add TPDF dither on the way to integer samples.
    public enum DitherChoice: String, CaseIterable, Sendable {
        /// TPDF when the output has 16 bits or fewer and the audio has more resolution than
        /// that (it was processed, converted, or came from a deeper or float file); none for a
        /// plain copy, which stays bit-exact.
        case automatic = "auto"
        /// TPDF whenever the output is integer.
        case tpdf
        /// Never.
        case none
    }

    /// What to do when an integer output would clip.
    public enum ClipPolicy: String, CaseIterable, Sendable {
        /// Write the clipped output and report the count.
        case warn
        /// Write no output; fail with `RenderError.clipped`.
        case fail
    }

    /// What a finished render did.
    public struct Summary {
        public var inputFormat: StreamFormat
        public var outputType: AudioContainer
        public var outputEncoding: AudioEncoding
        public var frames: Int64
        public var clipCount: ClipCount
        public var dither: TPDFDither?
        /// The output's rate and channels.
        public var outputFormat: StreamFormat
        /// The RMS level of everything written (1.0 is full scale), before quantization; nil
        /// unless the settings asked for it (`RenderSettings.measuresLevel`).
        public var rms: Double?
        /// What loudness normalization measured and applied, when asked for.
        public var normalization: LoudnessNormalization.Outcome?
        /// What each silence-trim node removed, in the order of the graph's nodes; empty without one.
        public var silenceTrims: [SilenceTrimNode.Outcome] = []
        /// The inputs that ended before their stated length, salvaged (`RenderSettings.salvage`).
        public var shortfalls: [InputShortfall] = []
        /// The inputs that held no audio (valid files of no frames), in the order read: said
        /// rather than passed off in silence, with the output's emptiness when none held any.
        public var inputsWithoutAudio: [String] = []
        /// The inputs and the output sketched for a report's pictures; nil unless the settings
        /// asked for them (`RenderSettings.sketchesSignals`).
        public var sketches: RenderSketches?
        /// What became of the input's tags and pictures: a damaged tag read, what the output did not keep.
        public var metadata = MetadataOutcome()
        /// The gains `RenderSettings.replayGain` applied, in input order; empty without it.
        public var replayGains: [AppliedReplayGain] = []
    }

    public var input: String
    /// Where the output goes.
    public var output: OutputDestination
    /// The input, opened once and shared by the job's copies: a plan, the run after it and
    /// `inputFormat()` read one decoder, so standard input is read only once.
    private let opened = OpenedInputs()
    public var options: Options
    /// The processing after the converter, in order: each stage a node kind and its fields.
    public var stages: [ChainStage]
    /// Builds nodes of a Swift program's own after the stages, given the format they receive
    /// (none by default); a plan cannot state them as a graph file.
    public var makeProcessing: ((StreamFormat) throws -> [AudioNode])?

    /// A render through `stages`, in their order.
    public init(input: String, output: OutputDestination, options: Options = Options(), stages: [ChainStage] = []) {
        self.input = input
        self.output = output
        self.options = options
        self.stages = stages
    }

    /// A render through nodes `makeProcessing` builds, for nodes the catalogue does not have.
    public init(input: String, output: OutputDestination, options: Options = Options(),
                makeProcessing: @escaping (StreamFormat) throws -> [AudioNode]) {
        self.init(input: input, output: output, options: options)
        self.makeProcessing = makeProcessing
    }

    /// The input's format, read from its header (opening it for the plan and run that follow).
    public func inputFormat() throws -> StreamFormat {
        try opened.decoder(for: input, raw: options.rawInput, forcing: options.settings.decoder, salvaging: options.settings.salvage,
                           readingTags: readsInputTags).format
    }

    /// Builds and initializes the graph without reading audio, and describes it.
    public func plan() throws -> RenderPlan {
        try prepare(readingAhead: false, pass: RenderPass(gain: PreparedRender.plannedGain(options.finishing.normalization))).plan(output: output)
    }

    /// Renders, leaving either a complete output or none (and an existing one untouched).
    /// The input's tags and pictures go into the output, as `RenderSettings.tags` chooses (`MetadataCarriage`).
    /// With a loudness normalization or a silence-trim node among the processing, the graph's
    /// output is measured first, then rendered again with the gain and the trim.
    public func run() throws -> Summary {
        var summary = try PreparedRender.render(output: output, settings: options.settings, normalization: options.finishing.normalization,
                                                inputs: [input], subject: input,
                                                metadata: { try .resolving(options.settings.tags, input: input, headerless: options.rawInput != nil,
                                                                           leveled: options.settings.replayGain != nil) }) { pass in
            try prepare(readingAhead: true, pass: pass)
        }
        summary.shortfalls = opened.shortfalls
        summary.replayGains = opened.appliedReplayGains
        return summary
    }

    /// Whether the input's own tags are carried, so a pipe's metadata before its audio is kept for them.
    private var readsInputTags: Bool { options.settings.tags.carries && options.settings.tags.source == nil }

    /// Opens the input and builds the graph for `pass` (its trims measured, its gain last before
    /// the output; a pass that only finds the silence ends at the trim, which is first, so it
    /// reads and converts the input and no more); `readingAhead` starts the reader's thread (a
    /// plan reads no audio, so it uses the plain reader).
    func prepare(readingAhead: Bool, pass: RenderPass) throws -> PreparedRender {
        try OutputRendering.refuseSameFile(inputs: [input], output: output)
        let whole = try opened.decoder(for: input, raw: options.rawInput, forcing: options.settings.decoder, salvaging: options.settings.salvage,
                                       readingTags: readsInputTags)
        let file = try options.excerpt.map { (excerpt) throws(RenderError) in try ExcerptDecoder(whole, excerpt: excerpt) } ?? whole
        let reading = OutputRendering.makeReader(file, input: input, readingAhead: readingAhead, settings: options.settings)
        let reader = reading.source
        let graph = Graph()
        let outputNode = GenericOutput()
        var chain: [AudioNode] = []
        if let playback = options.settings.replayGain {
            chain.append(try opened.replayGain(for: input, playback).makeNode(name: Self.name("replaygain", freeOf: stages)))
        }
        var expectedFrames: Int64?
        do {
            try graph.setMaximumFramesPerSlice(options.settings.framesPerSlice)
            var format = reader.format
            if let converter = try OutputRendering.makeConverter(from: reader.format, sampleRate: options.format.sampleRate,
                                                                  channelCount: options.format.channelCount,
                                                                  matrix: options.channelMatrix, settings: options.settings,
                                                                  name: Self.name("converter", freeOf: stages),
                                                                  implied: OutputRendering.impliedSampleRate(output: output, choice: options.format,
                                                                                                             inputRate: reader.format.sampleRate)) {
                chain.append(converter)
                format = converter.streamFormat(scope: .output) ?? format
            }
            expectedFrames = file.length.frames.map { OutputRendering.convertedLength($0, from: file.format.sampleRate, to: format.sampleRate) }
            let made = try ChainStage.makeNodes(stages, context: ChainStage.context(sampleRate: format.sampleRate, settings: options.settings,
                                                                                     presets: options.presets)) + (try makeProcessing?(format) ?? [])
            try pass.prepare(made)
            let finding = pass.silenceFinding(made)
            let processing = finding ?? made
            expectedFrames = OutputRendering.length(after: processing, given: expectedFrames)
            chain += processing
            if finding == nil {
                chain += try OutputRendering.makeFades(options.finishing, sampleRate: format.sampleRate, totalFrames: expectedFrames,
                                                       tails: OutputRendering.hasTail(processing), input: input)
            }
            if let gain = pass.gain { chain.append(gain) }
            if finding == nil, let limiter = try options.finishing.makeLimiter(name: Self.name("limiter", freeOf: stages)) { chain.append(limiter) }
            chain.append(outputNode)
            for node in chain { try graph.addNode(node) }
            try reader.attach(to: chain[0], in: graph)
            for (source, destination) in zip(chain, chain.dropFirst()) { try graph.connect(source, to: destination) }
            try graph.initialize()
        } catch let error as GraphError {
            if case .unsupportedFormat(_, _, _, _, let reason) = error { throw RenderError.usage("\(input): \(reason)") }
            throw RenderError.graph(error)
        } catch let error as EqualizerError {
            throw RenderError.usage(error.description)
        } catch let error as FilterError {
            throw RenderError.usage("\(input): \(error)")
        }
        let format = outputNode.streamFormat(scope: .output) ?? reader.format
        let (type, encoding) = try OutputRendering.chooseOutputFormat(output: output, choice: options.format, input: file, format: format)
        let processed = OutputRendering.isProcessing(chain)
        return PreparedRender(branches: [RenderPlan.Branch(input: input, file: file, chain: chain)], tail: [], readers: [reading],
                              graph: graph, outputNode: outputNode, format: format, type: type, encoding: encoding,
                              dither: OutputRendering.dither(for: encoding, inputs: [file.encoding], processed: processed, settings: options.settings),
                              expectedFrames: expectedFrames, encoderSettings: options.format.encoder)
    }

}

extension RenderJob {
    /// `name` for a node of the job's own, or `final NAME` when a stage of the chain has it: names are unique in a graph.
    static func name(_ name: String, freeOf stages: [ChainStage]) -> String {
        stages.contains { $0.name == name } ? "final " + name : name
    }
}

extension RenderJob.Summary {
    /// The RMS level from a sum of squares over `frames` frames of `channels` channels.
    static func rms(_ sumOfSquares: Double, frames: Int64, channels: Int) -> Double {
        frames > 0 ? (sumOfSquares / Double(frames * Int64(channels))).squareRoot() : 0
    }
}
