import Aurender

/// `aurender diff APPROVED/ RENDERED/ --report diff.html`: a page with every pair's verdict in a
/// table and each failing pair's plot (`DiffPlot`: both waveforms, the difference's level over
/// time and the spectra), so a failed CI run shows where and at what frequencies renders moved.
struct DiffReportPage {
    let comparison: FolderComparison
    let pairs: [FolderComparison.Pair]
    let commandLine: String

    /// The HTML document.
    var html: String {
        let failed = pairs.filter { !$0.passed }
        var page = """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8"><title>aurender diff</title>
            <style>\(Self.style)</style></head><body>
            <h1>aurender diff</h1>
            <p class="command"><code>\(e(commandLine))</code></p>
            <p class="totals">\(pairs.count - failed.count) of \(pairs.count) pairs passed, \(failed.count) failed</p>
            <table><tr><th>file</th><th>verdict</th><th>max difference</th><th>rms difference</th><th>why</th></tr>

            """
        for pair in pairs {
            let figures = pair.outcome?.figures
            page += "<tr class=\"\(pair.passed ? "passed" : "failed")\"><td><code>\(e(pair.path))</code></td><td>\(pair.status.rawValue)</td>"
                + "<td class=\"number\">\(figures.map { DiffCommand.dBFS(Double($0.largest)) } ?? "")</td>"
                + "<td class=\"number\">\(figures.map { DiffCommand.dBFS($0.rms) } ?? "")</td>"
                + "<td>\(e(DiffJUnit.failure(pair) ?? ""))</td></tr>\n"
        }
        page += "</table>\n"
        for pair in failed {
            guard let outcome = pair.outcome, let sketches = outcome.figures.sketches else { continue }
            let files = comparison.files(of: pair.path)
            let plot = DiffPlot(first: (files.approved, sketches.a), second: (files.rendered, sketches.b), difference: sketches.difference,
                                toleranceDBFS: comparison.comparison.tolerances.maxDifferenceDBFS,
                                firstDifferingFrame: outcome.figures.firstDifferingFrame)
            page += "<section><h2>\(e(pair.path))</h2><p class=\"warning\">\(e(DiffJUnit.failure(pair) ?? ""))</p>\n\(plot.svg)\n</section>\n"
        }
        return page + "</body></html>\n"
    }

    private func e(_ text: String) -> String { SketchDrawing.escaped(text) }

    private static let style = """
        body{font-family:system-ui,sans-serif;margin:24px;color:#222;background:#fff}h1{font-size:22px;margin:0 0 8px}\
        h2{font-size:16px;margin-top:28px}code{font-size:12px}.command{background:#f4f4f4;padding:6px 8px;overflow-x:auto}\
        table{border-collapse:collapse;font-size:12px}th,td{border-bottom:1px solid #e4e4e4;padding:3px 8px;text-align:left}\
        th{background:#fafafa}td.number{text-align:right}tr.failed td{background:#fde8e8}.warning{color:#b22}svg{display:block}
        """
}
