#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import FourierTransforms

/// The level of a stream in each third-octave band (IEC 61260 nominal centres, 25 Hz to 20 kHz,
/// those under Nyquist), what `--spectrum-tolerance` compares.
///
/// Every channel is cut into Hann-windowed transforms of `size` frames laid end to end, and each
/// bin's power is summed over channels and windows; a band's level is 10·log10 of its bins' mean
/// power per window, floored at −200 dB. A last, shorter window gets a Hann window of its own
/// length, zero-padded, and counts for its share of a window. Memory does not grow with length.
public final class ThirdOctaveSpectrum {
    /// Frames per transform: 8192 gives bins of 5.4 Hz at 44.1 kHz, one or more in the 25 Hz band.
    public static let size = 8192
    /// The level a silent band reads, in dB.
    public static let floor = -200.0
    /// The level under which a band is taken as silent when two spectra are compared: the
    /// rounding noise of 32-bit float samples lies under it, and would otherwise make bands
    /// with nothing in them differ by chance.
    public static let comparedFloor = -120.0

    public let sampleRate: Double
    public let channelCount: Int
    private let transform = RealFFT(size: size)
    private let taper: [Float]
    /// Each channel's window being filled, one after the other.
    private var pending: [Float]
    private var filled = 0
    /// Windows analysed, a last shorter one counted for its share.
    private var windows = 0.0
    private var powers: [Double]

    /// A spectrum of `channelCount` interleaved channels at `sampleRate`.
    public init(sampleRate: Double, channelCount: Int) {
        self.sampleRate = sampleRate
        self.channelCount = channelCount
        let size = Self.size
        taper = (0..<size).map { Float(0.5 - 0.5 * cos(2 * Double.pi * Double($0) / Double(size))) }
        pending = [Float](repeating: 0, count: size * channelCount)
        powers = [Double](repeating: 0, count: size / 2 + 1)
    }

    /// Adds `frames` interleaved frames.
    public func add(interleaved samples: UnsafePointer<Float>, frames: Int) {
        var done = 0
        while done < frames {
            let span = min(frames - done, Self.size - filled)
            for channel in 0..<channelCount {
                let base = channel * Self.size + filled
                for frame in 0..<span { pending[base + frame] = samples[(done + frame) * channelCount + channel] }
            }
            filled += span
            done += span
            if filled == Self.size { analyseWindow() }
        }
    }

    /// The centre frequencies of the bands measured (those whose upper edge is under Nyquist and that hold a bin).
    public var centres: [Double] { bands.map(\.centre) }

    /// Each band's level in dB, in the order of `centres`: relative levels (a full-scale sine reads −4.3 dB),
    /// made to be compared with another stream's.
    public func levels() -> [Double] {
        var powers = powers, windows = windows
        if filled > 0 {
            let saved = (pending, filled, self.powers, self.windows)
            analyseWindow()
            (powers, windows) = (self.powers, self.windows)
            (pending, filled, self.powers, self.windows) = saved
        }
        let scale = 1 / ((windows > 0 ? windows : 1) * Double(Self.size) * Double(Self.size) / 4)
        return bands.map { band in
            var sum = 0.0
            for bin in band.bins { sum += powers[bin] }
            let power = sum * scale
            return power > 0 ? max(Self.floor, 10 * log10(power)) : Self.floor
        }
    }

    /// The bands: nominal centre, and the bins between its edges (centre·2^(±1/6)).
    private var bands: [(centre: Double, bins: Range<Int>)] {
        let binWidth = sampleRate / Double(Self.size)
        return (-16...13).compactMap { step -> (Double, Range<Int>)? in
            let centre = 1000 * pow(2, Double(step) / 3)
            let lower = centre * pow(2, -1.0 / 6), upper = centre * pow(2, 1.0 / 6)
            guard upper < sampleRate / 2 else { return nil }
            let bins = Int((lower / binWidth).rounded(.up))..<Int((upper / binWidth).rounded(.up))
            return bins.isEmpty ? nil : (Self.nominal(centre), bins)
        }
    }

    /// The nominal figure of a band's exact centre (1000·2^(k/3)), as IEC 61260 names it: 31.5, 1250, 20000.
    private static func nominal(_ centre: Double) -> Double {
        let names: [Double] = [25, 31.5, 40, 50, 63, 80, 100, 125, 160, 200, 250, 315, 400, 500, 630, 800, 1000, 1250, 1600, 2000,
                               2500, 3150, 4000, 5000, 6300, 8000, 10000, 12500, 16000, 20000]
        return names.min { abs(log($0 / centre)) < abs(log($1 / centre)) }!
    }

    private func analyseWindow() {
        let size = Self.size, whole = filled == size
        for channel in 0..<channelCount {
            let base = channel * size
            for index in 0..<size {
                let weight = whole ? taper[index] : Float(0.5 - 0.5 * cos(2 * Double.pi * Double(index) / Double(filled)))
                transform.input[index] = index < filled ? pending[base + index] * weight : 0
            }
            transform.transform()
            for bin in 0...(size / 2) {
                let re = Double(transform.output[2 * bin]), im = Double(transform.output[2 * bin + 1])
                powers[bin] += re * re + im * im
            }
        }
        windows += Double(filled) / Double(size)
        filled = 0
    }
}
