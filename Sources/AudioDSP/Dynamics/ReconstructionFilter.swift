import CAudioKernels
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The 8× reconstruction a true-peak limiter holds under its ceiling: a stream interpolated to
/// eight points a sample by a filter flat to 0.45 of the rate (within +0.04/−0.01 dB) and
/// cut off at half of it, so every meter reads the limited stream's peaks no higher than it.
///
/// BS.1770-4's 4× filter (`TruePeakInterpolator(sampleRate:)`, libebur128's) rolls off above a
/// quarter of the rate and misses peaks between its points: on programme with energy near
/// Nyquist it under-reads by tenths of a dB, and a longer meter (FFmpeg's `ebur128`) finds the
/// ceiling broken. This filter is three halfband stages (`aurender_reconstructed_peaks`), each
/// the odd phase of a Kaiser-windowed sinc designed here, the same on every machine: 40 taps
/// from the samples to the half points (50 dB, the stage that sets the pass band), 8 to the
/// quarter points and 6 to the eighth points (60 dB each, where what they interpolate lies far
/// under their Nyquist). As one polyphase filter (`interpolator`) it is 7 phases of 44 taps.
public struct ReconstructionFilter: Sendable {
    /// Points per input sample.
    public static let factor = 8
    /// The half-point stage's taps, oldest first (symmetric).
    public let half: [Float]
    /// The quarter-point stage's taps, on the 2× stream.
    public let quarter: [Float]
    /// The eighth-point stage's taps, on the 4× stream.
    public let eighth: [Float]
    /// The same filter as one polyphase interpolator: phase p (1 to 7) is the point p/8 of a
    /// sample after newest[i − 22], from newest[i − 43] to newest[i].
    public let interpolator: TruePeakInterpolator

    /// Designs the three stages and their polyphase equivalent.
    public init() {
        half = Self.halfband(taps: 40, attenuation: 50)
        quarter = Self.halfband(taps: 8, attenuation: 60)
        eighth = Self.halfband(taps: 6, attenuation: 60)
        let reach = Int(AURENDER_RECONSTRUCTION_REACH), taps = 2 * reach
        let (h1, h2, h3) = (half.map(Double.init), quarter.map(Double.init), eighth.map(Double.init))
        let impulses = (0..<taps).map { tap in Self.points(h1, h2, h3) { $0 == tap - reach + 1 ? 1 : 0 } }
        let phases = (0..<Self.factor - 1).map { phase in impulses.map { Float($0[phase]) } }
        interpolator = TruePeakInterpolator(factor: Self.factor, tapsPerPhase: taps, delay: reach, phases: phases)
    }

    /// The stages as `aurender_reconstructed_peaks` reads them.
    public var stages: aurender_reconstruction {
        var stages = aurender_reconstruction()
        withUnsafeMutableBytes(of: &stages) { bytes in
            let floats = bytes.bindMemory(to: Float.self)
            for (index, value) in (half + quarter + eighth).enumerated() { floats[index] = value }
        }
        return stages
    }

    /// The odd phase of a halfband Kaiser-windowed sinc with `taps` taps there (even), summing to 1.
    static func halfband(taps: Int, attenuation: Double) -> [Float] {
        let window = kaiserWindow(length: 2 * taps + 1, beta: kaiserBeta(attenuation: attenuation))
        let row = (0..<taps).map { index in
            let offset = 2 * index - taps + 1, x = Double(offset) * .pi / 2
            return sin(x) / x * window[offset + taps]
        }
        let sum = row.reduce(0, +)
        return row.map { Float($0 / sum) }
    }

    /// The seven points between x(0) and x(1), in order, through the three stages as the kernel
    /// computes them (x read from −21 to 22).
    static func points(_ h1: [Double], _ h2: [Double], _ h3: [Double], _ x: (Int) -> Double) -> [Double] {
        func h(_ k: Int) -> Double { (0..<40).reduce(0) { $0 + h1[$1] * x(k - 19 + $1) } }
        func dot(_ c: [Double], _ values: [Double]) -> Double { zip(c, values).reduce(0) { $0 + $1.0 * $1.1 } }
        func early(_ k: Int) -> Double { dot(h2, [h(k - 2), x(k - 1), h(k - 1), x(k), h(k), x(k + 1), h(k + 1), x(k + 2)]) }
        func late(_ k: Int) -> Double { dot(h2, [x(k - 1), h(k - 1), x(k), h(k), x(k + 1), h(k + 1), x(k + 2), h(k + 2)]) }
        let stream = [h(-1), late(-1), x(0), early(0), h(0), late(0), x(1), early(1), h(1)]
        return [dot(h3, Array(stream[0..<6])), early(0), dot(h3, Array(stream[1..<7])), h(0),
                dot(h3, Array(stream[2..<8])), late(0), dot(h3, Array(stream[3..<9]))]
    }

    /// Kaiser's β for a stop band `attenuation` dB down.
    static func kaiserBeta(attenuation: Double) -> Double {
        switch attenuation {
        case 50...: 0.1102 * (attenuation - 8.7)
        case 21..<50: 0.5842 * pow(attenuation - 21, 0.4) + 0.07886 * (attenuation - 21)
        default: 0
        }
    }

    /// The Kaiser window of `length` points and shape `beta`.
    static func kaiserWindow(length: Int, beta: Double) -> [Double] {
        let scale = 1 / besselI0(beta)
        return (0..<length).map { index in
            let ratio = 2 * Double(index) / Double(length - 1) - 1
            return besselI0(beta * max(0, 1 - ratio * ratio).squareRoot()) * scale
        }
    }

    /// The modified Bessel function of the first kind, order 0, by its power series.
    static func besselI0(_ x: Double) -> Double {
        var sum = 1.0, term = 1.0, k = 1.0
        while term > 1e-17 * sum {
            term *= (x / (2 * k)) * (x / (2 * k))
            sum += term
            k += 1
        }
        return sum
    }
}
