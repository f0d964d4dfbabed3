import ArgumentParser
import Aurender

/// The options that change a render's level and the part of the input it reads:
/// `--gain`, `--start`, `--duration` and `--trim`.
struct EditingOptions: ParsableArguments {
    @Option(parsing: .unconditional,
            help: ArgumentHelp("A fixed gain after the EQ, in dB (-96 to 96): -6 or -6dB.", valueName: "dB"))
    var gain: LevelArgument<GainUnit>?

    @Option(help: ArgumentHelp("Start reading the input here: 90, 1.5s, 500ms, 1:30, 1:02:03.5 or 441000f (frames at the input's rate).",
                               valueName: "time"))
    var start: TimeArgument?

    @Option(help: ArgumentHelp("Render this much of the input (a time, as --start); past the input's end is refused.", valueName: "time"))
    var duration: TimeArgument?

    @Option(help: ArgumentHelp("Render the input from START to END (times, as --start): 10,1:30.", valueName: "start,end"))
    var trim: TrimArgument?

    func validate() throws {
        if trim != nil, start != nil || duration != nil { throw ValidationError("give --trim, or --start and --duration, not both") }
    }

    /// The gain node after the EQ, when a gain other than 0 dB is asked for.
    var gainNodes: [AudioNode] {
        guard let gain, gain.value != 0 else { return [] }
        return [GainNode(name: "gain", decibels: gain.value)]
    }

    /// The part of the input to render, if a part was asked for.
    var excerpt: InputExcerpt? {
        if let trim { return InputExcerpt(start: trim.start, end: .at(trim.end)) }
        guard start != nil || duration != nil else { return nil }
        return InputExcerpt(start: start?.time ?? .frames(0), end: duration.map { .duration($0.time) })
    }

    /// The flags given, which a graph file cannot take (its nodes state gains and inputs).
    var flagsAGraphStates: [String] {
        [(gain != nil, "--gain"), (start != nil, "--start"), (duration != nil, "--duration"), (trim != nil, "--trim")]
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
