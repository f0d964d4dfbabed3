import Aurender
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A run as one self-contained HTML page (`--report FILE.html`): inline CSS and SVG, no script
/// and nothing fetched, so it opens anywhere, offline, as a CI artifact.
///
/// A summary table gives every input a row (rendered, skipped or failed, with the reason) with
/// its levels before and after and thumbnails of its waveform and spectrum; below it, the files
/// worth a closer look get full-size pictures: every file of a small run, the files that clipped
/// in a large one (at most `detailLimit`), so a page of a thousand files stays a few MB.
struct ReportPage {
    let run: ReportedRun

    /// Runs of at most this many rendered files show every file in detail.
    static let smallRun = 20
    /// The most files a page shows in detail.
    static let detailLimit = 50
    /// Whether `path` names a page rather than a JSON report.
    static func isPage(_ path: String) -> Bool {
        let lowered = path.lowercased()
        return lowered.hasSuffix(".html") || lowered.hasSuffix(".htm")
    }

    private static let inputColour = "#8c8c8c", outputColour = "#1f77b4", changeColour = "#ff7f0e", responseColour = "#222"
    private static let thumbnailFrequencies = SketchDrawing.logFrequencies(count: 40)
    private static let detailFrequencies = SketchDrawing.logFrequencies(count: 240)

    /// The HTML document.
    var html: String {
        let outcomes = run.outcomes
        let audioSeconds = outcomes.rendered.reduce(0) { $0 + $1.durationSeconds }
        var page = """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8"><title>aurender report</title>
            <style>\(Self.style)</style></head><body>
            <h1>aurender report</h1>
            <p class="command"><code>\(e(run.commandLine))</code></p>
            <p class="totals">\(outcomes.rendered.count) rendered, \(outcomes.skipped.count) skipped, \(outcomes.failed.count) failed; \
            \(clockTime(audioSeconds)) of audio in \(seconds(run.seconds)) s; aurender \(e(outcomes.aurender))</p>

            """
        page += summaryTable()
        let detailed = detailedIndices()
        if !detailed.isEmpty {
            page += "<h2>Details</h2>\n"
            if outcomes.rendered.count > Self.smallRun {
                let clipped = outcomes.rendered.filter(Self.clipped).count
                page += "<p class=\"note\">Files that clipped are shown in detail"
                    + (clipped > detailed.count ? " (the first \(detailed.count) of \(clipped))" : "") + ".</p>\n"
            }
            for index in detailed { page += detail(index) }
        }
        return page + "</body></html>\n"
    }

    /// The rendered files shown in detail, by index.
    private func detailedIndices() -> [Int] {
        let rendered = run.outcomes.rendered
        let wanted = rendered.count <= Self.smallRun ? Array(rendered.indices) : rendered.indices.filter { Self.clipped(rendered[$0]) }
        return Array(wanted.filter { run.sketches[$0] != nil }.prefix(Self.detailLimit))
    }

    private static func clipped(_ report: RenderReport) -> Bool { report.clippedSamples > 0 || report.nonFiniteSamples > 0 }

