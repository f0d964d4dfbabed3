import ArgumentParser
import Aurender
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The options for rendering many files into a folder.
struct BatchOptions: ParsableArguments {
    @Option(name: [.customShort("o"), .customLong("output-folder")],
            help: ArgumentHelp("Render every input into this folder (made if missing), named after the input.", valueName: "folder"), completion: .directory)
    var outputFolder: String?

    @Option(name: .customShort("j"), help: ArgumentHelp("Files rendered at once (default: the number of cores).", valueName: "n"))
    var jobs: Int?

    @Flag(name: .customShort("r"), help: "Look for audio files in input folders' subfolders too, mirroring them in the output folder.")
    var recursive = false

    @Option(parsing: .unconditional, help: ArgumentHelp("Added to each output's name before its extension.", valueName: "text"))
    var suffix: String = ""

    @Flag(help: "Leave outputs that already exist alone.")
    var skipExisting = false

    @Flag(help: "Leave outputs that are newer than their input alone (like make).")
    var newer = false

    @Option(name: .customLong("shard"), help: ArgumentHelp("""
        Render only the Kth of N shares of the inputs (1/4 to 4/4), dealt out in order of their paths \
        relative to the input folders, so N machines given the same inputs render each file once.
        """, valueName: "K/N"))
    var shardText: String?

    /// The share `--shard` names; nil without it (or before `validate()` has refused a bad one).
    var shard: BatchJob.Shard? { shardText.flatMap { try? BatchJob.Shard(parsing: $0) } }

    func validate() throws {
        guard let shardText else { return }
        do throws(BatchError) { _ = try BatchJob.Shard(parsing: shardText) } catch { throw ValidationError("--shard: \(error)") }
    }
}

extension RenderCommand {
    /// One file rendered: its report, its plan (with `--verbose`) and the warnings it raised.
    struct BatchRendered {
        let report: RenderReport
        let sketches: RenderSketches?
        let plan: String?
        let warnings: [String]
    }

    /// Renders every input (files, or audio files in folders) into `folder`, `-j` at a time,
    /// through the library's `BatchJob`. Prints a summary (on a terminal, or when a file
    /// failed), writes the batch report if asked, and exits with the first failure's status.
    func renderBatch(into folder: String) throws {
        let batchJob: BatchJob
        do {
            batchJob = try BatchJob(inputs: paths, into: folder, recursive: batch.recursive, suffix: batch.suffix,
                                    container: rendering.type?.type, encoding: rendering.type?.encoding,
                                    jobs: batch.jobs ?? Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))),
                                    skipping: batch.skipExisting ? .existing : batch.newer ? .newer : .none, shard: batch.shard)
        } catch {
            throw fail(error.description, .usage)
        }
        let identity = BatchReport.Batch(inputs: batchJob.batchInputs, arguments: BatchArguments.identifying(Array(CommandLine.arguments.dropFirst())))
        var report = BatchReport(version: AurenderVersion.string, batch: identity, shard: batchJob.shard?.description,
                                 rendered: [], skipped: [], failed: [])
        if let shard = batchJob.shard, batchJob.items.isEmpty {
            let count = batchJob.totalItemCount
            printError("shard \(shard) has nothing to do: " + (count == 1 ? "the batch's one input goes" : "all \(count) of the batch's inputs go")
                       + " to other shards")
            return try rendering.reporting.emit(ReportedRun(isBatch: true, outcomes: report, sketches: [], seconds: 0,
                                                            arguments: Array(CommandLine.arguments.dropFirst())))
        }
        let preset = try equalizer.resolvePreset(environment: ProcessInfo.processInfo.environment)
        let items = batchJob.items
        let started = RenderReport.now()
        let display = rendering.console.showsProgress
            ? ProgressDisplay(.batch(fileCount: items.count, totalSeconds: withLibraryMessagesSilenced { totalSeconds(of: items) })) : nil
        let outcomes = withLibraryMessagesSilenced {
            defer { display?.stop() }
            return batchJob.run { item in try render(item, preset: preset, display: display) }
        }
        let seconds = RenderReport.now() - started
        for input in batchJob.notAudioFiles {
            let reason = BatchJob.SkipReason.notAudioFileName.description
            if !rendering.console.quiet { printError("\(input): skipped: \(reason)") }
            report.skipped.append(BatchReport.NotRendered(input: input, output: nil, reason: reason))
        }
        var sketches: [RenderSketches?] = []
        for (item, outcome) in zip(items, outcomes) {
            switch outcome {
            case .rendered(let rendered):
                report.rendered.append(rendered.report)
                sketches.append(rendered.sketches)
                for warning in rendered.warnings { printError(warning) }
                if let plan = rendered.plan {
                    printError(plan)
                    printError("\(item.input) -> \(item.output): \(rendered.report.renderSeconds) s "
                               + "(\(realtimeText(audioSeconds: rendered.report.durationSeconds, wallSeconds: rendered.report.renderSeconds)))")
                }
            case .skipped(let reason):
                if rendering.console.showsNotes { printError("\(item.input): skipped: \(reason)") }
                report.skipped.append(BatchReport.NotRendered(input: item.input, output: item.output, reason: reason.description))
            case .failed(let error):
                let (message, status) = hints.failure(error, subject: item.input)
                printError(message)
                report.failed.append(BatchReport.NotRendered(input: item.input, output: item.output, error: message, exitStatus: status.rawValue))
            }
        }
        if rendering.console.showsNotes || !report.failed.isEmpty {
            let audioSeconds = report.rendered.reduce(0) { $0 + $1.durationSeconds }
            printError("\(report.rendered.count) rendered, \(report.skipped.count) skipped, \(report.failed.count) failed"
                       + (rendering.console.showsNotes ? "; \(clockTime(audioSeconds)) of audio in \((seconds * 100).rounded() / 100) s "
                          + "(\(realtimeText(audioSeconds: audioSeconds, wallSeconds: seconds)))" : ""))
        }
        try rendering.reporting.emit(ReportedRun(isBatch: true, outcomes: report, sketches: sketches, seconds: seconds,
                                                 arguments: Array(CommandLine.arguments.dropFirst())))
        if let status = report.failed.first?.exitStatus { throw ExitCode(status) }
    }

    /// The seconds of audio all the inputs hold (twice over when normalizing or trimming silence,
    /// which read each twice, three times when doing both), or nil when a length is unknown; read
    /// from the files' headers.
    private func totalSeconds(of items: [BatchJob.Item]) -> Double? {
        guard let total = BatchJob.statedSeconds(of: items) else { return nil }
        return total * Double(1 + (rendering.loudness.normalization == nil ? 0 : 1) + (editing.trimSilence == nil ? 0 : 1))
    }

    /// Renders one item as a single render would, counting its progress on the display.
    private func render(_ item: BatchJob.Item, preset: EQPreset?, display: ProgressDisplay?) throws -> BatchRendered {
        let progress = RenderProgress()
        display?.track(progress)
        defer { display?.finish(progress) }
        var job = try makeJob(input: item.input, output: item.output, preset: preset)
        job.settings.progress = progress
        let plan = rendering.console.verbose ? try job.plan().text : nil
        let started = RenderReport.now()
        let summary = try job.run()
        return BatchRendered(report: report(job, summary: summary, seconds: RenderReport.now() - started, preset: preset),
                             sketches: summary.sketches, plan: plan, warnings: RenderMessages.warnings(summary, output: item.output, hints: hints))
    }
}
