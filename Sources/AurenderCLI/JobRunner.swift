import ArgumentParser
import Aurender
import PluginHost

/// The hints a command adds to the library's messages: each names only flags the command has.
enum CommandHints {
    /// `aurender render` and batches with an EQ: `--preamp`, `--type`, `--over-ceiling`.
    case render
    /// `aurender render` and batches without an EQ, where `--preamp` does not apply: `--gain`.
    case renderWithoutEQ
    /// `aurender mix`: `--volume`, `--type`, `--over-ceiling`.
    case mix
    /// A graph file: what to change in the graph.
    case graph

    /// What to do about clipping, with the decibels the level must come down by.
    func clipAdvice(_ count: ClipCount) -> String {
        let decibels = RenderError.headroomNeeded(count)
        switch self {
        case .render: return "try --preamp -\(decibels)"
        case .renderWithoutEQ: return "try --gain -\(decibels)"
        case .mix: return "try --volume -\(decibels)"
        case .graph: return "lower a gain in the graph by \(decibels) dB"
        }
    }

    /// The library's message for `error`, with this command's hint where one helps.
    func message(for error: RenderError) -> String {
        switch (self, error) {
        case (_, .clipped(let path, let count)):
            return "\(path): \(count.overs) samples would clip; not written (\(clipAdvice(count)))"
        case (.render, .truePeakOver), (.renderWithoutEQ, .truePeakOver), (.mix, .truePeakOver):
            return String(error.description.dropLast()) + "; or use --over-ceiling lower, or limit to reach it through a true-peak limiter)"
        case (_, .noStoredGain):
            return "\(error.description) (level it with 'aurender loudness --write', or give --replaygain-fallback)"
        case (.graph, .pathRefused):
            return "\(error.description); --allow-path DIR allows another folder"
        case (.graph, .unknownContainer(let path, _)):
            return "\(path): cannot tell the output container from the name; set the output node's 'container'"
        case (_, .unknownContainer(let path, let known)):
            return "\(path): cannot tell the output container from the name; use --type (\(known.joined(separator: ", ")))"
        case (.graph, .output(let cause)) where cause.path == "-" && cause.kind == .unsupportedFormat:
            return "\(cause.description); for standard output set the output node's 'container' to au or raw"
        case (_, .output(let cause)) where cause.path == "-" && cause.kind == .unsupportedFormat:
            return "\(cause.description); for standard output use --type au or raw"
        case (let hints, .output(let cause)) where hints != .graph && Self.isOpusRateRefusal(cause):
            return "\(cause.description); use --rate 48000"
        default:
            return error.description
        }
    }

    /// Whether the encoder refused to write Opus at the output's sample rate (libsndfile's words).
    static func isOpusRateRefusal(_ error: AudioFormatError) -> Bool {
        error.kind == .unsupportedFormat && error.reason.hasPrefix("Opus only supports sample rates")
    }

    /// The one-line message and exit status for any error a render throws.
    func failure(_ error: any Error, subject: String) -> (message: String, status: ExitStatus) {
        switch error {
        case let error as RenderError: (message(for: error), ExitStatus(error))
        case let error as AudioFormatError: (error.description, ExitStatus(input: error))
        case let error as ImpulseResponseError: (error.description, error.cause.map { ExitStatus(input: $0) } ?? .dataError)
        case let error as PluginError:
            if case .notInstalled = error { ("\(error) ('aurender plugins' lists them all)", .usage) } else { (error.description, .usage) }
        case let error as ChainError: ("\(subject): \(error)", .usage)
        default: ("\(subject): \(error)", .software)
        }
    }
}

/// The one way the command renders a job, whatever the job: a plan for `--dry-run`, the plan
/// and the EQ line for `--verbose`, the run with its progress line, warnings, timing and report.
struct JobRunner {
    let console: ConsoleOptions
    let reporting: ReportOptions
    let hints: CommandHints

    /// Prints the job's plan (nothing is rendered) when `style` is given; else renders it.
    /// `preface` lines go before the plan with `--verbose`; `report` makes the report of a
    /// finished render from its summary and seconds.
    func perform<Job: RenderingJob>(_ job: Job, label: String, planStyle style: PlanStyle?, preface: [String] = [],
                                    report: (RenderJob.Summary, Double) -> RenderReport) throws {
        let started = RenderReport.now()
        do {
            if let style {
                print(try withLibraryMessagesSilenced { try job.describe(as: style) })
                return
            }
            if console.verbose {
                let plan = try job.describe(as: .text)
                for line in preface { printError(line) }
                printError(plan)
            }
            let summary = try console.run(job, label: label)
            let seconds = RenderReport.now() - started
            let output = try job.outputDestination.path
            for message in RenderMessages.warnings(summary, output: output, hints: hints) { printError(message) }
            if console.verbose {
                for note in RenderMessages.silenceNotes(summary) { printError(note) }
                for applied in summary.replayGains { printError(applied.note) }
                if let note = RenderMessages.normalizationNote(summary) { printError(note) }
                printError(RenderMessages.timing(summary, seconds: seconds))
            }
            try reporting.emit(ReportedRun(single: report(summary, seconds), sketches: summary.sketches, seconds: seconds))
        } catch let error as ExitCode {
            throw error
        } catch {
            let (message, status) = hints.failure(error, subject: label)
            if reporting.reportsFailures {
                let failed = BatchReport.NotRendered(input: job.inputPaths.joined(separator: " + "), output: try? job.outputDestination.path,
                                                     error: message, exitStatus: status.rawValue)
                do { try reporting.emit(ReportedRun(failed: failed, seconds: RenderReport.now() - started)) } catch { printError("\(error)") }
            }
            throw fail(message, status)
        }
    }
}
