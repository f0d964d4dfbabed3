#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The second-order filter shapes of Robert Bristow-Johnson's Audio EQ Cookbook, as SoX's
/// `biquad` family and `AVAudioUnitEQ`'s filter types offer them.
public enum FilterShape: String, CaseIterable, Sendable {
    /// A bell around the frequency (SoX `equalizer`, Apple's parametric).
    case peak
    /// Passes what is below the frequency, with resonance set by Q.
    case lowpass
    /// Passes what is above the frequency, with resonance set by Q.
    case highpass
    /// Lifts or cuts what is below the frequency (SoX `bass`).
    case lowshelf
    /// Lifts or cuts what is above the frequency (SoX `treble`).
    case highshelf
    /// Passes a band around the frequency at 0 dB (SoX `bandpass` without `-c`).
    case bandpass
    /// Removes a band around the frequency (SoX `bandreject`, a notch).
    case bandstop

    /// Whether the shape has a gain (peaks and shelves).
    public var takesGain: Bool { self == .peak || self == .lowshelf || self == .highshelf }

    /// Whether the shape is a shelf, whose width may be a slope.
    public var isShelf: Bool { self == .lowshelf || self == .highshelf }
}

/// How wide a filter is, in one of the three ways SoX and the cookbook state it.
public enum FilterWidth: Equatable, Sendable {
    /// The quality factor Q.
    case q(Double)
    /// The bandwidth in octaves (between the −3 dB points of a band-pass, the midpoint gains
    /// of a peak), measured on the digital frequency axis as SoX does.
    case octaves(Double)
    /// A shelf's slope S: 1 is the steepest without a bump, SoX's default is 0.5.
    case slope(Double)

    /// The width's kind, as graph files and parameters name it.
    public var name: String {
        switch self {
        case .q: "q"
        case .octaves: "bandwidth"
        case .slope: "slope"
        }
    }

    /// The number itself.
    public var value: Double {
        switch self {
        case .q(let value), .octaves(let value), .slope(let value): value
        }
    }

    /// The same kind of width with another value.
    public func with(_ value: Double) -> FilterWidth {
        switch self {
        case .q: .q(value)
        case .octaves: .octaves(value)
        case .slope: .slope(value)
        }
    }

    /// The width the shape has unless one is given: Butterworth (Q = 1/√2) for low- and
    /// high-pass, a slope of 0.5 for shelves (SoX's `bass` and `treble`), one octave otherwise.
    public static func standard(for shape: FilterShape) -> FilterWidth {
        switch shape {
        case .lowpass, .highpass: .q(0.5.squareRoot())
        case .lowshelf, .highshelf: .slope(0.5)
        case .peak, .bandpass, .bandstop: .octaves(1)
        }
    }
}

extension BiquadCoefficients {
    /// The cookbook section of `shape` at `frequency` Hz with `gain` dB (ignored by shapes
    /// without a gain) and `width`, computed as SoX computes its biquads, so the two agree to
    /// within rounding.
    public static func design(_ shape: FilterShape, frequency: Double, gain: Double, width: FilterWidth,
                              sampleRate: Double) throws(FilterDesignError) -> BiquadCoefficients {
        guard sampleRate.isFinite, sampleRate > 0 else { throw .invalidSampleRate(sampleRate) }
        guard frequency.isFinite, frequency > 0, frequency < sampleRate / 2 else {
            throw .frequencyOutOfRange(frequency: frequency, sampleRate: sampleRate)
        }
        guard width.value.isFinite, width.value > 0 else { throw .invalidWidth(width) }
        if case .slope(let slope) = width, !shape.isShelf || slope > 1 { throw .invalidWidth(width) }
        let w0 = 2 * Double.pi * frequency / sampleRate
        let (cosine, sine) = (cos(w0), sin(w0))
        let amplitude = pow10(gain / 40)
        let alpha: Double
        switch width {
        case .q(let q): alpha = sine / (2 * q)
        case .octaves(let octaves): alpha = sine * sinh(log(2) / 2 * octaves * w0 / sine)
        case .slope(let slope): alpha = sine / 2 * ((amplitude + 1 / amplitude) * (1 / slope - 1) + 2).squareRoot()
        }
        let b0, b1, b2, a0, a1, a2: Double
        switch shape {
        case .peak:
            (b0, b1, b2) = (1 + alpha * amplitude, -2 * cosine, 1 - alpha * amplitude)
            (a0, a1, a2) = (1 + alpha / amplitude, -2 * cosine, 1 - alpha / amplitude)
        case .lowpass:
            (b0, b1, b2) = ((1 - cosine) / 2, 1 - cosine, (1 - cosine) / 2)
            (a0, a1, a2) = (1 + alpha, -2 * cosine, 1 - alpha)
        case .highpass:
            (b0, b1, b2) = ((1 + cosine) / 2, -(1 + cosine), (1 + cosine) / 2)
            (a0, a1, a2) = (1 + alpha, -2 * cosine, 1 - alpha)
        case .bandpass:
            (b0, b1, b2) = (alpha, 0, -alpha)
            (a0, a1, a2) = (1 + alpha, -2 * cosine, 1 - alpha)
        case .bandstop:
            (b0, b1, b2) = (1, -2 * cosine, 1)
            (a0, a1, a2) = (1 + alpha, -2 * cosine, 1 - alpha)
        case .lowshelf, .highshelf:
            let sign: Double = shape == .lowshelf ? 1 : -1
            let root = 2 * amplitude.squareRoot() * alpha
            let (plus, minus) = (amplitude + 1, amplitude - 1)
            b0 = amplitude * (plus - sign * minus * cosine + root)
            b1 = sign * 2 * amplitude * (minus - sign * plus * cosine)
            b2 = amplitude * (plus - sign * minus * cosine - root)
            a0 = plus + sign * minus * cosine + root
            a1 = -sign * 2 * (minus + sign * plus * cosine)
            a2 = plus + sign * minus * cosine - root
        }
        return BiquadCoefficients(b0: b0 / a0, b1: b1 / a0, b2: b2 / a0, a1: a1 / a0, a2: a2 / a0)
    }
}
