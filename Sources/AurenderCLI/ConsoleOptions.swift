import ArgumentParser
import Aurender
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What a render prints on standard error besides its errors: a progress line on a terminal,
/// the plan and timings with `--verbose`, nothing but errors with `--quiet` or off a terminal.
///
/// Reports and `--dry-run` plans go to standard output (or files), never here, so machine-readable output
/// never mixes with these lines.
struct ConsoleOptions: ParsableArguments {
    @Flag(name: [.short, .long], help: "Print nothing but errors and warnings: no progress line, no summary.")
    var quiet = false

    @Flag(name: [.short, .long], help: "Also print the graph, the EQ design and timings on standard error.")
    var verbose = false

    func validate() throws {
        if quiet, verbose { throw ValidationError("--quiet and --verbose ask for opposite things; give one") }
    }

    /// Whether standard error is a terminal someone watches.
    static let standardErrorIsTerminal = isatty(STDERR_FILENO) != 0

    /// Whether to draw the progress line: on a terminal, unless quiet.
    var showsProgress: Bool { !quiet && Self.standardErrorIsTerminal }

    /// Whether to print summaries and timings that are not errors: verbose, or on a terminal unless quiet.
    var showsNotes: Bool { verbose || showsProgress }

    /// Runs `job` with a progress line on a terminal, named after `label`'s last component;
    /// libraries' own messages are silenced unless verbose.
    func run<Job: RenderingJob>(_ job: Job, label: String) throws -> RenderJob.Summary {
        var job = job
        let progress = RenderProgress()
        job.settings.progress = progress
        let display = showsProgress ? ProgressDisplay(.file(label.split(separator: "/").last.map(String.init) ?? label)) : nil
        display?.track(progress)
        defer { display?.stop() }
        let counted = job
        return try verbose ? counted.run() : withLibraryMessagesSilenced { try counted.run() }
    }
}

/// `seconds` as `m:ss`, or `h:mm:ss` from an hour up.
func clockTime(_ seconds: Double) -> String {
    let total = Int(seconds.rounded(.up))
    let (hours, rest) = total.quotientAndRemainder(dividingBy: 3600)
    let (minutes, secs) = rest.quotientAndRemainder(dividingBy: 60)
    let paddedSeconds = (secs < 10 ? "0" : "") + String(secs)
    if hours > 0 { return "\(hours):" + (minutes < 10 ? "0" : "") + "\(minutes):" + paddedSeconds }
    return "\(minutes):" + paddedSeconds
}

/// Speed as a multiple of real time: `42×` or `1.5×`.
func realtimeText(audioSeconds: Double, wallSeconds: Double) -> String {
    guard wallSeconds > 0 else { return "-" }
    let factor = audioSeconds / wallSeconds
    return (factor >= 10 ? String(Int(factor.rounded())) : String((factor * 10).rounded() / 10)) + "× realtime"
}
