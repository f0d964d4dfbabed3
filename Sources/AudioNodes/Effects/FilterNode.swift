import AudioDSP
import AudioGraph

/// A bank of second-order filters in series, each a band of `AVAudioUnitEQ`'s kinds (peak,
/// low- and high-pass with resonance, shelves, band-pass, band-stop) designed as SoX designs
/// its biquads: what `--highpass`, `--bass`, `--filter` and the graph files' `filter` node make.
///
/// Every band has its frequency, gain, width and bypass as parameters, so events can move
/// them; a change takes effect from the next slice, the filters keeping their state. A band
/// whose frequency an event moves to or past half the sample rate is held just below it.
public final class FilterNode: AudioNode {
    /// One band: its shape, frequency, gain (for peaks and shelves), width and bypass.
    public struct Band: Equatable, Sendable {
        public var shape: FilterShape
        public var frequency: Double
        public var gain: Double
        public var width: FilterWidth
        public var bypassed: Bool

        /// A band of `shape` at `frequency` Hz; the width defaults to the shape's standard one.
        public init(_ shape: FilterShape, frequency: Double, gain: Double = 0, width: FilterWidth? = nil, bypassed: Bool = false) {
            self.shape = shape
            self.frequency = frequency
            self.gain = gain
            self.width = width ?? .standard(for: shape)
            self.bypassed = bypassed
        }

        /// The band as a plan prints it: `highpass 80 Hz q 0.707`.
        public var summary: String {
            let gainText = shape.takesGain ? " \(FilterNode.describe(gain, unit: .decibels))" : ""
            return "\(shape.rawValue) \(FilterNode.describe(frequency, unit: .hertz))\(gainText) \(width.name) "
                + FilterNode.describe(width.value, unit: .linear) + (bypassed ? " (bypassed)" : "")
        }
    }

    /// A band's parameters; `id(_:band:)` gives the parameter number.
    public enum BandParameter: Int, CaseIterable, Sendable {
        case frequency, gain, width, bypass
    }

    /// The parameter number of `parameter` of band `band` (four a band).
    public static func id(_ parameter: BandParameter, band: Int) -> ParameterID {
        band * BandParameter.allCases.count + parameter.rawValue
    }

    /// The frequencies a band takes, in Hz; above half the sample rate is refused when the
    /// filter is initialized.
    public static let frequencyRange: ClosedRange<Float> = 1...384_000
    /// The gains a band takes, in dB.
    public static let gainRange: ClosedRange<Float> = -40...40

    /// The widths each kind of width takes.
    public static func widthRange(_ width: FilterWidth) -> ClosedRange<Float> {
        switch width {
        case .q: 0.01...100
        case .octaves: 0.01...10
        case .slope: 0.01...1
        }
    }

    /// The bands as made; `band(_:)` gives them with their parameters' current values.
    public let initialBands: [Band]
    private var cascade: BiquadCascade?
    private var sampleRate = 0.0

    /// A filter bank of `bands`, in series in the order given; each band's values are its
    /// parameters' defaults, and a band that cannot be designed is refused at initialize.
    public init(name: String = "filter", bands: [Band]) {
        initialBands = bands
        super.init(name: name, inputBusCount: 1, outputBusCount: 1)
    }

    public override var parameterDescriptions: [ParameterDescription] {
        initialBands.enumerated().flatMap { index, band in
            [ParameterDescription(id: Self.id(.frequency, band: index), name: "frequency[\(index)]", range: Self.frequencyRange,
                                  defaultValue: Float(band.frequency), unit: .hertz),
             ParameterDescription(id: Self.id(.gain, band: index), name: "gain[\(index)]", range: Self.gainRange,
                                  defaultValue: Float(band.gain), unit: .decibels),
             ParameterDescription(id: Self.id(.width, band: index), name: "\(band.width.name)[\(index)]",
                                  range: Self.widthRange(band.width), defaultValue: Float(band.width.value), unit: .linear),
             .boolean(id: Self.id(.bypass, band: index), name: "bypass[\(index)]", defaultValue: band.bypassed)]
        }
    }

