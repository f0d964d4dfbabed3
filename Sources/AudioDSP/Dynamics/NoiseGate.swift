#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A noise gate with linked channels: it opens while any channel's sample reaches the threshold,
/// stays open for the hold time after the last one did, then closes over the release time down
/// to the range (the most it attenuates), and opens again over the attack time.
///
/// The gain moves in equal decibel steps, so opening and closing sound even; as FFmpeg's `agate`
/// and pedalboard's `NoiseGate`, it never boosts.
public struct NoiseGate: Sendable {
    /// The settings a gate is made with; every one may change between slices.
    public struct Settings: Equatable, Sendable {
        /// The level that opens the gate, in dBFS.
        public var threshold: Double
        /// Seconds to open fully.
        public var attack: Double
        /// Seconds the gate stays open after the signal falls under the threshold.
        public var hold: Double
        /// Seconds to close fully.
        public var release: Double
        /// The attenuation when closed, in dB (negative).
        public var range: Double

        public init(threshold: Double, attack: Double = 0.001, hold: Double = 0.02, release: Double = 0.1, range: Double = -80) {
            self.threshold = threshold
            self.attack = attack
            self.hold = hold
            self.release = release
            self.range = range
        }
    }

    public private(set) var settings: Settings
    private let sampleRate: Double
    private var thresholdLevel: Float = 0
    private var closedGain: Float = 0
    private var openStep: Float = 1
    private var closeStep: Float = 1
    private var holdFrames = 0
    private var holdLeft = 0
    private var gain: Float = 1

    public init(settings: Settings, sampleRate: Double) {
        self.settings = settings
        self.sampleRate = sampleRate
        update(settings)
        gain = closedGain
    }

    /// Takes new settings, keeping where the gate stands.
    public mutating func update(_ settings: Settings) {
        self.settings = settings
        thresholdLevel = Float(pow(10, settings.threshold / 20))
        closedGain = Float(pow(10, settings.range / 20))
        openStep = Float(pow(10, -settings.range / 20 / max(1, settings.attack * sampleRate)))
        closeStep = Float(pow(10, settings.range / 20 / max(1, settings.release * sampleRate)))
        holdFrames = Int((settings.hold * sampleRate).rounded())
        gain = min(1, max(closedGain, gain))
    }

    /// Closed, as when made.
    public mutating func reset() {
        gain = closedGain
        holdLeft = 0
    }

    /// Gates `frames` frames of `channelCount` channels in place.
    public mutating func process(_ channels: UnsafePointer<UnsafeMutablePointer<Float>>, channelCount: Int, frames: Int) {
        for index in 0..<frames {
            var loud = false
            for channel in 0..<channelCount where abs(channels[channel][index]) >= thresholdLevel { loud = true }
            if loud {
                holdLeft = holdFrames
                gain = min(1, gain * openStep)
            } else if holdLeft > 0 {
                holdLeft -= 1
                gain = min(1, gain * openStep)
            } else {
                gain = max(closedGain, gain * closeStep)
            }
            if gain != 1 {
                for channel in 0..<channelCount { channels[channel][index] *= gain }
            }
        }
    }
}
