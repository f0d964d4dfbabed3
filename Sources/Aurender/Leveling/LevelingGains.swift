#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The gains `aurender loudness` writes and the tag values they are written as: ReplayGain 2.0,
/// Opus's R128 gains (RFC 7845) and Sound Check's `iTunNORM`, each from the measured loudness
/// against its own reference level.
public enum LevelingGains {
    /// ReplayGain 2.0's reference: −18 LUFS (89 dB SPL in ReplayGain 1's terms).
    public static let replayGainReference = -18.0
    /// RFC 7845's reference for `R128_TRACK_GAIN` and `R128_ALBUM_GAIN`: EBU R128's −23 LUFS.
    public static let r128Reference = -23.0
    /// The level Sound Check gains are written against: −16 LUFS, the level Apple's Sound Check
    /// plays at (Apple's own normalization target since iTunes 12 / Apple Music).
    public static let soundCheckReference = -16.0

    /// The gain bringing `loudness` (LUFS) to `reference`, lowered so the true peak `peak`
    /// (linear) stays at or under `maxTruePeak` dBTP when one is given.
    public static func gain(loudness: Double, reference: Double, peak: Double, maxTruePeak: Double?) -> Double {
        let gain = reference - loudness
        guard let maxTruePeak, peak > 0 else { return gain }
        return min(gain, maxTruePeak - 20 * log10(peak))
    }

    /// `-7.02 dB`, as ReplayGain's gain tags hold a gain.
    public static func replayGainText(_ gain: Double) -> String { text(gain, decimals: 2) + " dB" }

    /// `0.988831`, as ReplayGain's peak tags hold a linear peak.
    public static func peakText(_ peak: Double) -> String { text(peak, decimals: 6) }

    /// `-18.00 LUFS`, ReplayGain 2.0's `REPLAYGAIN_REFERENCE_LOUDNESS`.
    public static var referenceText: String { text(replayGainReference, decimals: 2) + " LUFS" }

    /// An R128 gain: Q7.8 fixed point (gain × 256, rounded), clamped to a signed 16-bit integer.
    public static func r128Value(_ gain: Double) -> Int { Int(max(-32768, min(32767, (gain * 256).rounded()))) }

    /// Sound Check's ten fields, each a space and eight upper-case hex digits: the gain as
    /// 1000 × 10^(−gain/10) (fields 1 and 2, left and right, against a reference of 1/1000)
    /// and 2500 × 10^(−gain/10) (fields 3 and 4), each clamped to 1…65534; fields 5 and 6 and
    /// 9 and 10 are 0 (players ignore them); 7 and 8 the peak as a 16-bit sample magnitude (0…32767).
    public static func soundCheckText(gain: Double, peak: Double) -> String {
        func scaled(_ reference: Double) -> Int { Int(max(1, min(65534, (reference * pow(10, -gain / 10)).rounded()))) }
        let peakValue = Int(max(0, min(1, peak)) * 32767)
        let values = [scaled(1000), scaled(1000), scaled(2500), scaled(2500), 0, 0, peakValue, peakValue, 0, 0]
        return values.map { " " + hex8($0) }.joined()
    }

    /// The gain Sound Check's fields `text` state (from fields 1 and 2, the louder), or nil when it is not ten hex fields.
    public static func soundCheckGain(_ text: String) -> Double? {
        let fields = text.split(separator: " ").compactMap { Int($0, radix: 16) }
        guard fields.count == 10, fields[0] > 0, fields[1] > 0 else { return nil }
        return -10 * log10(Double(max(fields[0], fields[1])) / 1000)
    }

    private static func hex8(_ value: Int) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 8 - digits.count)) + digits
    }

    /// `value` with `decimals` decimals (`-0.00` written `0.00`).
    public static func text(_ value: Double, decimals: Int) -> String {
        let scale = pow(10, Double(decimals))
        let rounded = (value * scale).rounded() / scale
        let magnitude = abs(rounded)
        let whole = Int(magnitude)
        let fraction = Int(((magnitude - Double(whole)) * scale).rounded())
        let fractionText = String(fraction)
        let sign = rounded < 0 ? "-" : ""
        return sign + String(whole) + "." + String(repeating: "0", count: max(0, decimals - fractionText.count)) + fractionText
    }
}
