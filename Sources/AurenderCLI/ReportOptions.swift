import ArgumentParser
import Aurender

/// Where a render's report goes, as `--report FILE.json` and `--json` (`RenderingOptions`) ask.
struct ReportOptions {
    /// The file to write the report to, if any.
    var report: String?
    /// Whether to print the report on standard output.
    var json: Bool

    /// Asks the render for the levels a report shows, when one is asked for.
    func apply(to settings: inout RenderSettings) {
        settings.measuresLevel = json || report != nil
    }

    /// Prints and writes `report` as asked; the file is written atomically.
    func emit<Report: Encodable>(_ report: Report) throws {
        guard json || self.report != nil else { return }
        let text = try ReportJSON.text(report) + "\n"
        if json { print(text, terminator: "") }
        guard let path = self.report else { return }
        do { try OutputFile.write(text: text, to: path) } catch { throw fail(error.description, ExitStatus(RenderError.output(error))) }
    }
}
