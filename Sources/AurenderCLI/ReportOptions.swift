import ArgumentParser
import Aurender

/// The options that make a render print or write its report.
struct ReportOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Write a JSON report of the render (levels, clipping, timing, options) to this file; with -o, of every file.",
                               valueName: "file.json"))
    var report: String?

    @Flag(help: "Print the JSON report on standard output.")
    var json = false

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
