import ArgumentParser
import Aurender

/// `aurender diff APPROVED/ RENDERED/`: runs the library's `FolderComparison` and prints its
/// pairs (as text or JSON), writes the JUnit and page reports, and approves when asked.
struct FolderDiff {
    let approved: String
    let rendered: String
    let tolerances: ComparisonTolerances
    let jobs: Int
    let json: Bool
    let junit: String?
    let report: String?
    let approve: Bool
    let prune: Bool
    let commandLine: String

    func run() throws {
        let comparison = FolderComparison(approved: approved, rendered: rendered, tolerances: tolerances, jobs: jobs, sketching: report != nil)
        let pairs = withLibraryMessagesSilenced { comparison.run() }
        let failed = pairs.filter { !$0.passed }.count
        if let junit {
            let xml = DiffJUnit(pairs: pairs, commandLine: commandLine).xml
            do { try OutputFile.write(text: xml, to: junit) } catch { throw fail(error.description, ExitStatus(RenderError.output(error))) }
        }
        if let report {
            let page = DiffReportPage(comparison: comparison, pairs: pairs, commandLine: commandLine).html
            do { try OutputFile.write(text: page, to: report) } catch { throw fail(error.description, ExitStatus(RenderError.output(error))) }
        }
        var approval: (changes: [FolderApproval.Change], errors: [String])?
        if approve { approval = FolderApproval.approve(pairs, of: comparison, pruning: prune) }
        if json {
            var document = FolderDiffJSON(approved: approved, rendered: rendered, tolerances: tolerances, pairs: pairs)
            document.approval = approval.map { $0.changes.map(Self.line) }
            print(try ReportJSON.text(document))
        } else {
            for pair in pairs { print(Self.line(pair)) }
            print("result: \(failed == 0 ? "all \(pairs.count) pairs passed" : "\(failed) of \(pairs.count) pairs failed")")
            for change in approval?.changes ?? [] { print("approve: \(Self.line(change))") }
        }
        for error in approval?.errors ?? [] { printError(error) }
        if let approval {
            let unapproved = approval.changes.contains { if case .renderUnreadable = $0 { true } else { false } }
            if !approval.errors.isEmpty || unapproved { throw ExitCode(1) }
            return
        }
        if failed > 0 { throw ExitCode(1) }
    }

    /// A change as `--approve` prints it, with the hint for a file kept for want of `--prune`.
    static func line(_ change: FolderApproval.Change) -> String {
        if case .notPruned(let path) = change { return "kept \(path): it has no render (--prune removes it)" }
        return change.description
    }

    /// One pair as the text output gives it: `passed  PATH` or `failed  PATH: why`.
    static func line(_ pair: FolderComparison.Pair) -> String {
        let status = pair.status.rawValue + String(repeating: " ", count: max(1, 11 - pair.status.rawValue.count))
        switch pair.status {
        case .passed: return status + pair.path
        case .missing: return status + pair.path + ": approved, but not rendered"
        case .extra: return status + pair.path + ": rendered, but not approved"
        case .unreadable: return status + pair.path + ": " + (pair.error ?? "cannot be read")
        case .failed: return status + pair.path + ": " + (pair.outcome?.failures.map(\.description).joined(separator: "; ") ?? "")
        }
    }
}