    /// Band `index` as its parameters stand now.
    public func band(_ index: Int) -> Band {
        var band = initialBands[index]
        band.frequency = Double(parameter(Self.id(.frequency, band: index)))
        band.gain = Double(parameter(Self.id(.gain, band: index)))
        band.width = band.width.with(Double(parameter(Self.id(.width, band: index))))
        band.bypassed = parameter(Self.id(.bypass, band: index)) != 0
        return band
    }

    public override var planDetail: String? {
        initialBands.indices.map { band($0).summary }.joined(separator: ", ")
    }

    public override func allocateRenderResources() throws {
        guard let format = streamFormat(scope: .input, bus: 0) else { return }
        sampleRate = format.sampleRate
        for description in parameterDescriptions where !description.accepts(parameter(description.id)) {
            throw GraphError.parameterOutOfRange(node: name, name: description.name, value: parameter(description.id), range: description.range)
        }
        for index in initialBands.indices {
            let band = band(index)
            do throws(FilterDesignError) {
                _ = try BiquadCoefficients.design(band.shape, frequency: band.frequency, gain: band.gain, width: band.width,
                                                  sampleRate: sampleRate)
            } catch {
                throw FilterError(node: name, band: index, summary: band.summary, reason: error)
            }
        }
        cascade = BiquadCascade(sectionCapacity: initialBands.count, channelCount: format.channelCount)
        applyBands()
    }

    public override func deallocateRenderResources() {
        cascade = nil
    }

    public override func reset() throws {
        cascade?.reset()
    }

    public override func parameterDidChange(_ id: ParameterID) {
        applyBands()
    }

    /// Designs every band from its parameters and runs the ones not bypassed.
    private func applyBands() {
        guard let cascade else { return }
        for index in initialBands.indices {
            let band = band(index)
            let frequency = min(band.frequency, sampleRate * 0.4999)
            let coefficients = (try? BiquadCoefficients.design(band.shape, frequency: frequency, gain: band.gain, width: band.width,
                                                               sampleRate: sampleRate)) ?? .identity
            cascade.setCoefficients(coefficients, section: index)
        }
        cascade.setActiveSections { parameter(Self.id(.bypass, band: $0)) == 0 }
    }

    public override func render(_ flags: inout RenderActionFlags, _ request: RenderRequest, _ output: AudioBufferList) throws -> Int {
        let frames = try pullInput(bus: 0, &flags, request, into: output)
        guard let cascade, cascade.activeCount > 0 else { return frames }
        cascade.process(output, frames: frames)
        return frames
    }

    static func describe(_ value: Double, unit: ParameterUnit) -> String {
        ParameterDescription(id: 0, name: "", range: -.infinity...(.infinity), defaultValue: 0, unit: unit).describe(Float(value))
    }
}

/// A filter band that cannot be designed: the node, the band and why.
public struct FilterError: Error, Equatable, CustomStringConvertible {
    public let node: String
    public let band: Int
    /// The band as a plan prints it.
    public let summary: String
    public let reason: FilterDesignError

    public init(node: String, band: Int, summary: String, reason: FilterDesignError) {
        self.node = node
        self.band = band
        self.summary = summary
        self.reason = reason
    }

    public var description: String { "filter '\(node)': band \(band) (\(summary)): \(reason)" }
}

extension FilterNode {
    /// Band N's parameters, as the kind lists them; the bands' settings take what they take.
    private static let bandParameters: [ParameterDescription] = [
        ParameterDescription(id: id(.frequency, band: 0), name: "frequency[N]", range: frequencyRange, defaultValue: 1000, unit: .hertz),
        ParameterDescription(id: id(.gain, band: 0), name: "gain[N]", range: gainRange, defaultValue: 0, unit: .decibels),
        ParameterDescription(id: id(.width, band: 0), name: "q[N]", range: widthRange(.q(1)), defaultValue: 1, unit: .linear),
        ParameterDescription(id: id(.width, band: 0), name: "bandwidth[N]", range: widthRange(.octaves(1)), defaultValue: 1, unit: .linear),
        ParameterDescription(id: id(.width, band: 0), name: "slope[N]", range: widthRange(.slope(1)), defaultValue: 0.5, unit: .linear),
        .boolean(id: id(.bypass, band: 0), name: "bypass[N]", defaultValue: false),
    ]

