#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Distorts a signal: a drive gain, then a shape (soft or hard clipping, a bit crusher, a
/// sample-rate decimator), mixed with the dry signal, run at four times the rate
/// (`OversamplerDesign`) so the harmonics the shape makes above half the rate do not fold back.
///
/// The clippers go through a first-order antiderivative step (the mean of the curve between
/// consecutive high-rate samples, from its antiderivative), which takes the harmonics that
/// oversampling alone would still fold back down by some 20 dB more; the digital shapes read the
/// middle between the samples instead, so every shape runs late by the same half sample and the
/// path by a whole number of frames (`latency`), the dry signal held back to match.
public final class Distortion {
    /// The shapes.
    public enum Shape: String, CaseIterable, Sendable {
        /// tanh: rounds the peaks off, odd harmonics falling away quickly.
        case soft
        /// Clipping at ±1: flat tops, harsher.
        case hard
        /// Quantizing to `bits` bits over ±1 (and clipping there).
        case crush
        /// Holding every `decimation`-th frame for `decimation` frames (and clipping at ±1): aliasing on purpose.
        case decimate
    }

    /// What the distortion does.
    public struct Settings: Equatable, Sendable {
        /// The gain before the shape, in dB.
        public var drive: Double
        public var shape: Shape
        /// The bit crusher's depth, 1 to 24.
        public var bits: Int
        /// The decimator's hold, in frames, 1 to 64.
        public var decimation: Int
        /// The share of the distorted signal, 0 to 1.
        public var wet: Double

        public init(drive: Double, shape: Shape = .soft, bits: Int = 8, decimation: Int = 4, wet: Double = 1) {
            self.drive = drive
            self.shape = shape
            self.bits = bits
            self.decimation = decimation
            self.wet = wet
        }
    }

    /// Frames the output runs behind the input.
    public let latency: Int
    /// The channels it runs.
    public let channelCount: Int
    private var channels: [OversamplerChannel]
    /// Per channel: the last high-rate input, its antiderivative, the held sample and the frames it has left.
    private let previous: UnsafeMutablePointer<Double>
    private let previousIntegral: UnsafeMutablePointer<Double>
    private let held: UnsafeMutablePointer<Double>
    private let holdLeft: UnsafeMutablePointer<Int>
    /// The dry signal, `latency` frames per channel, as rings.
    private let dry: UnsafeMutablePointer<Float>
    private var dryAt = 0
    private var gain = 1.0
    private var settings: Settings

    /// A distortion for `channelCount` channels with `settings`.
    public init(channelCount: Int, settings: Settings) {
        let design = OversamplerDesign.standard
        self.channelCount = channelCount
        self.settings = settings
        latency = design.latency
        channels = (0..<channelCount).map { _ in OversamplerChannel(design: design) }
        previous = .allocate(capacity: channelCount)
        previousIntegral = .allocate(capacity: channelCount)
        held = .allocate(capacity: channelCount)
        holdLeft = .allocate(capacity: channelCount)
        dry = .allocate(capacity: max(1, latency) * channelCount)
        reset()
        update(settings)
    }

    deinit {
        for channel in channels { channel.release() }
        previous.deallocate()
        previousIntegral.deallocate()
        held.deallocate()
        holdLeft.deallocate()
        dry.deallocate()
    }

    /// Clears the state, as when made.
    public func reset() {
        for index in channels.indices { channels[index].reset() }
        previous.initialize(repeating: 0, count: channelCount)
        previousIntegral.initialize(repeating: Self.integral(0, settings.shape), count: channelCount)
        held.initialize(repeating: 0, count: channelCount)
        holdLeft.initialize(repeating: 0, count: channelCount)
        dry.initialize(repeating: 0, count: max(1, latency) * channelCount)
        dryAt = 0
    }

    /// Takes new settings from the next frame.
    public func update(_ settings: Settings) {
        let shapeChanged = settings.shape != self.settings.shape
        self.settings = settings
        gain = pow(10, settings.drive / 20)
        if shapeChanged {
            for channel in 0..<channelCount { previousIntegral[channel] = Self.integral(previous[channel], settings.shape) }
        }
    }

