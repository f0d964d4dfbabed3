import AudioDSP
import AudioGraph
import AudioNodes
import Foundation
import GraphTestSupport
import TestSupport
import Testing

@Suite struct FilterNodeTests {
    /// One row of `fixtures/sox-filters/responses.tsv`: SoX's measured response of a filter.
    struct SoXResponse: CustomTestStringConvertible, Sendable {
        let rate: Double
        let sox: String
        let filter: String
        let decibels: [Double]
        var testDescription: String { "\(filter) at \(Int(rate)) Hz (sox \(sox))" }
    }

    static let frequencies: [Double] = {
        let header = responseLines().first { $0.hasPrefix("rate\t") }!
        return header.split(separator: "\t").dropFirst(3).map { Double($0)! }
    }()

    static func responseLines() -> [String] {
        (try? String(contentsOfFile: fixture("sox-filters/responses.tsv"), encoding: .utf8))?
            .split(separator: "\n").map(String.init) ?? []
    }

    static let soxResponses: [SoXResponse] = responseLines().filter { !$0.hasPrefix("#") && !$0.hasPrefix("rate\t") }.map { line in
        let fields = line.split(separator: "\t").map(String.init)
        return SoXResponse(rate: Double(fields[0])!, sox: fields[1], filter: fields[2], decibels: fields.dropFirst(3).map { Double($0)! })
    }

    /// The magnitude in dB at `frequency` of `samples`, the response to an impulse of `amplitude`.
    static func magnitude(of samples: [Float], amplitude: Double, at frequency: Double, sampleRate: Double) -> Double {
        var real = 0.0, imaginary = 0.0
        let step = 2 * Double.pi * frequency / sampleRate
        for (index, sample) in samples.enumerated() {
            real += Double(sample) * cos(step * Double(index))
            imaginary -= Double(sample) * sin(step * Double(index))
        }
        return 10 * log10((real * real + imaginary * imaginary) / (amplitude * amplitude))
    }

    static func impulseResponse(_ bands: [FilterNode.Band], sampleRate: Double, frames: Int = 65536, sliceSize: Int = 4096) throws -> [Float] {
        var impulse = [Float](repeating: 0, count: frames)
        impulse[0] = 0.25
        return try NodeHarness(node: FilterNode(bands: bands), channels: [impulse], sampleRate: sampleRate).render(sliceSize: sliceSize)[0]
    }

    @Test func theFixtureHoldsEveryShapeOfFilter() {
        #expect(Self.frequencies.count == 31 && Self.frequencies.first == 20 && Self.frequencies.last == 20000)
        let shapes = Set(Self.soxResponses.compactMap { try? FilterNode.Band(parsing: $0.filter).shape })
        #expect(shapes == Set(FilterShape.allCases))
    }

    /// SoX carries samples as 32-bit integers, so its measured response is exact only down to
    /// about 90 dB under the impulse; deeper points are held to the cookbook's exact magnitude,
    /// and to SoX's within 1 dB.
    static let soxPrecisionFloor = -90.0

    @Test(arguments: soxResponses)
    func theResponseIsWithinFiveHundredthsOfADecibelOfSoXs(reference: SoXResponse) throws {
        let band = try FilterNode.Band(parsing: reference.filter)
        let response = try Self.impulseResponse([band], sampleRate: reference.rate)
        let exact = try BiquadCoefficients.design(band.shape, frequency: band.frequency, gain: band.gain, width: band.width, sampleRate: reference.rate)
        #expect(response.count == 65536)
        for (frequency, sox) in zip(Self.frequencies, reference.decibels) {
            let measured = Self.magnitude(of: response, amplitude: 0.25, at: frequency, sampleRate: reference.rate)
            if sox > Self.soxPrecisionFloor {
                #expect(abs(measured - sox) <= 0.05, "\(reference.filter) at \(frequency) Hz: \(measured) dB, SoX \(sox) dB")
            } else {
                #expect(abs(measured - exact.magnitude(at: frequency, sampleRate: reference.rate)) <= 0.05)
                #expect(abs(measured - sox) <= 1, "\(reference.filter) at \(frequency) Hz: \(measured) dB, SoX \(sox) dB")
            }
        }
    }

    @Test func bandsRunInSeriesSoTheirResponsesAdd() throws {
        let bands = [try FilterNode.Band(parsing: "highpass@80"), try FilterNode.Band(parsing: "peak@1000:6:1")]
        let both = try Self.impulseResponse(bands, sampleRate: 44100)
        for frequency in [40.0, 80, 1000, 5000] {
            let sum = try bands.map { Self.magnitude(of: try Self.impulseResponse([$0], sampleRate: 44100), amplitude: 0.25, at: frequency, sampleRate: 44100) }
                .reduce(0, +)
            #expect(abs(Self.magnitude(of: both, amplitude: 0.25, at: frequency, sampleRate: 44100) - sum) < 0.01)
        }
    }