    private static func bandParameter(_ name: String) -> ParameterDescription { bandParameters.first { $0.name == "\(name)[N]" }! }

    /// The filter bank as a catalogued node kind: a list of bands, each with its shape,
    /// frequency, gain and width as settings and parameters.
    public static let kind = NodeKind(
        name: "filter", summary: "second-order filters in series: peak, low/high-pass, shelves, band-pass, band-stop (the RBJ cookbook, as SoX)",
        settings: [
            SettingDescription("bands", .list([
                SettingDescription("type", .choice(FilterShape.allCases.map(\.rawValue)), "the band's shape", required: true),
                SettingDescription("frequency", as: bandParameter("frequency"), "its centre or corner frequency", required: true),
                SettingDescription("gain", as: bandParameter("gain"), "its gain, for peaks and shelves (default 0 dB)"),
                SettingDescription("q", as: bandParameter("q"), "its width as Q (default: 0.707 for low/high-pass)"),
                SettingDescription("bandwidth", as: bandParameter("bandwidth"), "its width in octaves (default 1 for peaks, band-pass and band-stop)"),
                SettingDescription("slope", as: bandParameter("slope"), "a shelf's slope (default 0.5, as SoX's bass and treble)"),
                SettingDescription("bypass", as: bandParameter("bypass"), "pass the band by (default false)"),
            ]), "the bands, in series in this order", required: true),
        ],
        parameters: bandParameters,
        make: { name, settings, _ in
            let bands = try settings.list("bands").enumerated().map { index, fields in
                let shape = FilterShape(rawValue: fields.text("type")!)!
                let widths: [FilterWidth] = [fields.number("q").map(FilterWidth.q), fields.number("bandwidth").map(FilterWidth.octaves),
                                             fields.number("slope").map(FilterWidth.slope)].compactMap { $0 }
                guard widths.count <= 1 else {
                    throw NodeSettingError(node: name, kind: "filter", field: "bands[\(index)]", problem: "give one of q, bandwidth and slope")
                }
                if case .slope? = widths.first, !shape.isShelf {
                    throw NodeSettingError(node: name, kind: "filter", field: "bands[\(index)].slope", problem: "only shelves take a slope; give q or bandwidth")
                }
                if fields.number("gain") != nil, !shape.takesGain {
                    throw NodeSettingError(node: name, kind: "filter", field: "bands[\(index)].gain",
                                           problem: "a \(shape.rawValue) has no gain (peaks and shelves have)")
                }
                return Band(shape, frequency: fields.number("frequency")!, gain: fields.number("gain") ?? 0, width: widths.first,
                            bypassed: fields.flag("bypass") ?? false)
            }
            guard !bands.isEmpty else { throw NodeSettingError(node: name, kind: "filter", field: "bands", problem: "must list at least one band") }
            return FilterNode(name: name, bands: bands)
        })
}

extension FilterNode: FrequencyResponding {
    /// The sum of the bands' responses at their current settings (bypassed bands give 0 dB).
    public func responseDecibels(at frequency: Double) -> Double {
        initialBands.indices.reduce(0) { total, index in
            let band = band(index)
            guard !band.bypassed, let coefficients = try? BiquadCoefficients.design(band.shape, frequency: band.frequency, gain: band.gain,
                                                                                    width: band.width, sampleRate: sampleRate) else { return total }
            return total + coefficients.magnitude(at: frequency, sampleRate: sampleRate)
        }
    }
}