    /// Distorts `frames` frames of `input` into `output` (one pointer per channel; not the same buffers).
    public func process(input: UnsafePointer<UnsafeMutablePointer<Float>>, output: UnsafePointer<UnsafeMutablePointer<Float>>, frames: Int) {
        let wet = Float(max(0, min(1, settings.wet))), dryShare = 1 - wet
        let shape = settings.shape, gain = gain
        let levels = Double(1 << (max(1, min(24, settings.bits)) - 1))
        let hold = OversamplerDesign.factor * max(1, min(64, settings.decimation))
        let latency = max(1, latency)
        var dryEnd = dryAt
        for channel in 0..<channelCount {
            let source = input[channel], destination = output[channel], dryLine = dry + channel * latency
            var state = channels[channel]
            var last = previous[channel], lastIntegral = previousIntegral[channel]
            var heldValue = held[channel], left = holdLeft[channel]
            var ring = dryAt
            for frame in 0..<frames {
                var high = SIMD4<Float>()
                state.interpolate(source[frame], into: &high)
                for index in 0..<4 {
                    let x = gain * Double(high[index])
                    let y: Double
                    switch shape {
                    case .soft, .hard:
                        let integral = Self.integral(x, shape)
                        let step = x - last
                        y = abs(step) < Self.smallestStep ? Self.curve((x + last) / 2, shape) : (integral - lastIntegral) / step
                        lastIntegral = integral
                    case .crush:
                        // Rounded to the nearest level by the float trick: adding 1.5 × 2⁵² leaves no fraction.
                        y = ((min(1, max(-1, (x + last) / 2)) * levels + 0x1.8p52) - 0x1.8p52) / levels
                    case .decimate:
                        if left == 0 {
                            heldValue = min(1, max(-1, (x + last) / 2))
                            left = hold
                        }
                        left -= 1
                        y = heldValue
                    }
                    last = x
                    high[index] = Float(y)
                }
                let distorted = state.decimate(high)
                let delayed: Float
                if self.latency == 0 { delayed = source[frame] } else {
                    delayed = dryLine[ring]
                    dryLine[ring] = source[frame]
                    ring += 1
                    if ring == latency { ring = 0 }
                }
                destination[frame] = dryShare * delayed + wet * distorted
            }
            channels[channel] = state
            previous[channel] = last
            previousIntegral[channel] = lastIntegral
            held[channel] = heldValue
            holdLeft[channel] = left
            dryEnd = ring
        }
        dryAt = dryEnd
    }

    /// Under this step between samples the mean of the curve is its value at the middle (the
    /// two differ by under 1e-5 there, and the difference of antiderivatives would lose more).
    static let smallestStep = 0.01

    /// A clipper's curve.
    @inline(__always)
    static func curve(_ x: Double, _ shape: Shape) -> Double {
        shape == .soft ? tanh(x) : min(1, max(-1, x))
    }

    /// The antiderivative of a clipper's curve: log cosh x for tanh (its small correction term
    /// from a float exponential, within 1e-7, which costs nothing against `smallestStep`), x²/2 or
    /// |x| − 1/2 for hard clipping.
    @inline(__always)
    static func integral(_ x: Double, _ shape: Shape) -> Double {
        let magnitude = abs(x)
        switch shape {
        case .soft:
            // log cosh x = |x| − ln 2 + log(1 + e^(−2|x|)); the last term is under 1e-9 beyond |x| = 10.
            guard magnitude <= 10 else { return magnitude - M_LN2 }
            // log(1 + u) = 2 atanh(u / (2 + u)), whose series in s = u / (2 + u) ≤ 1/3 is within 1e-9 by s¹⁵.
            let u = Double(expf(Float(-2 * magnitude)))
            let s = u / (2 + u), s2 = s * s
            let series = 1 + s2 * (1 / 3 + s2 * (1 / 5 + s2 * (1 / 7 + s2 * (1 / 9 + s2 * (1 / 11 + s2 * (1 / 13 + s2 / 15))))))
            return magnitude - M_LN2 + 2 * s * series
        default:
            return magnitude <= 1 ? x * x / 2 : magnitude - 0.5
        }
    }
}
