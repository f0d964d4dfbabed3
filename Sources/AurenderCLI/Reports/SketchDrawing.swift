import Aurender
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Turns sketches into SVG: waveform outlines as bars, spectra and responses as curves on a
/// log-frequency axis. The numbers are rounded to what the picture shows, so a page of a
/// thousand files stays small.
enum SketchDrawing {
    /// One pixel column of an outline: the smallest and largest sample it covers, and whether
    /// any sample went past full scale.
    struct OutlineColumn {
        var minimum: Float
        var maximum: Float
        var clipped: Bool { maximum > 1 || minimum < -1 }
    }

    /// The outline of `sketch` in `width` columns (fewer when it has fewer): each column the
    /// extremes of the sketch's columns it covers.
    static func columns(of sketch: SignalSketch, width: Int) -> [OutlineColumn] {
        let count = min(sketch.minima.count, sketch.maxima.count)
        guard count > 0, width > 0 else { return [] }
        let drawn = min(width, count)
        return (0..<drawn).map { column in
            let low = column * count / drawn, high = max(low + 1, (column + 1) * count / drawn)
            return OutlineColumn(minimum: sketch.minima[low..<high].min() ?? 0, maximum: sketch.maxima[low..<high].max() ?? 0)
        }
    }

    /// An outline as vertical bars in a box of `width` × `height` at (`x`, `y`), full scale
    /// filling the height: one path for the columns within full scale in `colour`, one in red for
    /// those that went past it. A `thumbnail` is drawn in whole pixels, which keeps it small.
    static func outline(_ sketch: SignalSketch, x: Double, y: Double, width: Double, height: Double, colour: String,
                        thumbnail: Bool = false) -> String {
        let columns = columns(of: sketch, width: Int(width))
        guard !columns.isEmpty else { return "" }
        let step = width / Double(columns.count)
        let number = thumbnail ? { String(Int($0.rounded())) } : number
        var plain = "", clipped = ""
        for (index, column) in columns.enumerated() {
            let top = y + height / 2 * (1 - Double(max(-1, min(1, column.maximum))))
            let bottom = y + height / 2 * (1 - Double(max(-1, min(1, column.minimum))))
            let bar = "M\(number(x + (Double(index) + 0.5) * step)),\(number(top))V\(number(max(bottom, top + (thumbnail ? 1 : 0.5))))"
            if column.clipped { clipped += bar } else { plain += bar }
        }
        let stroke = number(max(1, step))
        var svg = ""
        if !plain.isEmpty { svg += "<path d=\"\(plain)\" stroke=\"\(colour)\" stroke-width=\"\(stroke)\"/>" }
        if !clipped.isEmpty { svg += "<path d=\"\(clipped)\" stroke=\"#d62728\" stroke-width=\"\(stroke)\"/>" }
        return svg
    }

    /// `count` frequencies spread evenly on a log scale from `lowest` to `highest` Hz.
    static func logFrequencies(count: Int, from lowest: Double = 20, to highest: Double = 20000) -> [Double] {
        (0..<count).map { lowest * pow(highest / lowest, Double($0) / Double(max(1, count - 1))) }
    }

    /// The level of `sketch`'s spectrum around each of `frequencies` (a log-spaced series), in dB:
    /// the mean power of the bins between the midpoints to its neighbours, or the nearest bin
    /// where they hold none; nil above the stream's Nyquist frequency or without a spectrum.
    static func levels(of sketch: SignalSketch, at frequencies: [Double]) -> [Double?] {
        let bins = sketch.spectrumDecibels
        guard bins.count > 1, sketch.binWidth > 0 else { return frequencies.map { _ in nil } }
        return frequencies.indices.map { index in
            let frequency = frequencies[index]
            guard frequency <= sketch.sampleRate / 2 else { return nil }
            let below = index > 0 ? (frequencies[index - 1] * frequency).squareRoot() : frequency
            let above = index + 1 < frequencies.count ? (frequencies[index + 1] * frequency).squareRoot() : frequency
            let first = Int((below / sketch.binWidth).rounded(.up)), last = Int((above / sketch.binWidth).rounded(.down))
            guard first <= last, first >= 0, last < bins.count else {
                return Double(bins[min(bins.count - 1, Int((frequency / sketch.binWidth).rounded()))])
            }
            let power = bins[first...last].reduce(0.0) { $0 + pow(10, Double($1) / 10) } / Double(last - first + 1)
            return 10 * log10(max(power, 1e-30))
        }
    }

    /// A polyline through the points that have a value, broken where one has none; a `thumbnail`
    /// in whole pixels.
    static func curve(_ points: [(x: Double, y: Double?)], colour: String, width: Double = 1.5, dashed: Bool = false,
                      thumbnail: Bool = false) -> String {
        let number = thumbnail ? { String(Int($0.rounded())) } : number
        var runs: [[String]] = [[]]
        for point in points {
            if let y = point.y { runs[runs.count - 1].append("\(number(point.x)),\(number(y))") } else if !runs[runs.count - 1].isEmpty { runs.append([]) }
        }
        return runs.filter { $0.count > 1 }.map { run in
            "<polyline fill=\"none\" stroke=\"\(colour)\" stroke-width=\"\(number(width))\"\(dashed ? " stroke-dasharray=\"5 3\"" : "") points=\"\(run.joined(separator: " "))\"/>"
        }.joined()
    }

    /// A coordinate to one decimal, without a trailing `.0`.
    static func number(_ value: Double) -> String {
        let tenths = Int((value * 10).rounded())
        return tenths % 10 == 0 ? String(tenths / 10) : (tenths < 0 && tenths > -10 ? "-0.\(-tenths)" : "\(tenths / 10).\(abs(tenths % 10))")
    }

    /// `text` escaped for XML and HTML text and attributes.
    static func escaped(_ text: String) -> String { JUnitReport.escaped(text) }
}
