import CAudioKernels
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A feed-forward compressor with linked channels: a level detector (peak, or RMS) with attack
/// and release, a static curve with a soft knee, and makeup gain, as SoX's `compand`, FFmpeg's
/// `acompressor` and Apple's `AUDynamicsProcessor` shape them.
///
/// The curve, in dB, with threshold T, ratio R and knee width W (Giannoulis, Massberg and Reiss,
/// 2012): below T − W/2 the level is kept; above T + W/2 it becomes T + (level − T)/R; between,
/// a quadratic joins the two. One gain, from the loudest channel (or the channels' mean power),
/// is applied to every channel, so the stereo image stays put.
public struct Compressor: Sendable {
    /// What the detector follows.
    public enum Detection: String, CaseIterable, Sendable {
        /// The largest absolute sample across the channels.
        case peak
        /// The mean power across the channels, smoothed, so the gain follows loudness.
        case rms
    }

    /// The settings a compressor is made with; every one may change between slices.
    public struct Settings: Equatable, Sendable {
        /// Where compression starts, in dBFS.
        public var threshold: Double
        /// Input dB per output dB above the threshold (1: none, 20 and above: a limiter).
        public var ratio: Double
        /// Seconds for the detector to rise toward a louder level.
        public var attack: Double
        /// Seconds for it to fall toward a quieter one.
        public var release: Double
        /// The knee's width in dB around the threshold (0: a hard knee).
        public var knee: Double
        /// Gain after compression, in dB.
        public var makeup: Double
        public var detection: Detection

        public init(threshold: Double, ratio: Double, attack: Double = 0.01, release: Double = 0.1, knee: Double = 6,
                    makeup: Double = 0, detection: Detection = .peak) {
            self.threshold = threshold
            self.ratio = ratio
            self.attack = attack
            self.release = release
            self.knee = knee
            self.makeup = makeup
            self.detection = detection
        }
    }

    /// The settings in force.
    public private(set) var settings: Settings
    /// The settings in the kernel's terms (`aurender_compress`).
    private var constants = aurender_compressor()
    /// The detector's level, carried between blocks.
    private var envelope: Float = 0
    private let sampleRate: Double

    public init(settings: Settings, sampleRate: Double) {
        self.settings = settings
        self.sampleRate = sampleRate
        update(settings)
    }

    /// Takes new settings, keeping the detector's state.
    public mutating func update(_ settings: Settings) {
        self.settings = settings
        let rms = settings.detection == .rms
        let start = settings.threshold - settings.knee / 2
        constants = aurender_compressor(
            attack: Float(Self.smoothing(seconds: settings.attack, sampleRate: sampleRate)),
            release: Float(Self.smoothing(seconds: settings.release, sampleRate: sampleRate)),
            knee_start: Float(pow(10, rms ? start / 10 : start / 20)),
            makeup_gain: Float(pow(10, settings.makeup / 20)),
            decibels_per_octave: Float((rms ? 10 : 20) * log10(2.0)),
            threshold_db: Float(settings.threshold),
            knee_db: Float(settings.knee),
            slope: Float(1 / settings.ratio - 1),
            makeup_octaves: Float(settings.makeup / 20 / log10(2.0)),
            rms: rms ? 1 : 0)
    }

    /// The one-pole coefficient that moves a level 1 − 1/e of the way in `seconds`.
    static func smoothing(seconds: Double, sampleRate: Double) -> Double {
        seconds > 0 ? exp(-1 / (seconds * sampleRate)) : 0
    }

    /// The static curve's gain in dB for a detected level of `level` dB.
    public func gain(forLevel level: Double) -> Double {
        let (threshold, ratio, knee) = (settings.threshold, settings.ratio, settings.knee)
        let over = level - threshold
        if 2 * over < -knee { return 0 }
        if 2 * abs(over) <= knee, knee > 0 {
            let into = over + knee / 2
            return (1 / ratio - 1) * into * into / (2 * knee)
        }
        return over / ratio - over
    }

    /// Back to a silent detector.
    public mutating func reset() {
        envelope = 0
    }

    /// Compresses `frames` frames of `channelCount` channels in place.
    public mutating func process(_ channels: UnsafePointer<UnsafeMutablePointer<Float>>, channelCount: Int, frames: Int) {
        channels.withMemoryRebound(to: UnsafeMutablePointer<Float>?.self, capacity: channelCount) { channels in
            aurender_compress(channels, Int32(channelCount), frames, &constants, &envelope)
        }
    }
}
