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
            ogg, opus, mp3, au, raw) or --type. The encoding is --bits, else the input's where the \
            container can hold it, else 16-bit PCM (or the codec of a lossy container).

            The output is written to a temporary file beside OUTPUT and renamed over it only when \
            complete: on any failure OUTPUT is left as it was. OUTPUT may not be the same file as \
            INPUT (checked by device and inode, through links).

            Use - for standard input or output. A headerless (raw) input needs --input-type raw \
            with --input-rate, --input-channels and --input-bits; a WAV cannot be written to a pipe, \
            so use --type au or raw for standard output.
            """
    )

    @Argument(help: ArgumentHelp(
        "INPUT OUTPUT (- for standard input or output); or GRAPH.json, which names its own output; or, with -o, the inputs (files or folders).",
        valueName: "files"))
    var paths: [String] = []

    @OptionGroup(title: "Many files")
    var batch: BatchOptions

    /// The file to read: the first path.
    var input: String { paths.first ?? "" }
    /// The file to write: the second path, unless a graph file or a batch names the outputs.
    var output: String? { paths.count > 1 ? paths[1] : nil }

    @Option(help: ArgumentHelp("Output container.", valueName: "type"))
    var type: ContainerArgument?

    @Option(help: ArgumentHelp("Output sample encoding: 8, 16, 24, 32 (PCM), float or double.", valueName: "bits"))
    var bits: BitsArgument?

    @OptionGroup(title: "Equalizer")
    var equalizer: EqualizerOptions

    @OptionGroup(title: "Format conversion")
    var conversion: ConversionOptions

    @OptionGroup(title: "Loudness")
    var loudness: LoudnessOptions

    @Flag(help: "Print the resolved graph (nodes, connections, formats) and exit before reading audio.")
    var dryRun = false

    @Option(help: ArgumentHelp("Like --dry-run, as text or as Graphviz dot.", valueName: "text|dot"))
    var plan: PlanFormat?

    @Option(help: ArgumentHelp("When an integer output clips: warn (write it, report the count) or fail (write nothing, exit 3).",
                               valueName: "policy"))
    var onClip: RenderJob.ClipPolicy = .warn

    @OptionGroup(title: "Messages")
    var console: ConsoleOptions

    @OptionGroup(title: "Reports")
    var reporting: ReportOptions

    @OptionGroup(title: "Raw input")
    var rawInput: RawInputOptions

    @Option(help: ArgumentHelp("Frames per rendered slice (1 to 1048576).", valueName: "frames"))
    var framesPerSlice = Graph.defaultMaximumFramesPerSlice

    func validate() throws {
        guard (1...1_048_576).contains(framesPerSlice) else {
            throw ValidationError("--frames-per-slice must be from 1 to 1048576, not \(framesPerSlice)")
        }
        if reporting.json, output == "-" { throw ValidationError("--json needs standard output; the audio cannot go there too") }
        if let type, type.type.isLossy, bits != nil {
            throw ValidationError("--bits does not apply to the lossy container \(type.type.name)")
        }
    }

    func validatePositionalArguments() throws {
        if paths.isEmpty { throw ValidationError("Missing expected argument '<input>'") }
        if batch.outputFolder == nil {
            if paths.count > 2 { throw ValidationError("give one INPUT and one OUTPUT, or -o FOLDER with many inputs") }
            if output == nil, !input.lowercased().hasSuffix(".json") {
                throw ValidationError("Missing expected argument '<output>'")
            }
        }
        if loudness.normalize != nil, batch.outputFolder == nil, output == nil {
            throw ValidationError("--normalize applies to renders of files, not to graph files")
        }
    }

    func run() throws {
        if let folder = batch.outputFolder { return try renderBatch(into: folder) }
        guard let output else { return try renderGraph() }
        let summary: RenderJob.Summary
        let verbose = console.verbose
        do {
            let preset = try equalizer.resolvePreset(environment: ProcessInfo.processInfo.environment)
            var job = RenderJob(input: input, output: output) { _ in try equalizer.makeNodes(for: preset) }
            try setRenderOptions(of: &job)
            let options = job.options
            if let format = plan ?? (dryRun ? .text : nil) {
                let resolved = try withLibraryMessagesSilenced { try job.plan() }
                print(format == .dot ? resolved.dot : resolved.text)
                return
            }
            if verbose {
                let resolved = try job.plan()
                describe(preset: preset, nodes: try equalizer.makeNodes(for: preset))
                printError(resolved.text)
            }
            let started = RenderReport.now()
            summary = try console.run(job, label: input)
            let seconds = RenderReport.now() - started
            if verbose { printError(Self.timing(summary, seconds: seconds)) }
            try reporting.emit(report(input: input, output: output, summary: summary, seconds: seconds, options: options, preset: preset))
        } catch let error as RenderError {
            throw fail(error.description, ExitStatus(error))
        } catch let error as AudioFormatError {
            throw fail(error.description, ExitStatus(input: error))
        }
        for message in RenderMessages.warnings(summary, output: output) { printError(message) }
        if verbose, let note = RenderMessages.normalizationNote(summary) { printError(note) }
    }

    /// The report of one finished render, with the options that shaped it.
    func report(input: String, output: String, summary: RenderJob.Summary, seconds: Double, options: RenderJob.Options,
                preset: EQPreset?) -> RenderReport {
        RenderReport(version: AurenderVersion.string, inputs: [input], output: output, summary: summary, seconds: seconds,
                     options: RenderReport.Options(eqPreset: preset?.name, eqMode: preset == nil ? nil : equalizer.eqMode.rawValue,
                                                   srcQuality: options.sampleRate == nil ? nil : options.resamplerQuality.name,
                                                   ditherSeed: summary.dither?.seed),
                     normalization: options.normalization)
    }

    /// What a finished render took: `rendered 3.0 s of audio in 0.025 s (120× realtime)`.
    static func timing(_ summary: RenderJob.Summary, seconds: Double) -> String {
        let audio = Double(summary.frames) / summary.outputFormat.sampleRate
        return "rendered \(RenderError.format(audio)) s of audio in \((seconds * 1000).rounded() / 1000) s "
            + "(\(realtimeText(audioSeconds: audio, wallSeconds: seconds)))"
    }

    /// Gives `job` the render options the flags ask for; a channel map reads the input's
    /// channel count through the job, which keeps the input open for its plan and run.
    func setRenderOptions(of job: inout RenderJob) throws {
        var options = RenderJob.Options()
        options.outputType = type?.type
        options.outputEncoding = bits?.encoding ?? type?.encoding
        options.rawInput = try rawInput.format()
        options.framesPerSlice = framesPerSlice
        options.clipPolicy = onClip
        options.normalization = loudness.normalization
        job.options = options
        let opened = job
        try conversion.apply(to: &options) { try opened.inputFormat().channelCount }
        job.options = options
    }

    /// Renders the graph file named by `input`.
    private func renderGraph() throws {
        var options = RenderJob.Options()
        options.framesPerSlice = framesPerSlice
        options.clipPolicy = onClip
        options.dither = conversion.dither
        options.ditherSeed = conversion.ditherSeed
        options.resamplerQuality = conversion.srcQuality.quality
        let environment = ProcessInfo.processInfo.environment
        do {
            let folder = input.contains("/") ? String(input[..<input.lastIndex(of: "/")!]) : "."
            let job = GraphJob(description: try GraphDescription.load(path: input), folder: folder, options: options,
                               presets: PresetLookup(environment: environment))
            if let format = plan ?? (dryRun ? .text : nil) {
                print(try withLibraryMessagesSilenced { format == .dot ? try job.dot() : try job.plan() })
                return
            }
            let summary = try console.run(job, label: input)
            for message in RenderMessages.warnings(summary, output: "graph output") { printError(message) }
        } catch let error as RenderError {
            throw fail(error.description, ExitStatus(error))
        }
    }

    /// Says what the EQ does with the preset, before the plan shows the graph.
    private func describe(preset: EQPreset?, nodes: [AudioNode]) {
        guard let preset else { return }
        guard let node = nodes.first as? GraphicEQNode else {
            printError("eq: preset '\(preset.name)' is flat: the equalizer drops out of the graph")
            return
        }
        let gains = preset.gains.map { decibels($0) }.joined(separator: " ")
        printError("eq: preset '\(preset.name)' (\(node.mode.rawValue)), band gains dB: \(gains), preamp \(decibels(Double(node.parameter(GraphicEQNode.Parameter.preamp)) + preset.preamp)) dB")
    }
}

/// How `--plan` prints the graph.
enum PlanFormat: String, ExpressibleByArgument {
    case text, dot
}

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
