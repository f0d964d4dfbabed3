import AudioDSP

extension FilterNode.Band {
    /// The written form of a band, `TYPE@HZ[:GAIN][:WIDTH]`, as the command line takes it.
    public static let syntax = "TYPE@HZ[:GAIN][:WIDTH]"

    /// Parses `peak@1000:6:1.4`, `highpass@80`, `lowshelf@120:+4:0.8s` or `bandstop@50:8`: a
    /// shape, its frequency (`1k`, `1kHz` too), a gain for peaks and shelves, and a width as Q,
    /// or with a suffix in octaves (`2o`) or as a shelf's slope (`0.5s`), as SoX writes widths.
    /// Values out of the node's ranges are refused; the error says which part is wrong.
    public init(parsing text: String) throws(FilterSyntaxError) {
        let parts = text.split(separator: "@", maxSplits: 1).map(String.init)
        guard parts.count == 2, let shape = FilterShape(rawValue: parts[0].lowercased()) else {
            throw FilterSyntaxError(text, "not \(Self.syntax) with TYPE one of \(FilterShape.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        let fields = parts[1].split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        guard fields.count <= (shape.takesGain ? 3 : 2) else {
            throw FilterSyntaxError(text, "a \(shape.rawValue) takes " + (shape.takesGain ? "HZ[:GAIN][:WIDTH]" : "HZ[:WIDTH] (it has no gain)"))
        }
        let frequency = try Self.value(fields[0], of: text, named: "frequency", parse: ValueSyntax.hertz, in: FilterNode.frequencyRange, unit: " Hz")
        var gain = 0.0
        var width: FilterWidth?
        if fields.count > 1 {
            if shape.takesGain {
                gain = try Self.value(fields[1], of: text, named: "gain", parse: ValueSyntax.level, in: FilterNode.gainRange, unit: " dB")
            }
            if let written = shape.takesGain ? (fields.count > 2 ? fields[2] : nil) : fields[1] {
                width = try Self.width(written, of: text, shape: shape)
            }
        }
        self.init(shape, frequency: frequency, gain: gain, width: width)
    }

    /// A width: a Q, or octaves (`2o`), or a shelf's slope (`0.5s`).
    private static func width(_ written: String, of text: String, shape: FilterShape) throws(FilterSyntaxError) -> FilterWidth {
        let lowered = written.lowercased()
        let make: (Double) -> FilterWidth
        var number = Substring(lowered)
        switch lowered.last {
        case "o"?: make = FilterWidth.octaves; number = number.dropLast()
        case "s"?:
            guard shape.isShelf else { throw FilterSyntaxError(text, "only shelves take a slope (s); give a Q or octaves (o)") }
            make = FilterWidth.slope; number = number.dropLast()
        case "q"?: make = FilterWidth.q; number = number.dropLast()
        default: make = FilterWidth.q
        }
        let kind = make(1)
        let value = try Self.value(String(number), of: text, named: kind.name == "q" ? "Q" : kind.name, parse: { Double($0) },
                                   in: FilterNode.widthRange(kind), unit: kind.name == "bandwidth" ? " octaves" : "")
        return make(value)
    }

    private static func value(_ written: String, of text: String, named name: String, parse: (String) -> Double?,
                              in range: ClosedRange<Float>, unit: String) throws(FilterSyntaxError) -> Double {
        guard let value = parse(written), value.isFinite else { throw FilterSyntaxError(text, "the \(name) '\(written)' is not a number") }
        guard range.contains(Float(value)) else {
            throw FilterSyntaxError(text, "the \(name) must be from \(FilterNode.describe(Double(range.lowerBound), unit: .linear)) "
                                    + "to \(FilterNode.describe(Double(range.upperBound), unit: .linear))\(unit), not \(written)")
        }
        return value
    }
}

/// A filter band written wrongly: the text and what is wrong with it.
public struct FilterSyntaxError: Error, Equatable, CustomStringConvertible {
    public let text: String
    public let problem: String

    public init(_ text: String, _ problem: String) {
        self.text = text
        self.problem = problem
    }

    public var description: String { "'\(text)': \(problem)" }
}
