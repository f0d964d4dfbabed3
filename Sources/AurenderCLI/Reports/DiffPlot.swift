import Aurender
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `aurender diff A B --plot FILE.svg`: both waveforms, the difference signal's level over time
/// (its peak and RMS per column, the tolerance and the first differing frame marked), and the
/// spectra of both and of the difference, so a failed null test shows where and at what
/// frequencies it failed.
struct DiffPlot {
    let first: (name: String, sketch: SignalSketch)
    let second: (name: String, sketch: SignalSketch)
    /// The sketch of A − B over the frames both hold.
    let difference: SignalSketch
    /// The largest difference allowed, in dBFS, when one was given.
    let toleranceDBFS: Double?
    let firstDifferingFrame: Int64?

    private let width = 900.0
    private let lowestLevel = -150.0

    /// The SVG document.
    var svg: String {
        let n = SketchDrawing.number
        let waveformHeight = 80.0, levelHeight = 160.0, spectrumHeight = 260.0
        let levelTop = 2 * (waveformHeight + 24) + 8, spectrumTop = levelTop + levelHeight + 40
        let height = spectrumTop + spectrumHeight
        var svg = """
            <svg xmlns="http://www.w3.org/2000/svg" width="\(Int(width))" height="\(Int(height))" viewBox="0 0 \(Int(width)) \(Int(height))" \
            font-family="sans-serif" font-size="10"><rect width="100%" height="100%" fill="white"/>
            """
        for (index, (label, sketch, colour)) in [("A: " + first.name, first.sketch, "#8c8c8c"), ("B: " + second.name, second.sketch, "#1f77b4")].enumerated() {
            let top = 14 + Double(index) * (waveformHeight + 24)
            svg += "<text x=\"0\" y=\"\(n(top - 3))\" font-size=\"11\">\(SketchDrawing.escaped(label)) (\(clockTime(Double(sketch.frames) / sketch.sampleRate)))</text>"
            svg += "<line x1=\"0\" y1=\"\(n(top + waveformHeight / 2))\" x2=\"\(Int(width))\" y2=\"\(n(top + waveformHeight / 2))\" stroke=\"#ddd\"/>"
            let share = Double(sketch.frames) / Double(max(1, first.sketch.frames, second.sketch.frames))
            svg += SketchDrawing.outline(sketch, x: 0, y: top, width: width * share, height: waveformHeight, colour: colour)
        }
        svg += levelOverTime(top: levelTop, height: levelHeight)
        let frequencies = SketchDrawing.logFrequencies(count: 240)
        let plot = FrequencyPlot(frequencies: frequencies, width: width, height: spectrumHeight, withAxes: true, scale: .spectrum(span: 150),
                                 title: "Average spectra (dB relative to a full-scale sine)")
        svg += "<g transform=\"translate(0 \(n(spectrumTop)))\">" + plot.svg([
            FrequencyPlot.Series(label: "A", colour: "#8c8c8c", levels: SketchDrawing.levels(of: first.sketch, at: frequencies)),
            FrequencyPlot.Series(label: "B", colour: "#1f77b4", levels: SketchDrawing.levels(of: second.sketch, at: frequencies)),
            FrequencyPlot.Series(label: "A − B", colour: "#d62728", levels: SketchDrawing.levels(of: difference, at: frequencies)),
        ]) + "</g>"
        return svg + "</svg>\n"
    }

    /// The difference's peak and RMS level per column, in dBFS, over the frames both files hold.
    private func levelOverTime(top: Double, height: Double) -> String {
        let n = SketchDrawing.number
        let left = 40.0, plotWidth = width - left
        let span = Double(max(1, first.sketch.frames, second.sketch.frames))
        let commonWidth = plotWidth * Double(difference.frames) / span
        func y(_ level: Double) -> Double { top + height * (0 - max(lowestLevel, min(0, level))) / -lowestLevel }
        var svg = "<text x=\"0\" y=\"\(n(top - 6))\" font-size=\"11\">Difference A − B over time (dBFS): peak and RMS per column</text>"
        for level in stride(from: 0.0, through: lowestLevel, by: -30) {
            svg += "<line x1=\"\(n(left))\" y1=\"\(n(y(level)))\" x2=\"\(Int(width))\" y2=\"\(n(y(level)))\" stroke=\"#e4e4e4\"/>"
            svg += "<text x=\"\(n(left - 4))\" y=\"\(n(y(level) + 3))\" text-anchor=\"end\">\(Int(level))</text>"
        }
        let columns = SketchDrawing.columns(of: difference, width: Int(commonWidth))
        if !columns.isEmpty {
            let step = commonWidth / Double(columns.count)
            let peaks = columns.enumerated().map { index, column -> (x: Double, y: Double?) in
                let peak = Double(max(abs(column.minimum), abs(column.maximum)))
                return (left + (Double(index) + 0.5) * step, y(peak > 0 ? 20 * log10(peak) : lowestLevel))
            }
            let rmsColumns = Self.resampled(difference.rms, to: columns.count)
            let rms = rmsColumns.enumerated().map { index, value -> (x: Double, y: Double?) in
                (left + (Double(index) + 0.5) * step, y(value > 0 ? 20 * log10(Double(value)) : lowestLevel))
            }
            svg += SketchDrawing.curve(peaks, colour: "#d62728", width: 1.2) + SketchDrawing.curve(rms, colour: "#ff9896", width: 1.2)
        }
        if let toleranceDBFS {
            svg += "<line x1=\"\(n(left))\" y1=\"\(n(y(toleranceDBFS)))\" x2=\"\(Int(width))\" y2=\"\(n(y(toleranceDBFS)))\" stroke=\"#222\" stroke-dasharray=\"5 3\"/>"
            svg += "<text x=\"\(Int(width - 2))\" y=\"\(n(y(toleranceDBFS) - 3))\" text-anchor=\"end\">tolerance \(n(toleranceDBFS)) dBFS</text>"
        }
        if let frame = firstDifferingFrame {
            let x = left + plotWidth * Double(frame) / span
            svg += "<line x1=\"\(n(x))\" y1=\"\(n(top))\" x2=\"\(n(x))\" y2=\"\(n(top + height))\" stroke=\"#222\"/>"
            svg += "<text x=\"\(n(x + 3))\" y=\"\(n(top + 10))\">first difference: frame \(frame)</text>"
        }
        if difference.frames < Int64(span) {
            svg += "<text x=\"\(n(left + commonWidth + 4))\" y=\"\(n(top + height / 2))\">only one file continues</text>"
        }
        return svg + "<text x=\"\(n(left))\" y=\"\(n(top + height + 12))\">0:00</text>"
            + "<text x=\"\(Int(width))\" y=\"\(n(top + height + 12))\" text-anchor=\"end\">\(clockTime(span / max(1, first.sketch.sampleRate)))</text>"
    }

    /// `values` in `count` columns, each the root mean square of the values it covers.
    private static func resampled(_ values: [Float], to count: Int) -> [Float] {
        guard !values.isEmpty, count > 0 else { return [] }
        let drawn = min(count, values.count)
        return (0..<drawn).map { column in
            let low = column * values.count / drawn, high = max(low + 1, (column + 1) * values.count / drawn)
            return (values[low..<high].reduce(0) { $0 + $1 * $1 } / Float(high - low)).squareRoot()
        }
    }
}
