import ArgumentParser
import Aurender
import SpatialAudio

/// The options of every command that renders into an output (`render`, its batches and graph
/// files, and `mix`): the output's container and encoding, what clipping does, its durability, a
/// plan instead of a render, and the groups that shape every job, each applied to a job in one place.
///
/// The argument parser builds every option group each time the command starts, about half a
/// million instructions a group: the reports' three options and `--fsync` are declared here, not
/// in groups of their own.
struct RenderingOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Output container.", valueName: "type"))
    var type: ContainerArgument?

    @Option(help: ArgumentHelp("Output sample encoding: 8, 16, 24, 32 (PCM), float or double.", valueName: "bits"))
    var bits: BitsArgument?

    @OptionGroup(title: "Format conversion")
    var conversion: ConversionOptions

    @OptionGroup(title: "Loudness")
    var loudness: LoudnessOptions

    @Flag(help: "Print the resolved graph (nodes, connections, formats) and exit before reading audio.")
    var dryRun = false

    @Option(help: ArgumentHelp("Like --dry-run, as text, as Graphviz dot, or as json: the graph file that renders the same output "
                               + "(aurender PLAN.json, given the same resampling, dither and clipping flags).", valueName: "text|dot|json"))
    var plan: PlanStyle?

    @Option(help: ArgumentHelp("When an integer output clips: warn (write it, report the count) or fail (write nothing, exit 3).",
                               valueName: "policy"))
    var onClip: RenderJob.ClipPolicy = .warn

    @OptionGroup(title: "Messages")
    var console: ConsoleOptions

    @Option(help: ArgumentHelp("""
        Write a report of the render (levels, clipping, timing, options) to this file, with -o of every file: JSON, or \
        with a name ending in .html a page with waveforms and spectra.
        """, valueName: "file.json|file.html"))
    var report: String?

    @Option(help: ArgumentHelp("Write the run as JUnit XML to this file, each input a test case (failed and skipped with their reasons), for CI.",
                               valueName: "file.xml"))
    var junit: String?

    @Flag(help: "Print the JSON report on standard output.")
    var json = false

    @Flag(help: """
        Render to two ears through head-related transfer functions: a render places each input channel as a virtual \
        speaker at its layout's angle (L -30, R 30, C 0, Ls -110, Rs 110; the LFE to both ears at -3 dB); a mix places each \
        input at its @azimuth=,elevation=,distance=.
        """)
    var binaural = false

    @Option(help: ArgumentHelp("The SOFA file of HRTFs for --binaural (default: \(HRTFSet.defaultPath)).", valueName: "file"),
            completion: .file(extensions: ["sofa"]))
    var sofa: String?

    @Option(help: ArgumentHelp("Render to a speaker layout by vector-base amplitude panning: stereo, quad, 5.0, 5.1 or 7.1; "
                               + "a mix places each input at its @azimuth=.", valueName: "layout"))
    var speakers: String?

    @Flag(help: """
        Flush each output and its folder to storage (fsync) before exiting, so a power cut after \
        exit loses nothing; files only, not standard output or devices.
        """)
    var fsync = false

    @Flag(help: "Write no tags, pictures, bext, iXML or markers into the output (a render keeps its input's by default), and say nothing of them.")
    var noTags = false

    @Option(name: .customLong("tag"), help: ArgumentHelp(
        "Set a tag in the output, replacing the input's values of that key (TITLE=Song; give a key again for more values; "
            + "KEY= removes it). Keys are TagLib's names: TITLE, ARTIST, ALBUM, ALBUMARTIST, DATE, TRACKNUMBER, GENRE, COMMENT and others.",
        valueName: "key=value"))
    var tag: [TagArgument] = []

    @Option(help: ArgumentHelp("Take the output's tags, pictures, bext, iXML and markers from this file rather than the input (a mix takes none without it).",
                               valueName: "file"), completion: .file())
    var tagsFrom: String?

    @Flag(help: "Add a line for this render (its format, and aurender's name and version) to the coding history of the input's bext chunk.")
    var bextHistory = false

    func validate() throws {
        if noTags, let flag = [(!tag.isEmpty, "--tag"), (tagsFrom != nil, "--tags-from"), (bextHistory, "--bext-history")].first(where: \.0)?.1 {
            throw ValidationError("--no-tags and \(flag) exclude each other: write no tags, or say which")
        }
        if let type, type.type.isLossy, bits != nil {
            throw ValidationError("--bits does not apply to the lossy container \(type.type.name)")
        }
        try conversion.validateCodec(bits: bits)
        _ = try spatial()
        if planStyle != nil, let flag = [(report, "--report"), (junit, "--junit")].first(where: { $0.0 != nil })?.1 {
            throw ValidationError("\(flag) does not apply to \(plan != nil ? "--plan" : "--dry-run"), which renders nothing")
        }
    }

    /// Refuses `--fsync` for standard output (`-`), which has no storage to flush.
    func validateDurability(output: String?) throws {
        if fsync, output == "-" { throw ValidationError("--fsync applies to files; standard output has no storage to flush") }
    }

    /// The spatial rendering `--binaural` (with `--sofa`) or `--speakers` asks for, if any.
    func spatial() throws -> SpatialRendering? {
        if binaural, speakers != nil { throw ValidationError("--binaural and --speakers \(speakers!) exclude each other: render to two ears or to speakers") }
        if let sofa, !binaural { throw ValidationError("--sofa \(sofa) applies to --binaural; add --binaural or drop --sofa") }
        if let speakers {
            guard let layout = SpeakerLayout.named(speakers) else {
                throw ValidationError("--speakers \(speakers): the layout must be stereo, quad, 5.0, 5.1 or 7.1")
            }
            return .speakers(layout)
        }
        return binaural ? .binaural(sofa: sofa) : nil
    }

    /// The spatial flags given, which a graph file cannot take (its `spatial` node states them).
    var spatialFlags: [String] {
        [(binaural, "--binaural"), (sofa != nil, "--sofa"), (speakers != nil, "--speakers")].filter(\.0).map(\.1)
    }

    /// The report asked for: where it goes.
    var reporting: ReportOptions { ReportOptions(report: report, json: json, junit: junit) }

    /// How to show the job instead of rendering it, if asked: `--plan`, or `--dry-run` as text.
    var planStyle: PlanStyle? { plan ?? (dryRun ? .text : nil) }

    /// The output's container and encoding (`--type`, `--bits`) and the conversions asked for; a
    /// codec given (`--codec alac`) takes the place of the one the type implies (`m4a`: AAC).
    func apply(to format: inout OutputFormatChoice) throws {
        format.container = type?.type
        format.encoding = bits?.encoding ?? (conversion.codec == nil ? type?.encoding : nil)
        try conversion.apply(to: &format)
    }

    /// The fades, the loudness normalization and the limiter asked for.
    func apply(to finishing: inout FinishingOptions) {
        finishing.normalization = loudness.normalization
        finishing.limiter = loudness.limiter
        conversion.apply(to: &finishing)
    }

    /// What every job's settings take from the flags: resampler, dither, decoder, clip policy,
    /// the levels a report needs, durability.
    func apply(to settings: inout RenderSettings) {
        settings.clipPolicy = onClip
        conversion.apply(to: &settings)
        reporting.apply(to: &settings)
        settings.durability = fsync ? .synchronized : .committed
        settings.tags = tags
        settings.replayGain = loudness.replayGain
    }

    /// The tags asked for: none (`--no-tags`), another file's (`--tags-from`), each `--tag` key's values replaced.
    var tags: TagChoice {
        var choice = TagChoice()
        choice.carries = !noTags
        choice.source = tagsFrom
        choice.codingHistory = bextHistory ? "aurender \(AurenderVersion.string)" : nil
        for key in tag.map(\.key).uniqued() {
            choice.edits.append(TagChoice.Edit(key: key, values: tag.filter { $0.key == key }.compactMap(\.value)))
        }
        return choice
    }

    /// The tag flags given, which a graph file cannot take (its output carries no tags yet).
    var tagFlags: [String] {
        [(noTags, "--no-tags"), (!tag.isEmpty, "--tag"), (tagsFrom != nil, "--tags-from"), (bextHistory, "--bext-history")].filter(\.0).map(\.1)
    }

    /// The runner that plans, runs and reports a job with these messages and reports.
    func runner(hints: CommandHints) -> JobRunner {
        JobRunner(console: console, reporting: reporting, hints: hints)
    }
}

/// `--tag KEY=VALUE`: a key and one value, or `KEY=` for none (the key removed).
struct TagArgument: ExpressibleByArgument {
    /// The key, upper-cased.
    let key: String
    /// The value; nil for `KEY=`.
    let value: String?

    init?(argument: String) {
        guard let equals = argument.firstIndex(of: "="), equals != argument.startIndex else { return nil }
        let key = argument[..<equals]
        guard key.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == " " || $0 == "-") }) else { return nil }
        self.key = key.uppercased()
        let value = argument[argument.index(after: equals)...]
        self.value = value.isEmpty ? nil : String(value)
    }
}

extension Sequence where Element: Hashable {
    /// The elements in order, each once.
    func uniqued() -> [Element] {
        var seen: Set<Element> = []
        return filter { seen.insert($0).inserted }
    }
}
