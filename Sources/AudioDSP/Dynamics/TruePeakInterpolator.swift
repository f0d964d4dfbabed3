#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A polyphase oversampling filter that finds a stream's true peak: BS.1770-4's (Annex 2) as
/// libebur128 measures it (`init(sampleRate:)`), or the 8× reconstruction's polyphase
/// equivalent (`ReconstructionFilter.interpolator`), which says how far its points reach.
public struct TruePeakInterpolator: Sendable {
    /// Points per input sample (8, 4, 2 or 1).
    public let factor: Int
    /// Input samples each interpolated point reads.
    public let tapsPerPhase: Int
    /// How far an interpolated point lies behind the newest sample it reads, in samples: the
    /// points between samples n − delay and n − delay + 1 read samples up to n.
    public let delay: Int
    /// For each phase 1 ..< factor, `tapsPerPhase` coefficients, the oldest sample's first.
    public let phases: [[Float]]

    /// The full filter's length.
    public static let taps = 49

    /// A filter of `phases` (1 ..< factor), each `tapsPerPhase` coefficients, reading `delay` samples ahead.
    init(factor: Int, tapsPerPhase: Int, delay: Int, phases: [[Float]]) {
        self.factor = factor
        self.tapsPerPhase = tapsPerPhase
        self.delay = delay
        self.phases = phases
    }

    /// BS.1770-4's interpolator for a stream at `sampleRate`, as libebur128's: a 49-tap
    /// Hann-windowed sinc that interpolates 4 points a sample below 96 kHz, 2 below 192 kHz and
    /// none above. Its pass band rolls off above a quarter of the rate (at 4×: −0.4 dB at 0.4 of
    /// it, −2.2 dB at 0.45, −6 dB at 0.5), so it under-reads programme with energy near Nyquist.
    public init(sampleRate: Double) {
        factor = sampleRate < 96000 ? 4 : sampleRate < 192_000 ? 2 : 1
        delay = factor == 1 ? 0 : (Self.taps - 1) / 2 / factor
        tapsPerPhase = factor == 1 ? 1 : (Self.taps - 1) / factor
        var coefficients = [Double](repeating: 0, count: Self.taps)
        for tap in 0..<Self.taps {
            let offset = Double(tap) - Double(Self.taps - 1) / 2
            let sinc = abs(offset) < 1e-10 ? 1 : sin(offset * .pi / Double(factor)) / (offset * .pi / Double(factor))
            coefficients[tap] = sinc * 0.5 * (1 - cos(2 * .pi * Double(tap) / Double(Self.taps - 1)))
        }
        let (factor, taps) = (factor, tapsPerPhase)
        phases = (1..<max(factor, 1)).map { phase in
            (0..<taps).map { index in
                let tap = phase + (taps - 1 - index) * factor
                return tap < Self.taps ? Float(coefficients[tap]) : 0
            }
        }
    }
}
