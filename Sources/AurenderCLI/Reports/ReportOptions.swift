import ArgumentParser
import Aurender

/// Where a run's reports go, as `--report FILE.json|FILE.html`, `--json` and `--junit FILE.xml`
/// (`RenderingOptions`) ask.
struct ReportOptions {
    /// The file to write the report to, if any: a page when its name ends in `.html`, else JSON.
    var report: String?
    /// Whether to print the JSON report on standard output.
    var json: Bool
    /// The file to write the JUnit XML to, if any.
    var junit: String?

    /// Whether the report asked for is a page, which draws sketches of the audio.
    var writesPage: Bool { report.map(ReportPage.isPage) ?? false }

    /// Asks the render for the levels and sketches the reports show, when they are asked for.
    func apply(to settings: inout RenderSettings) {
        settings.measuresLevel = json || report != nil || junit != nil
        settings.sketchesSignals = writesPage
    }

    /// Whether any report covers a failed run (JUnit and pages do; JSON reports only finished renders).
    var reportsFailures: Bool { junit != nil || writesPage }

    /// Prints and writes the reports of `run` as asked, each file written atomically. A single
    /// render's JSON is its `RenderReport`, a batch's the `BatchReport`; a failed single render
    /// writes no JSON.
    func emit(_ run: ReportedRun) throws {
        if json || (report != nil && !writesPage) {
            let text: String
            if run.isBatch {
                text = try ReportJSON.text(run.outcomes) + "\n"
            } else if let rendered = run.outcomes.rendered.first {
                text = try ReportJSON.text(rendered) + "\n"
            } else {
                text = ""
            }
            if json, !text.isEmpty { print(text, terminator: "") }
            if let report, !writesPage, !text.isEmpty { try write(text, to: report) }
        }
        if let report, writesPage { try write(ReportPage(run: run).html, to: report) }
        if let junit { try write(JUnitReport(run: run).xml, to: junit) }
    }

    private func write(_ text: String, to path: String) throws {
        do { try OutputFile.write(text: text, to: path) } catch { throw fail(error.description, ExitStatus(RenderError.output(error))) }
    }
}
