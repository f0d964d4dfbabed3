import Aurender

/// One run of the command as its reports show it: what was rendered, skipped and failed, with
/// each rendered file's sketches for a page. A single render is a run of one file; a failed
/// single render is a run with one failure, so its JUnit file and page still say what went wrong.
struct ReportedRun {
    /// Whether the run was a batch (`-o FOLDER`): its JSON report is the batch's.
    var isBatch: Bool
    /// What was rendered, skipped and failed; for a single render, its one outcome.
    var outcomes: BatchReport
    /// The sketches of each rendered file, in the order of `outcomes.rendered`; nil where none were made.
    var sketches: [RenderSketches?]
    /// The whole run's wall time.
    var seconds: Double
    /// The command's arguments (without the program's name), as typed.
    var arguments: [String]

    /// A single render that finished, with its report and sketches.
    init(single report: RenderReport, sketches: RenderSketches?, seconds: Double) {
        self.init(isBatch: false, outcomes: BatchReport(version: AurenderVersion.string, batch: nil, rendered: [report], skipped: [], failed: []),
                  sketches: [sketches], seconds: seconds, arguments: Array(CommandLine.arguments.dropFirst()))
    }

    /// A single render that failed.
    init(failed: BatchReport.NotRendered, seconds: Double) {
        self.init(isBatch: false, outcomes: BatchReport(version: AurenderVersion.string, batch: nil, rendered: [], skipped: [], failed: [failed]),
                  sketches: [], seconds: seconds, arguments: Array(CommandLine.arguments.dropFirst()))
    }

    init(isBatch: Bool, outcomes: BatchReport, sketches: [RenderSketches?], seconds: Double, arguments: [String]) {
        self.isBatch = isBatch
        self.outcomes = outcomes
        self.sketches = sketches
        self.seconds = seconds
        self.arguments = arguments
    }

    /// The command line, quoted so it can be pasted into a shell.
    var commandLine: String {
        (["aurender"] + arguments).map { argument in
            argument.allSatisfy { $0.isLetter || $0.isNumber || "-_./=:@,+%".contains($0) } && !argument.isEmpty
                ? argument : "'" + argument.replacing("'", with: "'\\''") + "'"
        }.joined(separator: " ")
    }

    /// The options a rendered file's report names, as name and value pairs (the first file's: one
    /// command gives every file the same).
    var optionProperties: [(name: String, value: String)] {
        guard let options = outcomes.rendered.first?.options else { return [] }
        return [("eqPreset", options.eqPreset), ("eqMode", options.eqMode), ("srcQuality", options.srcQuality),
                ("ditherSeed", options.ditherSeed.map(String.init))].compactMap { name, value in value.map { (name, $0) } }
    }
}
