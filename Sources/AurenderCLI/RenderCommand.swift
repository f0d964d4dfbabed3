import ArgumentParser
import Aurender
import FoundationEssentials

/// `aurender [render] INPUT OUTPUT`: renders one file through the graph.
struct RenderCommand: PositionalArgumentsValidating {
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Render INPUT to OUTPUT through the graph (the default subcommand).",
        discussion: """
            The output container comes from OUTPUT's extension (wav, aiff, flac, caf, w64, rf64, \
            ogg, opus, mp3, m4a, au, raw) or --type. The encoding is --bits, else the input's where the \
            container can hold it, else 16-bit PCM (or the codec of a lossy container).

            The output is written to an unnamed temporary file in OUTPUT's folder and linked into \
            place only when complete: on any failure, even kill -9, OUTPUT is left as it was and \
            nothing is left behind. A replaced OUTPUT keeps its permissions and owner; a new one \
            follows the umask. OUTPUT may not be the same file as INPUT (checked by device and \
            inode, through links).

            Use - for standard input or output. A headerless (raw) input needs --input-type raw \
            with --input-rate, --input-channels and --input-bits; a WAV cannot be written to a pipe, \
            so use --type au or raw for standard output.
            """
    )

    @Argument(help: ArgumentHelp(
        "INPUT OUTPUT (- for standard input or output); or GRAPH.json, which names its own output; or, with -o, the inputs (files or folders).",
        valueName: "files"), completion: .file())
    var paths: [String] = []

    @OptionGroup(title: "Many files")
    var batch: BatchOptions

    /// The file to read: the first path.
    var input: String { paths.first ?? "" }
    /// The file to write: the second path, unless a graph file or a batch names the outputs.
    var output: String? { paths.count > 1 ? paths[1] : nil }

    @OptionGroup
    var rendering: RenderingOptions

    @OptionGroup(title: "Equalizer")
    var equalizer: EqualizerOptions

    @OptionGroup(title: "Plugins")
    var plugins: PluginOptions

    @OptionGroup(title: "Gain and excerpt")
    var editing: EditingOptions

    @OptionGroup(title: "Filters, dynamics, time and pitch")
    var effects: EffectsOptions

    @OptionGroup(title: "Raw input")
    var rawInput: RawInputOptions

    @OptionGroup(title: "Graph files")
    var graphFile: GraphFileOptions

    @Option(help: ArgumentHelp("Frames per rendered slice (1 to 1048576).", valueName: "frames"))
    var framesPerSlice = Graph.defaultMaximumFramesPerSlice

    func validate() throws {
        guard (1...1_048_576).contains(framesPerSlice) else {
            throw ValidationError("--frames-per-slice must be from 1 to 1048576, not \(framesPerSlice)")
        }
        if rendering.reporting.json, output == "-" { throw ValidationError("--json needs standard output; the audio cannot go there too") }
        try rendering.validateDurability(output: output)
        _ = try rawInput.format()
        if plugins.tail != nil, plugins.specs.isEmpty, !effects.hasTail {
            throw ValidationError("--tail needs --plugin, --delay, --reverb or --convolve")
        }
    }

    func validatePositionalArguments() throws {
        if paths.isEmpty { throw ValidationError("Missing expected argument '<input>'") }
        if batch.outputFolder == nil {
            if let shard = batch.shard { throw ValidationError("--shard \(shard) applies to batches (-o FOLDER), not to a single render") }
            if paths.count > 2 { throw ValidationError("give one INPUT and one OUTPUT, or -o FOLDER with many inputs") }
            if output == nil, !input.lowercased().hasSuffix(".json") {
                throw ValidationError("Missing expected argument '<output>'")
            }
        }
        try effects.validateEchoReference(batch: batch.outputFolder != nil, excerpt: editing.excerpt != nil)
        try graphFile.validate(rendersAGraph: batch.outputFolder == nil && output == nil)
        if rendering.loudness.normalization != nil, batch.outputFolder == nil, output == nil {
            throw ValidationError("\(rendering.loudness.normalize != nil ? "--normalize" : "--normalize-peak") applies to renders of files, not to graph files")
        }
    }

    func run() throws {
        if let folder = batch.outputFolder { return try renderBatch(into: folder) }
        guard let output else { return try renderGraph() }
        let job: RenderJob, preset: EQPreset?
        do {
            preset = try equalizer.resolvePreset(environment: ProcessInfo.processInfo.environment)
            job = try makeJob(input: input, output: output, preset: preset)
        } catch {
            let (message, status) = hints.failure(error, subject: input)
            throw fail(message, status)
        }
        try rendering.runner(hints: hints).perform(job, label: input, planStyle: rendering.planStyle,
                                                   preface: rendering.console.verbose ? equalizerLines(preset) : []) { summary, seconds in
            report(job, summary: summary, seconds: seconds, preset: preset)
        }
    }

    /// The hints for a render's messages: `--preamp` only applies with an EQ.
    var hints: CommandHints { equalizer.preset == nil ? .renderWithoutEQ : .render }

    /// The render of `input` to `output` the flags ask for; a channel map reads the input's
    /// channel count through the job, which keeps the input open for its plan and run.
    func makeJob(input: String, output: String, preset: EQPreset?) throws -> RenderJob {
        let resampler = try ResamplerRegistry.engine(named: rendering.conversion.resampler)
        let quality = rendering.conversion.srcQuality.quality
        let spatial = try rendering.spatial()
        var job = RenderJob(input: input, output: OutputDestination(output)) { [editing, plugins, effects] format in
            try effects.voiceNodes(resampler: resampler, quality: quality) + editing.silenceNodes(sampleRate: format.sampleRate)
                + plugins.arrange(try effects.filterNodes() + equalizer.makeNodes(for: preset), sampleRate: format.sampleRate)
                + editing.gainNodes + effects.dynamicsNodes() + effects.colourNodes(sampleRate: format.sampleRate, tail: plugins.tail?.time)
                + effects.convolutionNodes(sampleRate: format.sampleRate, tail: plugins.tail?.time, resampler: resampler, quality: quality)
                + effects.timePitchNodes(resampler: resampler, quality: quality)
                + (try spatial.map { [try $0.makeNode(buses: 1, sampleRate: format.sampleRate)] } ?? [])
        }
        try rendering.apply(to: &job.options.format)
        rendering.apply(to: &job.options.finishing)
        rendering.apply(to: &job.options.settings)
        job.options.settings.framesPerSlice = framesPerSlice
        job.options.rawInput = try rawInput.format()
        job.options.excerpt = editing.excerpt
        let opened = job
        job.options.channelMatrix = try rendering.conversion.channelMatrix { try opened.inputFormat().channelCount }
        return job
    }

    /// The report of one finished render, with the options that shaped it.
    func report(_ job: RenderJob, summary: RenderJob.Summary, seconds: Double, preset: EQPreset?) -> RenderReport {
        RenderReport(version: AurenderVersion.string, inputs: job.inputPaths, output: job.output.path, summary: summary, seconds: seconds,
                     options: RenderReport.Options(eqPreset: preset?.name, eqMode: preset == nil ? nil : equalizer.mode.rawValue,
                                                   srcQuality: job.options.format.sampleRate == nil ? nil : job.settings.resamplerQuality.name,
                                                   ditherSeed: summary.dither?.seed),
                     normalization: job.options.finishing.normalization)
    }

    /// Renders the graph file named by `input`, refusing the flags the graph states itself.
    private func renderGraph() throws {
        let stated = equalizer.flagsAGraphStates + plugins.flagsAGraphStates + editing.flagsAGraphStates + effects.flagsAGraphStates
            + rendering.conversion.flagsAGraphStates + (rendering.loudness.limit != nil ? ["--limit"] : [])
            + rendering.spatialFlags + rawInput.flagsGiven + [(rendering.type != nil, "--type"), (rendering.bits != nil, "--bits")].filter(\.0).map(\.1)
        if let flag = stated.first {
            throw fail("\(input): \(flag) does not apply to a graph file, whose nodes and events state it; set it in the graph", .usage)
        }
        var settings = RenderSettings()
        rendering.apply(to: &settings)
        settings.framesPerSlice = framesPerSlice
        let job: GraphJob
        do {
            let folder = input.contains("/") ? String(input[..<input.lastIndex(of: "/")!]) : "."
            job = GraphJob(description: try GraphDescription.load(path: input), folder: folder, allowing: graphFile.allowedFolders,
                           options: settings, presets: PresetLookup(environment: ProcessInfo.processInfo.environment))
        } catch {
            let (message, status) = CommandHints.graph.failure(error, subject: input)
            throw fail(message, status)
        }
        try rendering.runner(hints: .graph).perform(job, label: input, planStyle: rendering.planStyle) { summary, seconds in
                RenderReport(version: AurenderVersion.string, inputs: job.inputPaths, output: (try? job.outputDestination.path) ?? input,
                             summary: summary, seconds: seconds,
                             options: RenderReport.Options(srcQuality: settings.resamplerQuality.name, ditherSeed: summary.dither?.seed),
                             normalization: nil)
            }
    }

    /// What the EQ does with the preset, for `--verbose`, before the plan shows the graph.
    private func equalizerLines(_ preset: EQPreset?) -> [String] {
        guard let preset else { return [] }
        guard let node = (try? equalizer.makeNodes(for: preset))?.first as? GraphicEQNode else {
            return ["eq: preset '\(preset.name)' is flat: the equalizer drops out of the graph"]
        }
        let gains = preset.gains.map { decibels($0) }.joined(separator: " ")
        return ["eq: preset '\(preset.name)' (\(node.mode.rawValue)), band gains dB: \(gains), preamp "
                + "\(decibels(Double(node.parameter(GraphicEQNode.Parameter.preamp)) + preset.preamp)) dB"]
    }
}