    private func summaryTable() -> String {
        var table = """
            <table class="summary"><thead><tr><th>input</th><th>output</th><th>duration</th><th>loudness (LUFS)<br>in → out</th>\
            <th>true peak (dBTP)<br>in → out</th><th>8× peak (dBTP)<br>in → out</th><th>clipped</th><th>render (s)</th><th>waveform<br>in / out</th><th>spectrum<br>in / out</th>\
            </tr></thead><tbody>

            """
        let detailed = Set(detailedIndices())
        for (index, report) in run.outcomes.rendered.enumerated() {
            let sketches = run.sketches[index]
            let input = report.inputs.map(e).joined(separator: "<br>")
            let name = detailed.contains(index) ? "<a href=\"#file\(index + 1)\">\(input)</a>" : input
            let clippedCell = report.clippedSamples + report.nonFiniteSamples
            table += "<tr\(Self.clipped(report) ? " class=\"clipped\"" : "")><td>\(name)</td><td>\(e(report.output))</td>"
                + "<td>\(clockTime(report.durationSeconds))</td>"
                + "<td>\(levels(sketches, \.integratedLoudness))</td><td>\(levels(sketches) { Self.decibels($0.truePeak) })</td>"
                + "<td>\(levels(sketches) { $0.reconstructedPeak.flatMap(Self.decibels) })</td>"
                + "<td class=\"number\">\(clippedCell)</td><td class=\"number\">\(seconds(report.renderSeconds))</td>"
                + "<td>\(sketches.map(thumbnailOutlines) ?? "")</td><td>\(sketches.map(thumbnailSpectra) ?? "")</td></tr>\n"
        }
        for skipped in run.outcomes.skipped {
            table += "<tr class=\"skipped\"><td>\(e(skipped.input))</td><td>\(e(skipped.output ?? "—"))</td>"
                + "<td colspan=\"8\">skipped: \(e(skipped.reason ?? ""))</td></tr>\n"
        }
        for failed in run.outcomes.failed {
            table += "<tr class=\"failed\"><td>\(e(failed.input))</td><td>\(e(failed.output ?? "—"))</td>"
                + "<td colspan=\"8\">failed (exit \(failed.exitStatus ?? 1)): \(e(failed.error ?? ""))</td></tr>\n"
        }
        return table + "</tbody></table>\n"
    }

    /// A level before and after, `in → out`; a mix's inputs are left out, as no one number stands for them.
    private func levels(_ sketches: RenderSketches?, _ level: (SignalSketch) -> Double?) -> String {
        guard let sketches else { return "—" }
        let input = sketches.inputs.count == 1 ? Self.format(level(sketches.inputs[0].sketch)) : "—"
        return "\(input) → \(Self.format(level(sketches.output)))"
    }

    private func thumbnailOutlines(_ sketches: RenderSketches) -> String {
        var svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"100\" height=\"38\" viewBox=\"0 0 100 38\">"
        if sketches.inputs.count == 1 {
            svg += SketchDrawing.outline(sketches.inputs[0].sketch, x: 0, y: 0, width: 100, height: 18, colour: Self.inputColour,
                                          thumbnail: true)
        }
        return svg + SketchDrawing.outline(sketches.output, x: 0, y: 20, width: 100, height: 18, colour: Self.outputColour, thumbnail: true)
            + "</svg>"
    }

    private func thumbnailSpectra(_ sketches: RenderSketches) -> String {
        let plot = FrequencyPlot(frequencies: Self.thumbnailFrequencies, width: 100, height: 38, withAxes: false, scale: .spectrum(span: 90))
        return plot.svg(spectra(sketches, frequencies: Self.thumbnailFrequencies))
    }

    /// The inputs' spectra (grey), then the output's.
    private func spectra(_ sketches: RenderSketches, frequencies: [Double]) -> [FrequencyPlot.Series] {
        sketches.inputs.map { input in
            FrequencyPlot.Series(label: sketches.inputs.count == 1 ? "input" : input.input, colour: Self.inputColour,
                                 levels: SketchDrawing.levels(of: input.sketch, at: frequencies))
        } + [FrequencyPlot.Series(label: "output", colour: Self.outputColour, levels: SketchDrawing.levels(of: sketches.output, at: frequencies))]
    }

    /// One file's full-size pictures: its levels, the waveforms of its input and output, their
    /// spectra, and the change from one to the other beside the designed response.
    private func detail(_ index: Int) -> String {
        let report = run.outcomes.rendered[index]
        guard let sketches = run.sketches[index] else { return "" }
        var section = "<section id=\"file\(index + 1)\"><h3>\(report.inputs.map(e).joined(separator: " + ")) → \(e(report.output))</h3>\n"
        section += "<table class=\"levels\"><tr><th></th><th>rate, channels</th><th>duration</th><th>loudness</th><th>true peak</th>"
            + "<th>8× peak</th><th>sample peak</th></tr>\n"
        for (label, sketch) in sketches.inputs.map({ ($0.input, $0.sketch) }) + [("output", sketches.output)] {
            section += "<tr><td>\(e(label))</td><td>\(Int(sketch.sampleRate)) Hz, \(sketch.channelCount)</td>"
                + "<td>\(clockTime(Double(sketch.frames) / sketch.sampleRate))</td><td>\(Self.format(sketch.integratedLoudness)) LUFS</td>"
                + "<td>\(Self.format(Self.decibels(sketch.truePeak))) dBTP</td>"
                + "<td>\(sketch.reconstructedPeak.map { "\(Self.format(Self.decibels($0))) dBTP" } ?? "—")</td>"
                + "<td>\(Self.format(Self.decibels(sketch.samplePeak))) dBFS</td></tr>\n"
        }
        section += "</table>\n"
        if Self.clipped(report) {
            section += "<p class=\"warning\">\(report.clippedSamples) samples went past full scale"
                + (report.nonFiniteSamples > 0 ? " and \(report.nonFiniteSamples) were not numbers" : "") + "; red marks where.</p>\n"
        }
        for (label, sketch, colour) in sketches.inputs.map({ ($0.input, $0.sketch, Self.inputColour) }) + [("output", sketches.output, Self.outputColour)] {
            section += waveform(label: label, sketch: sketch, colour: colour)
        }
        let frequencies = Self.detailFrequencies
        section += FrequencyPlot(frequencies: frequencies, width: 860, height: 260, withAxes: true, scale: .spectrum(span: 100),
                                 title: "Average spectrum (dB relative to a full-scale sine)").svg(spectra(sketches, frequencies: frequencies))
        var change: [FrequencyPlot.Series] = []
        if sketches.inputs.count == 1 {
            let before = SketchDrawing.levels(of: sketches.inputs[0].sketch, at: frequencies)
            let after = SketchDrawing.levels(of: sketches.output, at: frequencies)
            change.append(FrequencyPlot.Series(label: "measured: output − input", colour: Self.changeColour,
                                               levels: zip(before, after).map { before, after in before.flatMap { b in after.map { $0 - b } } }))
        }
        if !sketches.response.isEmpty {
            let designed = sketches.response.map(\.frequency)
            change.append(FrequencyPlot.Series(label: "designed response", colour: Self.responseColour,
                                               levels: frequencies.map { frequency in Self.interpolate(sketches.response, at: frequency, within: designed) },
                                               dashed: true))
        }
        if !change.isEmpty {
            section += "\n" + FrequencyPlot(frequencies: frequencies, width: 860, height: 200, withAxes: true, scale: .gain,
                                            title: "Change from input to output (dB)").svg(change)
        }
        return section + "\n</section>\n"
    }

    /// A waveform outline with its label and time at each end.
    private func waveform(label: String, sketch: SignalSketch, colour: String) -> String {
        let width = 860.0, height = 90.0
        let duration = clockTime(Double(sketch.frames) / sketch.sampleRate)
        return "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(Int(width))\" height=\"\(Int(height + 16))\" viewBox=\"0 0 \(Int(width)) \(Int(height + 16))\""
            + " font-family=\"sans-serif\" font-size=\"10\"><rect width=\"100%\" height=\"100%\" fill=\"white\"/>"
            + "<line x1=\"0\" y1=\"\(Int(height / 2))\" x2=\"\(Int(width))\" y2=\"\(Int(height / 2))\" stroke=\"#ddd\"/>"
            + SketchDrawing.outline(sketch, x: 0, y: 0, width: width, height: height, colour: colour)
            + "<text x=\"2\" y=\"\(Int(height + 12))\">0:00</text><text x=\"\(Int(width / 2))\" y=\"\(Int(height + 12))\" text-anchor=\"middle\">"
            + "\(e(label))</text><text x=\"\(Int(width - 2))\" y=\"\(Int(height + 12))\" text-anchor=\"end\">\(duration)</text></svg>\n"
    }

    /// The designed response at `frequency`, linear in log frequency between its points; nil outside them.
    private static func interpolate(_ response: [RenderSketches.ResponsePoint], at frequency: Double, within frequencies: [Double]) -> Double? {
        guard let upper = frequencies.firstIndex(where: { $0 >= frequency }) else { return nil }
        if upper == 0 { return frequency == frequencies[0] ? response[0].decibels : nil }
        let (a, b) = (response[upper - 1], response[upper])
        let t = (log(frequency) - log(a.frequency)) / (log(b.frequency) - log(a.frequency))
        return a.decibels + t * (b.decibels - a.decibels)
    }

    private static func decibels(_ level: Float) -> Double? { level > 0 ? 20 * log10(Double(level)) : nil }

    /// A level to 0.1, or `—` when there is none (silence, or too short to measure).
    private static func format(_ level: Double?) -> String {
        guard let level, level.isFinite else { return "—" }
        let tenths = Int((level * 10).rounded())
        return (tenths < 0 ? "−" : "") + "\(abs(tenths) / 10).\(abs(tenths) % 10)"
    }

    private func e(_ text: String) -> String { SketchDrawing.escaped(text) }

    private func seconds(_ value: Double) -> String { String((value * 100).rounded() / 100) }

    private static let style = """
        body{font-family:system-ui,sans-serif;margin:24px;color:#222;background:#fff}h1{font-size:22px;margin:0 0 8px}\
        h2{font-size:18px;margin-top:28px}h3{font-size:14px;margin:24px 0 6px}code{font-size:12px}\
        .command{background:#f4f4f4;padding:6px 8px;overflow-x:auto}table{border-collapse:collapse;font-size:12px}\
        th,td{border-bottom:1px solid #e4e4e4;padding:3px 8px;text-align:left;vertical-align:middle}th{background:#fafafa}\
        td.number{text-align:right}tr.failed td{background:#fde8e8}tr.skipped td{color:#777}tr.clipped td{background:#fff4e0}\
        .warning{color:#b22}.note{color:#555}svg{display:block}section svg{margin:4px 0}
        """
}
