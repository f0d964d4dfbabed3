import Aurender
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An SVG drawing of EQ presets' magnitude responses: log frequency from 20 Hz to 20 kHz,
/// a dB grid, a legend, and each preset's nominal gains marked at the band centres.
struct ResponsePlot {
    let presets: [EQPreset]
    let mode: GraphicEQDesign.Mode
    let sampleRate: Double

    private let width = 760.0, height = 420.0
    private let left = 56.0, right = 180.0, top = 24.0, bottom = 44.0
    private let lowest = 20.0, highest = 20000.0
    private static let colours = ["#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf"]

    /// The SVG document; throws if a preset cannot be designed at the plot's sample rate.
    func svg() throws -> String {
        let curves = try presets.map { preset throws in
            let gains = try GraphicEQDesign.sectionGains(for: preset.gains, bands: preset.bands, sampleRate: sampleRate, mode: mode)
            return (0...300).map { step -> (Double, Double) in
                let frequency = lowest * pow10(3 * Double(step) / 300)
                let response = GraphicEQDesign.cascadeMagnitude(sectionGains: gains, bands: preset.bands, at: frequency,
                                                                sampleRate: sampleRate)
                return (frequency, response + preset.preamp)
            }
        }
        let extreme = max(6, (curves.flatMap { $0.map { abs($0.1) } } + presets.flatMap { $0.gains.map(abs) }).max() ?? 6)
        let range = (extreme / 3).rounded(.up) * 3
        func x(_ frequency: Double) -> Double { left + (width - left - right) * log10(frequency / lowest) / 3 }
        func y(_ decibels: Double) -> Double { top + (height - top - bottom) * (range - decibels) / (2 * range) }
        func number(_ value: Double) -> String { String(Double((value * 10).rounded()) / 10) }

        var svg = """
            <svg xmlns="http://www.w3.org/2000/svg" width="\(Int(width))" height="\(Int(height))" \
            viewBox="0 0 \(Int(width)) \(Int(height))" font-family="sans-serif" font-size="11">
            <rect width="100%" height="100%" fill="white"/>

            """
        for frequency in [20.0, 50, 100, 200, 500, 1000, 2000, 5000, 10000, 20000] {
            let label = frequency >= 1000 ? "\(Int(frequency / 1000))k" : "\(Int(frequency))"
            svg += "<line x1=\"\(number(x(frequency)))\" y1=\"\(top)\" x2=\"\(number(x(frequency)))\" y2=\"\(height - bottom)\" stroke=\"#ddd\"/>\n"
            svg += "<text x=\"\(number(x(frequency)))\" y=\"\(height - bottom + 16)\" text-anchor=\"middle\">\(label)</text>\n"
        }
        for decibels in stride(from: -range, through: range, by: 3) {
            let colour = decibels == 0 ? "#999" : "#ddd"
            svg += "<line x1=\"\(left)\" y1=\"\(number(y(decibels)))\" x2=\"\(width - right)\" y2=\"\(number(y(decibels)))\" stroke=\"\(colour)\"/>\n"
            svg += "<text x=\"\(left - 6)\" y=\"\(number(y(decibels) + 4))\" text-anchor=\"end\">\(Int(decibels))</text>\n"
        }
        svg += "<text x=\"\((left + width - right) / 2)\" y=\"\(height - 8)\" text-anchor=\"middle\">Frequency (Hz)</text>\n"
        svg += "<text x=\"14\" y=\"\((top + height - bottom) / 2)\" text-anchor=\"middle\" transform=\"rotate(-90 14 \((top + height - bottom) / 2))\">Gain (dB)</text>\n"
        for (index, (preset, curve)) in zip(presets, curves).enumerated() {
            let colour = Self.colours[index % Self.colours.count]
            let points = curve.map { "\(number(x($0.0))),\(number(y($0.1)))" }.joined(separator: " ")
            svg += "<polyline fill=\"none\" stroke=\"\(colour)\" stroke-width=\"1.8\" points=\"\(points)\"/>\n"
            for (band, gain) in zip(preset.bands, preset.gains) where band.frequency >= lowest && band.frequency <= highest {
                svg += "<circle cx=\"\(number(x(band.frequency)))\" cy=\"\(number(y(gain + preset.preamp)))\" r=\"3\" fill=\"\(colour)\"/>\n"
            }
            let legendY = top + 10 + Double(index) * 18
            svg += "<line x1=\"\(width - right + 14)\" y1=\"\(legendY)\" x2=\"\(width - right + 34)\" y2=\"\(legendY)\" stroke=\"\(colour)\" stroke-width=\"2\"/>\n"
            svg += "<text x=\"\(width - right + 40)\" y=\"\(legendY + 4)\">\(escaped(preset.name))</text>\n"
        }
        svg += "<text x=\"\(left)\" y=\"\(top - 8)\">\(mode.rawValue) design at \(Int(sampleRate)) Hz; dots: the presets' gains at the band centres</text>\n"
        return svg + "</svg>\n"
    }

    private func escaped(_ text: String) -> String {
        text.map { $0 == "&" ? "&amp;" : $0 == "<" ? "&lt;" : String($0) }.joined()
    }
}