/// How `--plan` prints the graph.
extension PlanStyle: ExpressibleByArgument {}

/// Options describing a headerless input, which has no header to say its format.
struct RawInputOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Input container, for inputs without a header: raw.", valueName: "type"))
    var inputType: ContainerArgument?

    @Option(help: ArgumentHelp("Sample rate of a raw input, in Hz.", valueName: "hz"))
    var inputRate: Int?

    @Option(help: ArgumentHelp("Channels of a raw input.", valueName: "n"))
    var inputChannels: Int?

    @Option(help: ArgumentHelp("Encoding of a raw input: 8, 16, 24, 32, float or double.", valueName: "bits"))
    var inputBits: BitsArgument?

    /// The flags given, by name.
    var flagsGiven: [String] {
        [(inputType != nil, "--input-type"), (inputRate != nil, "--input-rate"), (inputChannels != nil, "--input-channels"),
         (inputBits != nil, "--input-bits")].filter(\.0).map(\.1)
    }

    /// The raw format, when `--input-type raw` is given; a usage error if it is incomplete.
    func format() throws -> RawFormat? {
        guard let inputType else {
            if inputRate != nil || inputChannels != nil || inputBits != nil {
                throw ValidationError("--input-rate, --input-channels and --input-bits need --input-type raw")
            }
            return nil
        }
        guard inputType.type == .raw else {
            throw ValidationError("--input-type only takes raw; other containers are recognised from their header")
        }
        guard let inputRate, let inputChannels, let inputBits else {
            throw ValidationError("--input-type raw needs --input-rate, --input-channels and --input-bits")
        }
        return RawFormat(sampleRate: inputRate, channelCount: inputChannels, encoding: inputBits.encoding)
    }
}
