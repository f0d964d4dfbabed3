#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The coefficients of one second-order IIR section, normalised so that a0 = 1.
///
/// H(z) = (b0 + b1 z⁻¹ + b2 z⁻²) / (1 + a1 z⁻¹ + a2 z⁻²). Designed in Double, for accuracy
/// at low frequencies and high sample rates.
public struct BiquadCoefficients: Equatable, Sendable {
    public var b0, b1, b2, a1, a2: Double

    public init(b0: Double, b1: Double, b2: Double, a1: Double, a2: Double) {
        self.b0 = b0
        self.b1 = b1
        self.b2 = b2
        self.a1 = a1
        self.a2 = a2
    }

    /// The section that passes everything unchanged.
    public static let identity = BiquadCoefficients(b0: 1, b1: 0, b2: 0, a1: 0, a2: 0)

    /// A peaking (bell) section from Robert Bristow-Johnson's Audio EQ Cookbook: `gain` dB at
    /// `frequency`, bandwidth set by `q`. Its response at `frequency` is exactly `gain`.
    public static func peaking(frequency: Double, gain: Double, q: Double, sampleRate: Double) throws(FilterDesignError) -> BiquadCoefficients {
        let shape = try PeakingShape(frequency: frequency, q: q, sampleRate: sampleRate)
        return shape.coefficients(amplitude: pow10(gain / 40))
    }

    /// The magnitude response at `frequency`, in dB.
    public func magnitude(at frequency: Double, sampleRate: Double) -> Double {
        let w = 2 * Double.pi * frequency / sampleRate
        let (c1, s1, c2, s2) = (cos(w), sin(w), cos(2 * w), sin(2 * w))
        let numeratorRe = b0 + b1 * c1 + b2 * c2, numeratorIm = -(b1 * s1 + b2 * s2)
        let denominatorRe = 1 + a1 * c1 + a2 * c2, denominatorIm = -(a1 * s1 + a2 * s2)
        let power = (numeratorRe * numeratorRe + numeratorIm * numeratorIm)
            / (denominatorRe * denominatorRe + denominatorIm * denominatorIm)
        return 10 * log10(power)
    }
}

/// The parts of a peaking section that do not depend on its gain, computed once per band so
/// that a gain ramp costs a few multiplications per update.
public struct PeakingShape: Equatable, Sendable {
    /// −2 cos ω₀, the b1 and a1 of every gain.
    let minusTwoCosine: Double
    /// sin ω₀ / 2Q.
    let alpha: Double

    /// The shape of a peaking section at `frequency` with bandwidth `q`; impossible settings
    /// (a frequency at or beyond Nyquist, a non-positive Q) are refused with a plain message.
    public init(frequency: Double, q: Double, sampleRate: Double) throws(FilterDesignError) {
        guard sampleRate.isFinite, sampleRate > 0 else { throw .invalidSampleRate(sampleRate) }
        guard frequency.isFinite, frequency > 0, frequency < sampleRate / 2 else {
            throw .frequencyOutOfRange(frequency: frequency, sampleRate: sampleRate)
        }
        guard q.isFinite, q > 0 else { throw .invalidQ(q) }
        let w0 = 2 * Double.pi * frequency / sampleRate
        minusTwoCosine = -2 * cos(w0)
        alpha = sin(w0) / (2 * q)
    }

    /// The section for linear amplitude `amplitude` = 10^(gain/40).
    @inline(__always)
    public func coefficients(amplitude: Double) -> BiquadCoefficients {
        let alphaTimesA = alpha * amplitude, alphaOverA = alpha / amplitude
        let inverseA0 = 1 / (1 + alphaOverA)
        return BiquadCoefficients(b0: (1 + alphaTimesA) * inverseA0, b1: minusTwoCosine * inverseA0,
                                  b2: (1 - alphaTimesA) * inverseA0, a1: minusTwoCosine * inverseA0,
                                  a2: (1 - alphaOverA) * inverseA0)
    }
}

/// A filter setting that cannot be realised.
public enum FilterDesignError: Error, Equatable, CustomStringConvertible {
    case invalidSampleRate(Double)
    case frequencyOutOfRange(frequency: Double, sampleRate: Double)
    case invalidQ(Double)
    case invalidWidth(FilterWidth)
    case invalidGain(Double)
    case unreachableGains(worstErrorDB: Double)

    public var description: String {
        switch self {
        case .invalidSampleRate(let rate): "sample rate \(rate) Hz is not usable for a filter"
        case .frequencyOutOfRange(let frequency, let rate):
            "a band at \(frequency) Hz must lie between 0 Hz and half the sample rate (\(rate / 2) Hz)"
        case .invalidQ(let q): "Q must be above 0, not \(q)"
        case .invalidWidth(.slope(let slope)): "a slope is a shelf's width, above 0 and at most 1, not \(slope)"
        case .invalidWidth(let width): "\(width.name) must be above 0, not \(width.value)"
        case .invalidGain(let gain): "gain \(gain) dB is out of range (-40 to 40 dB)"
        case .unreachableGains(let error):
            "the bands overlap too much to reach the preset's gains at their centres (off by \(error) dB); use the classic mode, which does not solve for them"
        }
    }
}

/// 10 to the power `exponent`: decibels to ratios.
@inline(__always)
public func pow10(_ exponent: Double) -> Double { pow(10, exponent) }
