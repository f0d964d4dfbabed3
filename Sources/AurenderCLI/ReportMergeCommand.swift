import ArgumentParser
import Aurender
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `aurender report merge A.json B.json … -o all.json`: the reports of a batch's shares made one.
struct ReportMergeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "merge",
        abstract: "Merge the reports of a batch's shares (--shard K/N) into the whole batch's report.",
        discussion: """
            Each share of a batch writes its own report (--report); given every share's report, \
            merge writes the report the batch rendered on one machine would have written, its \
            entries in the batch's input order (only the timings differ). Reports of different \
            batches (other inputs, other options, another version), a share given twice or a share \
            missing are refused with exit status 65, and nothing is written.
            """
    )

    @Argument(help: ArgumentHelp("The shares' reports, one per share, in any order.", valueName: "report.json"), completion: .file(extensions: ["json"]))
    var reports: [String]

    @Option(name: [.customShort("o"), .customLong("output")],
            help: ArgumentHelp("Write the merged report to this file (written whole or not at all); without it, print it.", valueName: "file"),
            completion: .file(extensions: ["json"]))
    var output: String?

    func validate() throws {
        if let output, ReportPage.isPage(output) {
            throw ValidationError("merge writes JSON: a page's pictures need the audio, which the shares' JSON reports do not hold")
        }
    }

    func run() throws {
        let shares = try reports.map { BatchReport.Share(name: $0, report: try Self.read($0)) }
        let merged: BatchReport
        do { merged = try BatchReport.merging(shares) } catch { throw fail(error.description, .dataError) }
        try ReportOptions(report: output, json: output == nil, junit: nil)
            .emit(ReportedRun(isBatch: true, outcomes: merged, sketches: merged.rendered.map { _ in nil }, seconds: 0, arguments: merged.batch?.arguments ?? []))
    }

    /// The batch report in the file at `path`; a file that cannot be read or is not one ends the command.
    private static func read(_ path: String) throws -> BatchReport {
        var info = stat()
        guard stat(path, &info) == 0 else { throw fail("\(path): \(String(cString: strerror(errno)))", .noInput) }
        if (info.st_mode & S_IFMT) == S_IFDIR { throw fail("\(path): is a directory, not a report", .noInput) }
        guard let data = FileManager.default.contents(atPath: path) else { throw fail("\(path): cannot be read", .noInput) }
        do {
            return try JSONDecoder().decode(BatchReport.self, from: data)
        } catch DecodingError.keyNotFound(let key, _) {
            throw fail("\(path): not a batch's report: no '\(key.stringValue)' field", .dataError)
        } catch {
            throw fail("\(path): not a batch's report: not JSON of one", .dataError)
        }
    }
}
