import ArgumentParser
import Aurender
import Dispatch
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The options for rendering many files into a folder.
struct BatchOptions: ParsableArguments {
    @Option(name: [.customShort("o"), .customLong("output-folder")],
            help: ArgumentHelp("Render every input into this folder (made if missing), named after the input.", valueName: "folder"))
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
}

extension RenderCommand {
    /// One input and where it goes.
    struct BatchItem {
        let input: String
        let output: String
    }

    /// Renders every input (files, or audio files in folders) into `folder`, `-j` at a time; a
    /// failing file does not stop the others. Prints a summary (on a terminal, or when a file
    /// failed), writes the batch report if asked, and exits with the first failure's status.
    func renderBatch(into folder: String) throws {
        let items = try batchItems(into: folder)
        let preset = try equalizer.resolvePreset(environment: ProcessInfo.processInfo.environment)
        let jobs = max(1, batch.jobs ?? Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
        let started = RenderReport.now()
        let display = console.showsProgress
            ? ProgressDisplay(.batch(fileCount: items.count, totalSeconds: withLibraryMessagesSilenced { totalSeconds(of: items) })) : nil
        let outcomes: [BatchOutcome] = withLibraryMessagesSilenced {
            defer { display?.stop() }
            let next = BatchCounter(), results = BatchResults(count: items.count)
            let group = DispatchGroup()
            let queue = DispatchQueue(label: "aurender.batch", attributes: .concurrent)
            for _ in 0..<min(jobs, items.count) {
                queue.async(group: group) {
                    while let index = next.take(below: items.count) {
                        results.store(index, render(items[index], preset: preset, display: display))
                    }
                }
            }
            group.wait()
            return results.all()
        }
        let seconds = RenderReport.now() - started
        var report = BatchReport(version: AurenderVersion.string, rendered: [], skipped: [], failed: [])
        for (item, outcome) in zip(items, outcomes) {
            switch outcome {
            case .rendered(let rendered, let plan, let warnings):
                report.rendered.append(rendered)
                for warning in warnings { printError(warning) }
                if let plan {
                    printError(plan)
                    printError("\(item.input) -> \(item.output): \(rendered.renderSeconds) s "
                               + "(\(realtimeText(audioSeconds: rendered.durationSeconds, wallSeconds: rendered.renderSeconds)))")
                }
            case .skipped:
                report.skipped.append(BatchReport.NotRendered(input: item.input, output: item.output))
            case .failed(let message, let status):
                printError(message)
                report.failed.append(BatchReport.NotRendered(input: item.input, output: item.output, error: message, exitStatus: status.rawValue))
            }
        }
        if console.showsNotes || !report.failed.isEmpty {
            let audioSeconds = report.rendered.reduce(0) { $0 + $1.durationSeconds }
            printError("\(report.rendered.count) rendered, \(report.skipped.count) skipped, \(report.failed.count) failed"
                       + (console.showsNotes ? "; \(clockTime(audioSeconds)) of audio in \((seconds * 100).rounded() / 100) s "
                          + "(\(realtimeText(audioSeconds: audioSeconds, wallSeconds: seconds)))" : ""))
        }
        try reporting.emit(report)
        if let status = report.failed.first?.exitStatus { throw ExitCode(status) }
    }

    /// What became of one file.
    enum BatchOutcome {
        /// Written, with its report, its plan (with `--verbose`) and the warnings it raised.
        case rendered(RenderReport, plan: String?, warnings: [String])
        case skipped
        /// Not written: the one-line message and the exit status it maps to.
        case failed(String, ExitStatus)
    }

    /// The seconds of audio all the inputs hold (twice over when normalizing, which reads
    /// each twice), or nil when a length is unknown; read from the files' headers.
    private func totalSeconds(of items: [BatchItem]) -> Double? {
        var total = 0.0
        for item in items {
            guard let file = try? FormatRegistry.standard.openDecoder(path: item.input), let frames = file.length.frames else { return nil }
            total += Double(frames) / file.format.sampleRate
        }
        return total * (loudness.normalize == nil ? 1 : 2)
    }

    private func render(_ item: BatchItem, preset: EQPreset?, display: ProgressDisplay?) -> BatchOutcome {
        var status = stat(), existing = stat()
        if stat(item.output, &existing) == 0 {
            if batch.skipExisting { return .skipped }
            if batch.newer, stat(item.input, &status) == 0,
               (existing.st_mtim.tv_sec, existing.st_mtim.tv_nsec) > (status.st_mtim.tv_sec, status.st_mtim.tv_nsec) {
                return .skipped
            }
        }
        let slash = item.output.lastIndex(of: "/").map { String(item.output[..<$0]) }
        if let slash { makeFolders(slash) }
        let progress = RenderProgress()
        display?.track(progress)
        defer { display?.finish(progress) }
        do {
            var job = try makeJob(input: item.input, output: item.output, preset: preset)
            job.settings.progress = progress
            let plan = console.verbose ? try job.plan().text : nil
            let started = RenderReport.now()
            let summary = try job.run()
            return .rendered(report(job, summary: summary, seconds: RenderReport.now() - started, preset: preset),
                             plan: plan, warnings: RenderMessages.warnings(summary, output: item.output, hints: .render))
        } catch {
            let (message, status) = CommandHints.render.failure(error, subject: item.input)
            return .failed(message, status)
        }
    }

    /// The inputs, with folders expanded to the audio files in them, and each one's output path.
    private func batchItems(into folder: String) throws -> [BatchItem] {
        var items: [BatchItem] = []
        for path in paths {
            var info = stat()
            if stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR {
                for relative in audioFiles(in: path, recursive: batch.recursive) {
                    items.append(BatchItem(input: path + "/" + relative, output: outputPath(for: relative, in: folder)))
                }
            } else {
                let name = path.split(separator: "/").last.map(String.init) ?? path
                items.append(BatchItem(input: path, output: outputPath(for: name, in: folder)))
            }
        }
        guard !items.isEmpty else { throw fail("no audio files among the inputs", .usage) }
        if let collision = Self.firstCollision(in: items) { throw fail(collision, .usage) }
        return items
    }

    /// What is wrong when two or more inputs would be rendered to the same output, naming the
    /// first such output and its inputs; nil when every output is different.
    private static func firstCollision(in items: [BatchItem]) -> String? {
        var inputsByOutput: [String: [String]] = [:]
        for item in items { inputsByOutput[item.output, default: []].append(item.input) }
        for item in items {
            guard let inputs = inputsByOutput[item.output], inputs.count > 1, let last = inputs.last else { continue }
            return "\(inputs.dropLast().joined(separator: ", ")) and \(last) would \(inputs.count == 2 ? "both" : "all") "
                + "be rendered to \(item.output); rename them or render them separately"
        }
        return nil
    }

    /// `relative` in `folder`, with the suffix added and the extension of `--type` if given.
    private func outputPath(for relative: String, in folder: String) -> String {
        var base = relative, ext = ""
        if let dot = relative.lastIndex(of: "."), relative[dot...].contains("/") == false {
            base = String(relative[..<dot])
            ext = String(relative[relative.index(after: dot)...])
        }
        if let type { ext = type.encoding == .opus ? "opus" : (type.encoding == .mp3 ? "mp3" : typeExtension(type.type)) }
        return (folder.hasSuffix("/") ? folder : folder + "/") + base + batch.suffix + (ext.isEmpty ? "" : "." + ext)
    }

    private func typeExtension(_ type: AudioContainer) -> String {
        AudioContainer.knownNames.first { AudioContainer.named($0)?.container == type } ?? "wav"
    }

    /// Paths, relative to `folder`, of the files in it whose extension names an audio container.
    private func audioFiles(in folder: String, recursive: Bool, prefix: String = "") -> [String] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder + (prefix.isEmpty ? "" : "/" + prefix)) else { return [] }
        var found: [String] = []
        for name in names.sorted() where !name.hasPrefix(".") {
            let relative = prefix.isEmpty ? name : prefix + "/" + name
            var info = stat()
            guard stat(folder + "/" + relative, &info) == 0 else { continue }
            if (info.st_mode & S_IFMT) == S_IFDIR {
                if recursive { found += audioFiles(in: folder, recursive: true, prefix: relative) }
            } else if AudioContainer.forPath(name) != nil {
                found.append(relative)
            }
        }
        return found
    }

    private func makeFolders(_ path: String) {
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }
}

/// Hands out file indices to the batch's workers, one at a time.
private final class BatchCounter: @unchecked Sendable {
    private var next = 0
    private let lock = DispatchSemaphore(value: 1)

    func take(below count: Int) -> Int? {
        lock.wait()
        defer { lock.signal() }
        guard next < count else { return nil }
        next += 1
        return next - 1
    }
}

/// The outcomes the workers report, read once they have all finished.
private final class BatchResults: @unchecked Sendable {
    private var outcomes: [RenderCommand.BatchOutcome?]
    private let lock = DispatchSemaphore(value: 1)

    init(count: Int) { outcomes = Array(repeating: nil, count: count) }

    func store(_ index: Int, _ outcome: RenderCommand.BatchOutcome) {
        lock.wait()
        outcomes[index] = outcome
        lock.signal()
    }

    /// Every outcome, once all the workers have finished.
    func all() -> [RenderCommand.BatchOutcome] { outcomes.map { $0 ?? .skipped } }
}
