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

    @Option(help: ArgumentHelp("""
        The processing, in your order, instead of the effect flags: stages 'KIND FIELD=VALUE ... | KIND ...' with the kinds \
        and fields of graph files ('aurender nodes' lists them) and their units; values with spaces quoted; a filter shape is short for a one-band filter: \
        'highpass frequency=80 | eq preset=Rock | reverb preset="large hall" wet=30'.
        """, valueName: "stages"))
    var chain: String?

    @OptionGroup(title: "Graph files")
    var graphFile: GraphFileOptions

    @Option(help: ArgumentHelp("Frames per rendered slice (\(Graph.framesPerSliceRange.lowerBound) to \(Graph.framesPerSliceRange.upperBound)).",
                               valueName: "frames"))
    var framesPerSlice = Graph.defaultMaximumFramesPerSlice

    func validate() throws {
        guard Graph.framesPerSliceRange.contains(framesPerSlice) else {
            let range = Graph.framesPerSliceRange
            throw ValidationError("--frames-per-slice must be from \(range.lowerBound) to \(range.upperBound), not \(framesPerSlice)")
        }
        if rendering.reporting.json, output == "-" { throw ValidationError("--json needs standard output; the audio cannot go there too") }
        try rendering.validateDurability(output: output)
        _ = try rawInput.format()
        if let chain {
            if let flag = effectFlags.first { throw ValidationError("--chain states the whole processing; give \(flag) as a stage of it instead") }
            do { _ = try ChainSyntax.parse(chain) } catch { throw ValidationError("--chain \(error)") }
        }
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
                                                   preface: rendering.console.verbose ? equalizerLines(preset) + pipedTagLines(job) : []) { summary, seconds in
            report(job, summary: summary, seconds: seconds, preset: preset)
        }
    }

    /// The effect flags given, which `--chain` states as stages instead.
    var effectFlags: [String] {
        equalizer.flagsAGraphStates + plugins.flagsAGraphStates + effects.flagsAGraphStates
            + [(editing.gain != nil, "--gain"), (editing.trimSilence != nil, "--trim-silence"), (editing.silenceMargin != nil, "--silence-margin")]
                .filter(\.0).map(\.1)
    }

    /// The hints for a render's messages: `--preamp` only applies with an EQ.
    var hints: CommandHints { equalizer.preset == nil ? .renderWithoutEQ : .render }

    /// The render of `input` to `output` the flags ask for: their stages in the library's default
    /// order (`ChainOrder`); a channel map, and a delay's low-pass, read the input's format
    /// through the job, which keeps the input open for its plan and run.
    func makeJob(input: String, output: String, preset: EQPreset?) throws -> RenderJob {
        var job = RenderJob(input: input, output: OutputDestination(output))
        try rendering.apply(to: &job.options.format)
        rendering.apply(to: &job.options.finishing)
        rendering.apply(to: &job.options.settings)
        job.options.settings.framesPerSlice = framesPerSlice
        job.options.rawInput = try rawInput.format()
        job.options.excerpt = editing.excerpt
        job.options.presets = PresetLookup(environment: ProcessInfo.processInfo.environment)
        let opened = job
        job.options.channelMatrix = try rendering.conversion.channelMatrix { try opened.inputFormat().channelCount }
        let rate = (effects.delay?.split(separator: ":").count ?? 0) > 3 ? try job.options.format.sampleRate ?? opened.inputFormat().sampleRate : nil
        let tail = plugins.tail?.time
        let spatial = try rendering.spatial().map { [$0.stage] } ?? []
        if let chain {
            job.stages = try ChainSyntax.parse(chain) + spatial
            return job
        }
        job.stages = ChainOrder.ordered(
            try effects.voiceStages() + editing.silenceStages + plugins.stages + effects.filterStages() + equalizer.stages(for: preset)
                + editing.gainStages + effects.dynamicsStages() + effects.colourStages(sampleRate: rate, tail: tail)
                + effects.convolutionStages(tail: tail) + effects.timePitchStages + spatial,
            pluginsAfterEQ: plugins.pluginAfterEq)
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
            + rendering.spatialFlags + rawInput.flagsGiven
            + [(rendering.type != nil, "--type"), (rendering.bits != nil, "--bits"), (chain != nil, "--chain")].filter(\.0).map(\.1)
        if let flag = stated.first {
            throw fail("\(input): \(flag) does not apply to a graph file, whose nodes and events state it; set it in the graph", .usage)
        }
        if let flag = rendering.tagFlags.first { throw fail("\(input): \(flag) does not apply to a graph file: its output carries no tags yet", .usage) }
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
                             normalization: try? job.outputNormalization())
            }
    }

    /// What the EQ does with the preset, for `--verbose`, before the plan shows the graph.
    /// What `--verbose` says of the tags of an input read from a pipe: only those before its audio.
    private func pipedTagLines(_ job: RenderJob) -> [String] {
        let tags = job.options.settings.tags
        guard tags.carries, tags.source == nil, job.options.rawInput == nil, AudioInput.isPipe(job.input) else { return [] }
        return ["tags: \(job.input): a pipe gives only what its format holds before the audio (no ID3v1, APEv2 or chunks after it)"]
    }

    private func equalizerLines(_ preset: EQPreset?) -> [String] {
        guard let preset else { return [] }
        let preamp = Double(Float(equalizer.preamp.map { $0.decibels(for: preset) } ?? 0))
        if preset.isFlat, preamp == 0 { return ["eq: preset '\(preset.name)' is flat: the equalizer drops out of the graph"] }
        let gains = preset.gains.map { decibels($0) }.joined(separator: " ")
        return ["eq: preset '\(preset.name)' (\(equalizer.mode.rawValue)), band gains dB: \(gains), preamp \(decibels(preamp + preset.preamp)) dB"]
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
