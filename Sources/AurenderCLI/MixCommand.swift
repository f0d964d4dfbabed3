import ArgumentParser
import Aurender
import FoundationEssentials

/// `aurender mix A[@settings] B[@settings]... -o OUT`: mixes files into one.
struct MixCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mix",
        abstract: "Mix input files into one output through the multichannel mixer.",
        discussion: """
            Each input may carry its own settings after an @, separated by commas:
              gain=DB      gain in dB (default 0): -3 or -3dB
              pan=P        \(EffectsOptions.text(panRange.lowerBound)) (left) to \(EffectsOptions.text(panRange.upperBound)) (right); mono inputs pan with constant power,
                           stereo ones balance
              eq=PRESET    an EQ preset or preset file for this input
              start=TIME   where the input starts in the mix: 2.5s, 250ms, 1:30 or
                           110250f (frames)
              mute         pull the input but do not hear it
              azimuth=DEG  with --binaural or --speakers: where the input stands, 0 ahead,
                           positive to the right, \(KindRanges.text(SpatialNode.kind, "buses.azimuth")) (default 0)
              elevation=DEG  with --binaural or --speakers: \(KindRanges.text(SpatialNode.kind, "buses.elevation")) (default 0)
              distance=M   with --binaural or --speakers: metres, the level falling as
                           1/distance beyond 1 m (default 1)

            The mix runs at the first input's rate in stereo (--rate and --channels change that); inputs at \
            other rates are converted first (--dry-run shows where). Sums are plain, never normalised: overs \
            are counted like any other clipping (--on-clip). The mix ends when its longest input ends.

            Examples:
              aurender mix vocals.wav@gain=-3,pan=-0.3 beats.wav@eq=Rock,start=2.5s \\
                -o song.wav
              aurender mix a.flac b.flac --volume -6 --fade-out 3s -o out.flac
              aurender mix voice.wav@azimuth=30,elevation=10,distance=2 \\
                crowd.wav@azimuth=-110 -o out.wav --binaural
            """
    )

    /// The pans a bus takes, as the mixer's kind declares them.
    private static let panRange = KindRanges.range(MixerNode.kind, "buses.pan")

    @Argument(help: ArgumentHelp("Input files, each optionally followed by @settings.", valueName: "input[@settings]"), completion: .file())
    var inputs: [String]

    @Option(name: .shortAndLong, help: ArgumentHelp("The file to write (- for standard output).", valueName: "file"))
    var output: String

    @Option(help: ArgumentHelp("""
        The mix's own processing after the mixer, in your order: stages 'KIND FIELD=VALUE ... | KIND ...' as render's \
        --chain takes them: 'compressor threshold=-18 ratio=3 | reverb preset=plate wet=20'.
        """, valueName: "stages"))
    var chain: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("The mix's master volume in dB.", valueName: "dB"))
    var volume = LevelArgument<VolumeUnit>(value: 0)

    @Option(help: ArgumentHelp("EQ design for every input's EQ: accurate or classic.", valueName: "mode"))
    var eqMode: GraphicEQDesign.Mode = .accurate

    @OptionGroup
    var rendering: RenderingOptions

    func validate() throws {
        if inputs.isEmpty { throw ValidationError("name at least one input") }
        try rendering.validateDurability(output: output)
        if rendering.conversion.channelMap != nil || rendering.conversion.mixMatrix != nil {
            throw ValidationError("--channel-map and --mix-matrix apply to one input; give each input's pan instead")
        }
        if let chain {
            do { _ = try ChainSyntax.parse(chain) } catch { throw ValidationError("--chain \(error)") }
        }
    }

    func run() throws {
        var options = MixJob.Options()
        try rendering.apply(to: &options.format)
        rendering.apply(to: &options.finishing)
        rendering.apply(to: &options.settings)
        options.volume = volume.value
        options.spatial = try rendering.spatial()
        options.presets = PresetLookup(environment: ProcessInfo.processInfo.environment)
        let job: MixJob
        do {
            let environment = ProcessInfo.processInfo.environment
            options.stages = try chain.map { try ChainSyntax.parse($0) } ?? []
            let rate = options.format.sampleRate
            let parsed = try inputs.map { try Self.parse($0, environment: environment, mode: eqMode, rate: rate) }
            try Self.checkPlacement(parsed, spatial: options.spatial != nil)
            job = MixJob(inputs: parsed, output: OutputDestination(output), options: options)
        } catch {
            let (message, status) = CommandHints.mix.failure(error, subject: output)
            throw fail(message, status)
        }
        try rendering.runner(hints: .mix).perform(job, label: output, planStyle: rendering.planStyle) { summary, seconds in
                RenderReport(version: AurenderVersion.string, inputs: job.inputPaths, output: output, summary: summary, seconds: seconds,
                             options: RenderReport.Options(eqMode: eqMode.rawValue, srcQuality: rendering.conversion.srcQuality.quality.name,
                                                           ditherSeed: summary.dither?.seed),
                             normalization: options.finishing.normalization)
            }
    }

    /// Refuses positions without a spatial rendering, and pans with one.
    static func checkPlacement(_ inputs: [MixJob.Input], spatial: Bool) throws {
        if spatial, let panned = inputs.first(where: { $0.pan != 0 }) {
            throw RenderError.usage("\(panned.path): pan= does not apply with --binaural or --speakers; give azimuth= instead")
        }
        if !spatial, let placed = inputs.first(where: { $0.azimuth != 0 || $0.elevation != 0 || $0.distance != 1 }) {
            throw RenderError.usage("\(placed.path): azimuth=, elevation= and distance= need --binaural or --speakers LAYOUT")
        }
    }

    /// Parses `path@gain=-3,pan=0.5,eq=Rock,start=2s,mute` into a mix input.
    static func parse(_ argument: String, environment: [String: String], mode: GraphicEQDesign.Mode,
                      rate: Double?) throws -> MixJob.Input {
        guard let at = argument.lastIndex(of: "@") else { return MixJob.Input(path: argument) }
        var input = MixJob.Input(path: String(argument[..<at]))
        for setting in argument[argument.index(after: at)...].split(separator: ",") {
            let parts = setting.split(separator: "=", maxSplits: 1).map(String.init)
            let key = parts[0], value = parts.count > 1 ? parts[1] : nil
            func bad(_ reason: String) -> RenderError { .usage("\(argument): \(reason)") }
            switch (key, value) {
            case ("gain", let value?):
                guard let gain = ValueSyntax.level(value), KindRanges.range(MixerNode.kind, "buses.gain").contains(gain) else {
                    throw bad("gain must be from \(KindRanges.text(MixerNode.kind, "buses.gain", unit: "dB")), not '\(value)'")
                }
                input.gain = gain
            case ("pan", let value?):
                guard let pan = Double(value), KindRanges.range(MixerNode.kind, "buses.pan").contains(pan) else {
                    throw bad("pan must be from \(KindRanges.text(MixerNode.kind, "buses.pan")), not '\(value)'")
                }
                input.pan = pan
            case ("start", let value?):
                guard let time = TimeValue(value) else { throw bad("start must be a time like 2.5s, 250ms, 1:30 or 1000f, not '\(value)'") }
                switch time {
                case .seconds(let seconds): input.start = seconds
                case .frames(let frames):
                    guard let rate else { throw bad("a start in frames needs --rate, to know whose frames") }
                    input.start = Double(frames) / rate
                }
            case ("eq", let value?):
                _ = try EqualizerOptions.findPreset(value, environment: environment)
                input.stages = [ChainStage("eq", fields: ["preset": .text(value), "mode": .text(mode.rawValue)])]
            case ("mute", nil), ("mute", "1"), ("mute", "true"):
                input.muted = true
            case ("azimuth", let value?):
                guard let azimuth = Double(value), KindRanges.range(SpatialNode.kind, "buses.azimuth").contains(azimuth) else {
                    throw bad("azimuth must be from \(KindRanges.text(SpatialNode.kind, "buses.azimuth", unit: "degrees")), not '\(value)'")
                }
                input.azimuth = azimuth
            case ("elevation", let value?):
                guard let elevation = Double(value), KindRanges.range(SpatialNode.kind, "buses.elevation").contains(elevation) else {
                    throw bad("elevation must be from \(KindRanges.text(SpatialNode.kind, "buses.elevation", unit: "degrees")), not '\(value)'")
                }
                input.elevation = elevation
            case ("distance", let value?):
                guard let distance = Double(value), KindRanges.range(SpatialNode.kind, "buses.distance").contains(distance) else {
                    throw bad("distance must be from \(KindRanges.text(SpatialNode.kind, "buses.distance", unit: "metres")), not '\(value)'")
                }
                input.distance = distance
            default:
                throw bad("unknown setting '\(setting)'; use gain=, pan=, eq=, start=, mute, azimuth=, elevation= or distance=")
            }
        }
        return input
    }
}