    @Test func theSliceSizeDoesNotChangeTheOutput() throws {
        let signal = [Signal.noise(frames: 20000, amplitude: 0.3), Signal.noise(frames: 20000, amplitude: 0.3, seed: 7),
                      Signal.sine(frequency: 300, sampleRate: 48000, frames: 20000)]
        let bands = [FilterNode.Band(.highpass, frequency: 120, width: .q(2)), FilterNode.Band(.highshelf, frequency: 6000, gain: -5)]
        let whole = try NodeHarness(node: FilterNode(bands: bands), channels: signal, sampleRate: 48000).render(sliceSize: 4096)
        for slice in [1, 37, 1000] {
            #expect(try NodeHarness(node: FilterNode(bands: bands), channels: signal, sampleRate: 48000, maximumFrames: 4096)
                .render(sliceSize: slice) == whole)
        }
    }

    @Test func aBypassedBandPassesTheSignalUntouchedAndEventsCanMoveABand() throws {
        let signal = [Signal.noise(frames: 8192, amplitude: 0.3)]
        let node = FilterNode(bands: [FilterNode.Band(.peak, frequency: 1000, gain: 12, bypassed: true)])
        #expect(try NodeHarness(node: node, channels: signal).render() == signal)
        let moved = FilterNode(bands: [FilterNode.Band(.peak, frequency: 1000, gain: 6)])
        try moved.setParameter(named: "frequency[0]", 4000)
        try moved.setParameter(named: "gain[0]", -9)
        #expect(moved.band(0) == FilterNode.Band(.peak, frequency: 4000, gain: -9))
        var impulse = [Float](repeating: 0, count: 16384)
        impulse[0] = 0.25
        let response = try NodeHarness(node: moved, channels: [impulse]).render()[0]
        #expect(abs(Self.magnitude(of: response, amplitude: 0.25, at: 4000, sampleRate: 44100) + 9) < 0.01)
        #expect(abs(Self.magnitude(of: response, amplitude: 0.25, at: 1000, sampleRate: 44100)) < 0.5)
    }

    @Test func renderingAllocatesNothing() throws {
        let signal = [Signal.noise(frames: 30000, amplitude: 0.3), Signal.noise(frames: 30000, amplitude: 0.3, seed: 3)]
        let (allocations, slices) = try steadyStateAllocations(sliceSize: 512) {
            try NodeHarness(node: FilterNode(bands: [FilterNode.Band(.lowpass, frequency: 5000), FilterNode.Band(.lowshelf, frequency: 100, gain: 6)]),
                            channels: signal)
        }
        #expect(slices > 20)
        #expect(allocations == 0)
    }

    @Test func aBandAtOrAboveHalfTheRateIsRefusedNamingTheBand() throws {
        let node = FilterNode(name: "tone", bands: [FilterNode.Band(.peak, frequency: 1000, gain: 3), FilterNode.Band(.lowpass, frequency: 30000)])
        let refusal = FilterError(node: "tone", band: 1, summary: "lowpass 30000 Hz q 0.707",
                                  reason: .frequencyOutOfRange(frequency: 30000, sampleRate: 44100))
        #expect(throws: refusal) { try NodeHarness(node: node, channels: [[0, 0]]) }
        #expect("\(refusal)" == "filter 'tone': band 1 (lowpass 30000 Hz q 0.707): a band at 30000.0 Hz must lie between 0 Hz and half the sample rate (22050.0 Hz)")
    }

    @Test(arguments: [
        ("peak@1k:+6:2o", FilterNode.Band(.peak, frequency: 1000, gain: 6, width: .octaves(2))),
        ("HighPass@80Hz", FilterNode.Band(.highpass, frequency: 80)),
        ("lowshelf@120:-3:0.8s", FilterNode.Band(.lowshelf, frequency: 120, gain: -3, width: .slope(0.8))),
        ("bandstop@50:8q", FilterNode.Band(.bandstop, frequency: 50, width: .q(8))),
        ("highshelf@8k", FilterNode.Band(.highshelf, frequency: 8000)),
    ])
    func theWrittenFormParses(text: String, band: FilterNode.Band) throws {
        #expect(try FilterNode.Band(parsing: text) == band)
    }

    @Test(arguments: [
        ("notch@50", "'notch@50': not TYPE@HZ[:GAIN][:WIDTH] with TYPE one of peak, lowpass, highpass, lowshelf, highshelf, bandpass, bandstop"),
        ("highpass@80:6:1", "'highpass@80:6:1': a highpass takes HZ[:WIDTH] (it has no gain)"),
        ("peak@1000:50", "'peak@1000:50': the gain must be from -40 to 40 dB, not 50"),
        ("peak@loud", "'peak@loud': the frequency 'loud' is not a number"),
        ("peak@1000:3:0.5s", "'peak@1000:3:0.5s': only shelves take a slope (s); give a Q or octaves (o)"),
        ("lowpass@1000:0", "'lowpass@1000:0': the Q must be from 0.01 to 100, not 0"),
    ])
    func aWrongWrittenFormSaysWhatIsWrong(text: String, message: String) {
        #expect(throws: (any Error).self) { try FilterNode.Band(parsing: text) }
        do { _ = try FilterNode.Band(parsing: text) } catch { #expect(error.description == message) }
    }
}
