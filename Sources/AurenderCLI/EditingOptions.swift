import ArgumentParser
import Aurender

/// The options that change a render's level and the part of the input it reads:
/// `--gain`, `--start`, `--duration`, `--trim`, and `--trim-silence` with `--silence-margin`.
struct EditingOptions: ParsableArguments {
    @Option(parsing: .unconditional,
            help: ArgumentHelp("A fixed gain after the EQ, in dB (\(KindRanges.text(GainNode.kind, "gain"))): -6 or -6dB.", valueName: "dB"))
    var gain: LevelArgument<GainUnit>?

    @Option(help: ArgumentHelp("Start reading the input here: 90, 1.5s, 500ms, 1:30, 1:02:03.5 or 441000f (frames at the input's rate).",
                               valueName: "time"))
    var start: TimeArgument?

    @Option(help: ArgumentHelp("Render this much of the input (a time, as --start); past the input's end is refused.", valueName: "time"))
    var duration: TimeArgument?

    @Option(help: ArgumentHelp("Render the input from START to END (times, as --start): 10,1:30.", valueName: "start,end"))
    var trim: TrimArgument?

    @Option(parsing: .unconditional, help: ArgumentHelp("""
        Remove the silence before and after the audio: everything before the first and after the last frame whose \
        loudest sample reaches this level (\(KindRanges.text(SilenceTrimNode.kind, "threshold", unit: "dB")): -60 or -60dB), but --silence-margin. The input is read twice: \
        once to find the audio, once to render it.
        """, valueName: "dB"))
    var trimSilence: ThresholdArgument?

    @Option(help: ArgumentHelp("With --trim-silence: the silence kept before and after the audio (default 0.1s; frames count at the output's rate).",
                               valueName: "time"))
    var silenceMargin: TimeArgument?

    func validate() throws {
        if trim != nil, start != nil || duration != nil { throw ValidationError("give --trim, or --start and --duration, not both") }
        if let trimSilence, !KindRanges.range(SilenceTrimNode.kind, "threshold").contains(trimSilence.value) {
            throw ValidationError("--trim-silence must be from \(KindRanges.text(SilenceTrimNode.kind, "threshold", unit: "dB")), not \(trimSilence.text)")
        }
        if silenceMargin != nil, trimSilence == nil { throw ValidationError("--silence-margin applies with --trim-silence") }
    }

    /// The silence trim, first after the converter so it trims the input as decoded, when asked
    /// for; its margin counts frames at the rate it runs at.
    var silenceStages: [ChainStage] {
        guard let trimSilence else { return [] }
        var fields: [String: SettingValue] = ["threshold": .number(trimSilence.value)]
        if let silenceMargin { fields["margin"] = ChainStage.field(silenceMargin.time) }
        return [ChainStage("silence", fields: fields)]
    }

    /// The gain stage after the EQ, when a gain other than 0 dB is asked for.
    var gainStages: [ChainStage] {
        guard let gain, gain.value != 0 else { return [] }
        return [ChainStage("gain", fields: ["gain": .number(gain.value)])]
    }

    /// The part of the input to render, if a part was asked for.
    var excerpt: InputExcerpt? {
        if let trim { return InputExcerpt(start: trim.start, end: .at(trim.end)) }
        guard start != nil || duration != nil else { return nil }
        return InputExcerpt(start: start?.time ?? .frames(0), end: duration.map { .duration($0.time) })
    }

    /// The flags given, which a graph file cannot take (its nodes state gains and inputs).
    var flagsAGraphStates: [String] {
        [(gain != nil, "--gain"), (start != nil, "--start"), (duration != nil, "--duration"), (trim != nil, "--trim"),
         (trimSilence != nil, "--trim-silence"), (silenceMargin != nil, "--silence-margin")]
            .filter(\.0).map(\.1)
    }
}

/// `--trim START,END`: two times.
struct TrimArgument: ExpressibleByArgument {
    let start: TimeValue
    let end: TimeValue

    init?(argument: String) {
        let fields = argument.split(separator: ",", omittingEmptySubsequences: false)
        guard fields.count == 2, let start = TimeValue(String(fields[0])), let end = TimeValue(String(fields[1])) else { return nil }
        self.start = start
        self.end = end
    }
}

/// `--trim-silence DB`: a level in dB or dBFS (`-60`, `-60dB`), of any value: `validate()` checks
/// its range, in a message that names the flag and the range.
struct ThresholdArgument: ExpressibleByArgument {
    let value: Double
    /// The level as written, for messages.
    let text: String

    init?(argument: String) {
        let written = argument.lowercased()
        if let suffix = ValueSyntax.levelSuffixes.first(where: { written.hasSuffix($0) }), !["db", "dbfs"].contains(suffix) { return nil }
        guard let value = ValueSyntax.level(argument) else { return nil }
        self.value = value
        text = argument
    }
}
