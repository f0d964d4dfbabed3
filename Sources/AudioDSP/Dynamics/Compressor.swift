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
    private var attackCoefficient: Float = 0
    private var releaseCoefficient: Float = 0
    private var kneeStart: Float = 0
    private var makeupGain: Float = 1
    /// The curve's constants in Float, for the per-sample path: dB per log₂ of the detected
    /// level, threshold, knee, 1/ratio − 1, and log₂ of the makeup gain.
    private var decibelsPerOctave: Float = 0
    private var thresholdDB: Float = 0
    private var kneeDB: Float = 0
    private var slope: Float = 0
    private var makeupOctaves: Float = 0
    /// log₂ of the gain per dB, 1/(20 log₁₀ 2); a stored constant, so the loop reads no global.
    private let octavesPerDecibel = Float(1 / (20 * log10(2.0)))
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
        attackCoefficient = Float(Self.smoothing(seconds: settings.attack, sampleRate: sampleRate))
        releaseCoefficient = Float(Self.smoothing(seconds: settings.release, sampleRate: sampleRate))
        let start = settings.threshold - settings.knee / 2
        kneeStart = Float(pow(10, (settings.detection == .rms ? start / 10 : start / 20)))
        makeupGain = Float(pow(10, settings.makeup / 20))
        decibelsPerOctave = Float((settings.detection == .rms ? 10 : 20) * log10(2.0))
        thresholdDB = Float(settings.threshold)
        kneeDB = Float(settings.knee)
        slope = Float(1 / settings.ratio - 1)
        makeupOctaves = Float(settings.makeup / 20 / log10(2.0))
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
        let rms = settings.detection == .rms
        let channelScale = 1 / Float(channelCount)
        for index in 0..<frames {
            var level: Float = 0
            if rms {
                for channel in 0..<channelCount { let sample = channels[channel][index]; level += sample * sample }
                level *= channelScale
            } else {
                for channel in 0..<channelCount { level = max(level, abs(channels[channel][index])) }
            }
            let coefficient = level > envelope ? attackCoefficient : releaseCoefficient
            envelope = level + coefficient * (envelope - level)
            var gain = makeupGain
            if envelope > kneeStart {
                let over = decibelsPerOctave * FastLogarithm.log2(envelope) - thresholdDB
                let reduction: Float
                if 2 * over <= kneeDB, kneeDB > 0 {
                    let into = over + kneeDB / 2
                    reduction = slope * into * into / (2 * kneeDB)
                } else {
                    reduction = slope * over
                }
                gain = FastLogarithm.exp2(reduction * octavesPerDecibel + makeupOctaves)
            }
            if gain != 1 {
                for channel in 0..<channelCount { channels[channel][index] *= gain }
            }
        }
    }
}
