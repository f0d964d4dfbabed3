import AudioGraph
import SignalAnalysis
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What a render looked like, for a report's pictures: each input as it was read, the output as
/// it was written, and the response its processing was designed to have.
public struct RenderSketches: Sendable {
    /// One input's sketch, as the input was decoded (before any conversion).
    public struct Input: Sendable {
        /// The input, as named.
        public var input: String
        public var sketch: SignalSketch
    }

    /// A point of a designed frequency response.
    public struct ResponsePoint: Sendable, Equatable {
        public var frequency: Double
        public var decibels: Double
    }

    /// The inputs, in the order the graph reads them.
    public var inputs: [Input]
    /// The output, before quantization.
    public var output: SignalSketch
    /// The designed response of the nodes between the input and the output that have one (EQs,
    /// filters, gains; `FrequencyResponding`), summed, from 20 Hz to 20 kHz or the output's
    /// Nyquist frequency; empty when none has one. For a mix, only the nodes after the mixer count,
    /// as each input's own would draw a different curve.
    public var response: [ResponsePoint]

    /// Points of a designed response per decade of frequency.
    static let pointsPerDecade = 80

    /// The summed response of `nodes` at log-spaced frequencies below `sampleRate`'s Nyquist
    /// frequency; empty when none of them responds.
    static func designedResponse(of nodes: [AudioNode], sampleRate: Double) -> [ResponsePoint] {
        let responders = nodes.compactMap { $0 as? FrequencyResponding }
        guard !responders.isEmpty else { return [] }
        let highest = min(20000, 0.49 * sampleRate)
        let count = Int((log10(highest / 20) * Double(pointsPerDecade)).rounded(.down))
        return (0...count).map { step in
            let frequency = 20 * pow(10, Double(step) / Double(pointsPerDecade))
            return ResponsePoint(frequency: frequency, decibels: responders.reduce(0) { $0 + $1.responseDecibels(at: frequency) })
        }
    }
}
