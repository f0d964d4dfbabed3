import ArgumentParser
import Aurender
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `aurender batch JOBS.jsonl`: renders a manifest's jobs and gives one JSON result line each.
///
/// What Ray Data, Dask or Spark call on their share of a table of jobs; each options job is
/// parsed by the render command's own parser, so every flag works and is refused alike.
struct BatchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "batch",
        abstract: "Render the jobs of a manifest (one JSON object a line), one JSON result line each.",
        discussion: """
            Each line is a job: {"input": "in/a.wav", "output": "out/a.flac"} with either "options", the render's \
            long options without their dashes ({"eq": "Rock", "rate": 48000, "normalize": -16}; true for a bare flag, \
            a list to repeat one), a "chain" string (with "options" beside it if wanted), or a "graph" file whose one \
            file node reads the input and whose output node writes the output. A line that is no job (not JSON, an \
            unknown key, no input) fails alone, naming its line; the other jobs still run.

            The results (standard output, or --results FILE) are one JSON line per job in the manifest's order: \
            line, input, output, status (rendered, skipped, failed), exitStatus, error, frames, durationSeconds, \
            with --loudness integratedLUFS and truePeakDBTP, and seconds. Outputs are written atomically, as a \
            render writes them. Exit status 0 when every job rendered or was skipped, else the first failure's.
            """
    )

    @Argument(help: ArgumentHelp("The manifest: one job a line (JSON Lines).", valueName: "jobs.jsonl"), completion: .file())
    var manifest: String

    @Option(help: ArgumentHelp("Write the result lines to this file (atomically) instead of standard output.", valueName: "file"),
            completion: .file())
    var results: String?

    @Option(name: .customShort("j"), help: ArgumentHelp("Jobs rendered at once (default: the number of cores).", valueName: "n"))
    var jobs: Int?

    @Option(name: .customLong("shard"), help: ArgumentHelp("""
        Render only the Kth of N shares of the manifest's jobs (1/4 to 4/4): its Kth, K+Nth ... job, so N machines \
        given the same manifest render each job once.
        """, valueName: "K/N"))
    var shardText: String?

    @Flag(help: "Leave outputs that already exist alone (their result line says skipped).")
    var skipExisting = false

    @Flag(help: "Read each output back and give its integrated loudness and true peak in its result line.")
    var loudness = false

    func validate() throws {
        if let jobs, jobs < 1 { throw ValidationError("-j must be at least 1, not \(jobs)") }
        guard let shardText else { return }
        do throws(BatchError) { _ = try BatchJob.Shard(parsing: shardText) } catch { throw ValidationError("--shard: \(error)") }
    }

    func run() throws {
        let jobManifest: JobManifest
        do { jobManifest = try JobManifest(path: manifest) } catch {
            let (message, status) = CommandHints.render.failure(error, subject: manifest)
            throw fail(message, status)
        }
        let shard = shardText.flatMap { try? BatchJob.Shard(parsing: $0) }
        let rows = withLibraryMessagesSilenced {
            JobManifest.run(jobManifest.entries(in: shard), jobs: jobs ?? Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))),
                            skipping: skipExisting ? .existing : .none, measuringLoudness: loudness,
                            render: ManifestRendering.render, describe: ManifestRendering.describe)
        }
        for row in rows where row.status == .failed {
            printError(row.input == nil ? "\(manifest): \(row.error ?? "")" : "\(manifest): line \(row.line): \(row.error ?? "")")
        }
        let text = rows.map { $0.jsonLine + "\n" }.joined()
        if let results {
            do throws(AudioFormatError) { try OutputFile.write(text: text, to: results) } catch { throw fail(error.description, ExitStatus(RenderError.output(error))) }
        } else {
            print(text, terminator: "")
        }
        if let status = rows.first(where: { $0.status == .failed })?.exitStatus { throw ExitCode(status) }
    }
}

/// How `aurender batch` renders one manifest job: through the render command's parser and job.
enum ManifestRendering {
    /// Renders `job` as `aurender render` would with the same arguments; returns what it wrote.
    @Sendable static func render(_ job: ManifestJob) throws -> (frames: Int64, durationSeconds: Double) {
        let environment = ProcessInfo.processInfo.environment
        guard let arguments = try arguments(for: job) else {
            let command = try parsed([job.input, job.output])
            var settings = RenderSettings()
            command.rendering.apply(to: &settings)
            settings.framesPerSlice = command.framesPerSlice
            let summary = try job.graphJob(settings: settings, presets: PresetLookup(environment: environment)).run()
            return (summary.frames, Double(summary.frames) / summary.outputFormat.sampleRate)
        }
        let command = try parsed(arguments)
        let preset = try command.equalizer.resolvePreset(environment: environment)
        let renderJob = try command.makeJob(input: job.input, output: job.output, preset: preset)
        let report = command.report(renderJob, summary: try renderJob.run(), seconds: 0, preset: preset)
        return (report.frames, report.durationSeconds)
    }

    /// The render command's arguments for an options job, as the command line would give them:
    /// `--NAME=VALUE` for each option (a list repeats it; `true` gives the bare flag, `false` leaves
    /// it out), sorted by name, then `--chain` if given, then `--` and the input and the output.
    /// Nil for a graph job. An option whose value is an object or a list of lists is refused.
    static func arguments(for job: ManifestJob) throws -> [String]? {
        guard case .options(let options, let chain) = job.processing else { return nil }
        var arguments: [String] = []
        for name in options.keys.sorted() {
            let values: [SettingValue]
            if case .list(let list) = options[name]! { values = list } else { values = [options[name]!] }
            for value in values {
                switch value {
                case .flag(true): arguments.append("--" + name)
                case .flag(false): break
                case .text(let text): arguments.append("--\(name)=\(text)")
                case .number: arguments.append("--\(name)=\(value.description)")
                case .list, .object: throw ManifestError(line: nil, reason: "option '\(name)' must be a text, a number, true or false, or a list of those")
                }
            }
        }
        if let chain { arguments.append("--chain=\(chain)") }
        return arguments + ["--", job.input, job.output]
    }

    /// The render command `arguments` make, checked as the command line checks them.
    private static func parsed(_ arguments: [String]) throws -> RenderCommand {
        let command: RenderCommand
        do {
            command = try RenderCommand.parse(arguments)
            try command.validatePositionalArguments()
        } catch {
            let message = RenderCommand.message(for: error).split(separator: "\n").first.map(String.init) ?? "\(error)"
            throw ManifestError(line: nil, reason: message)
        }
        return command
    }

    /// A failure's one-line message and exit status, as the render command gives them.
    static func describe(_ error: any Error) -> (message: String, exitStatus: Int32) {
        if let error = error as? ManifestError { return (error.description, ExitStatus.usage.rawValue) }
        let (message, status) = CommandHints.render.failure(error, subject: "job")
        return (message, status.rawValue)
    }
}
