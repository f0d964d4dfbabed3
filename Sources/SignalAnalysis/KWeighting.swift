#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import AudioDSP

/// ITU-R BS.1770-4's K-weighting, the high shelf then the high-pass, designed for any rate from
/// their analog prototypes as libebur128 designs them (the high-pass's numerator left at
/// 1, −2, 1, unnormalized, as there).
enum KWeighting {
    /// The shelf (about +4 dB above 1.5 kHz) and the high-pass (38 Hz), in that order.
    static func sections(sampleRate: Double) -> (shelf: BiquadCoefficients, highPass: BiquadCoefficients) {
        var f0 = 1681.974450955533
        let gain = 3.999843853973347
        var q = 0.7071752369554196
        var k = tan(Double.pi * f0 / sampleRate)
        let vh = pow(10, gain / 20)
        let vb = pow(vh, 0.4996667741545416)
        var a0 = 1 + k / q + k * k
        let shelf = BiquadCoefficients(b0: (vh + vb * k / q + k * k) / a0, b1: 2 * (k * k - vh) / a0,
                                       b2: (vh - vb * k / q + k * k) / a0, a1: 2 * (k * k - 1) / a0, a2: (1 - k / q + k * k) / a0)
        f0 = 38.13547087602444
        q = 0.5003270373238773
        k = tan(Double.pi * f0 / sampleRate)
        a0 = 1 + k / q + k * k
        let highPass = BiquadCoefficients(b0: 1, b1: -2, b2: 1, a1: 2 * (k * k - 1) / a0, a2: (1 - k / q + k * k) / a0)
        return (shelf, highPass)
    }

    /// libebur128's default weight for channel `index` in WAV order: left, right and centre 1,
    /// the fourth (a 5.1 file's LFE) 0, the surrounds 1.41, any further channel 0.
    static func weight(channel index: Int) -> Double {
        switch index {
        case 0, 1, 2: 1
        case 4, 5: 1.41
        default: 0
        }
    }
}
