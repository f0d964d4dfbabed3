#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Curves of level against log frequency from 20 Hz to 20 kHz, as one `<svg>` element: spectra
/// in dB relative to a full-scale sine, or gains in dB. With axes it has a grid, labels and a
/// legend; without, it is a thumbnail of the curves alone.
struct FrequencyPlot {
    /// One curve: a level (or nothing) at each of the plot's frequencies.
    struct Series {
        var label: String
        var colour: String
        var levels: [Double?]
        var dashed = false
    }

    /// The levels' axis: the spectra's (their highest level rounded up to 10 dB, `span` below it)
    /// or a gain's (symmetric about 0 dB, at least ±6 dB, in steps of 3 dB).
    enum Scale {
        case spectrum(span: Double)
        case gain
    }

    let frequencies: [Double]
    let width: Double
    let height: Double
    let withAxes: Bool
    let scale: Scale
    let title: String?

    init(frequencies: [Double], width: Double, height: Double, withAxes: Bool, scale: Scale, title: String? = nil) {
        self.frequencies = frequencies
        self.width = width
        self.height = height
        self.withAxes = withAxes
        self.scale = scale
        self.title = title
    }

    private var margins: (left: Double, right: Double, top: Double, bottom: Double) {
        withAxes ? (48, 12, title == nil ? 10 : 24, 30) : (1, 1, 1, 1)
    }

    /// The levels' range the axis spans for `series`.
    func range(for series: [Series]) -> (low: Double, high: Double) {
        let values = series.flatMap { $0.levels.compactMap { $0 } }
        switch scale {
        case .spectrum(let span):
            let high = ((values.max() ?? 0) / 10).rounded(.up) * 10
            return (high - span, high)
        case .gain:
            let extreme = max(6, ((values.map(abs).max() ?? 0) / 3).rounded(.up) * 3)
            return (-extreme, extreme)
        }
    }

    /// The plot of `series`, the later drawn over the earlier.
    func svg(_ series: [Series]) -> String {
        let (left, right, top, bottom) = margins
        let (low, high) = range(for: series)
        let plotWidth = width - left - right, plotHeight = height - top - bottom
        let lowest = frequencies.first ?? 20, highest = frequencies.last ?? 20000
        func x(_ frequency: Double) -> Double { left + plotWidth * log10(frequency / lowest) / log10(highest / lowest) }
        func y(_ level: Double) -> Double { top + plotHeight * (high - max(low, min(high, level))) / (high - low) }
        let n = SketchDrawing.number
        var svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(n(width))\" height=\"\(n(height))\" viewBox=\"0 0 \(n(width)) \(n(height))\""
            + " font-family=\"sans-serif\" font-size=\"10\"><rect width=\"100%\" height=\"100%\" fill=\"white\"/>"
        if withAxes {
            for frequency in [20.0, 50, 100, 200, 500, 1000, 2000, 5000, 10000, 20000] where frequency >= lowest && frequency <= highest {
                let label = frequency >= 1000 ? "\(Int(frequency / 1000))k" : "\(Int(frequency))"
                svg += "<line x1=\"\(n(x(frequency)))\" y1=\"\(n(top))\" x2=\"\(n(x(frequency)))\" y2=\"\(n(top + plotHeight))\" stroke=\"#e4e4e4\"/>"
                svg += "<text x=\"\(n(x(frequency)))\" y=\"\(n(height - bottom + 13))\" text-anchor=\"middle\">\(label)</text>"
            }
            let step = (high - low) > 40 ? 20.0 : (high - low) > 20 ? 6 : 3
            for level in stride(from: (low / step).rounded(.up) * step, through: high, by: step) {
                svg += "<line x1=\"\(n(left))\" y1=\"\(n(y(level)))\" x2=\"\(n(width - right))\" y2=\"\(n(y(level)))\" stroke=\"\(level == 0 ? "#aaa" : "#e4e4e4")\"/>"
                svg += "<text x=\"\(n(left - 4))\" y=\"\(n(y(level) + 3))\" text-anchor=\"end\">\(Int(level))</text>"
            }
            svg += "<text x=\"\(n(left + plotWidth / 2))\" y=\"\(n(height - 3))\" text-anchor=\"middle\">Hz</text>"
            svg += "<text x=\"11\" y=\"\(n(top + plotHeight / 2))\" text-anchor=\"middle\" transform=\"rotate(-90 11 \(n(top + plotHeight / 2)))\">dB</text>"
            if let title { svg += "<text x=\"\(n(left))\" y=\"14\" font-size=\"11\">\(SketchDrawing.escaped(title))</text>" }
        }
        for one in series {
            svg += SketchDrawing.curve(zip(frequencies, one.levels).map { (x($0), $1.map(y)) }, colour: one.colour,
                                       width: withAxes ? 1.5 : 1, dashed: one.dashed, thumbnail: !withAxes)
        }
        if withAxes {
            var legendX = width - right
            for one in series.reversed() {
                legendX -= 14 + Double(one.label.count) * 5.6
                svg += "<line x1=\"\(n(legendX))\" y1=\"\(n(top + 8))\" x2=\"\(n(legendX + 10))\" y2=\"\(n(top + 8))\" stroke=\"\(one.colour)\" stroke-width=\"2\""
                    + (one.dashed ? " stroke-dasharray=\"4 2\"" : "") + "/>"
                svg += "<text x=\"\(n(legendX + 12))\" y=\"\(n(top + 11))\">\(SketchDrawing.escaped(one.label))</text>"
            }
        }
        return svg + "</svg>"
    }
}
