import CAudioKernels
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
    /// The oversamplers, one per pair of channels (a lone last channel paired with silence).
    private let pairs: [OversamplerPair]
    /// Per channel: the last high-rate input, its antiderivative, the held sample and the frames it has left.
    private let previous: UnsafeMutablePointer<Double>
    private let previousIntegral: UnsafeMutablePointer<Double>
    private let held: UnsafeMutablePointer<Double>
    private let holdLeft: UnsafeMutablePointer<Int>
    /// The dry signal's last `latency` frames per channel, oldest first.
    private let dry: UnsafeMutablePointer<Float>
    private var gain = 1.0
    private var settings: Settings

    /// A distortion for `channelCount` channels with `settings`.
    public init(channelCount: Int, settings: Settings) {
        let design = OversamplerDesign.standard
        self.channelCount = channelCount
        self.settings = settings
        latency = design.latency
        pairs = (0..<((channelCount + 1) / 2)).map { _ in OversamplerPair(design: design) }
        previous = .allocate(capacity: channelCount)
        previousIntegral = .allocate(capacity: channelCount)
        held = .allocate(capacity: channelCount)
        holdLeft = .allocate(capacity: channelCount)
        dry = .allocate(capacity: max(1, latency) * channelCount)
        reset()
        update(settings)
    }

    deinit {
        for pair in pairs { pair.release() }
        previous.deallocate()
        previousIntegral.deallocate()
        held.deallocate()
        holdLeft.deallocate()
        dry.deallocate()
    }

    /// Clears the state, as when made.
    public func reset() {
        for pair in pairs { pair.reset() }
        previous.initialize(repeating: 0, count: channelCount)
        previousIntegral.initialize(repeating: Self.integral(0, settings.shape), count: channelCount)
        held.initialize(repeating: 0, count: channelCount)
        holdLeft.initialize(repeating: 0, count: channelCount)
        dry.initialize(repeating: 0, count: max(1, latency) * channelCount)
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
        let gain = gain
        let levels = Double(1 << (max(1, min(24, settings.bits)) - 1))
        let hold = OversamplerDesign.factor * max(1, min(64, settings.decimation))
        let latency = latency
        for pairIndex in pairs.indices {
            let pair = pairs[pairIndex], members = (2 * pairIndex)..<min(channelCount, 2 * pairIndex + 2)
            var start = 0
            while start < frames {
                let count = min(OversamplerPair.blockFrames, frames - start)
                for channel in members { pair.input(channel - members.lowerBound).update(from: input[channel] + start, count: count) }
                pair.interpolate(frames: count)
                for channel in members {
                    shape(pair.phases(channel - members.lowerBound), channel: channel, frames: count, gain: gain, levels: levels, hold: hold)
                }
                pair.decimate(frames: count)
                for channel in members {
                    let source = input[channel], destination = output[channel], dryLine = dry + channel * max(1, latency)
                    let distorted = pair.output(channel - members.lowerBound)
                    // The dry signal `latency` frames back: the held frames, then the block's own.
                    let fromLine = min(latency, count)
                    for frame in 0..<fromLine { destination[start + frame] = dryShare * dryLine[frame] + wet * distorted[frame] }
                    for frame in fromLine..<count { destination[start + frame] = dryShare * source[start + frame - latency] + wet * distorted[frame] }
                    if count >= latency {
                        dryLine.update(from: source + start + count - latency, count: latency)
                    } else {
                        memmove(dryLine, dryLine + count, (latency - count) * MemoryLayout<Float>.size)
                        (dryLine + latency - count).update(from: source + start, count: count)
                    }
                }
                start += count
            }
        }
    }

    /// Runs the shape over one channel's `frames` high-rate frames in its four phases, in place.
    private func shape(_ phases: UnsafePointer<UnsafeMutablePointer<Float>?>, channel: Int, frames: Int, gain: Double, levels: Double, hold: Int) {
        let shape = settings.shape
        var last = previous[channel], lastIntegral = previousIntegral[channel]
        var heldValue = held[channel], left = holdLeft[channel]
        switch shape {
        case .soft, .hard:
            var clipper = aurender_clipper(gain: gain, hard: shape == .hard ? 1 : 0, last: last, last_integral: lastIntegral)
            aurender_clip_antiderivative(phases, frames, &clipper)
            last = clipper.last
            lastIntegral = clipper.last_integral
        case .crush, .decimate:
            for frame in 0..<frames {
                for index in 0..<4 {
                    let high = phases[index]!
                    let x = gain * Double(high[frame])
                    let y: Double
                    if shape == .crush {
                        // Rounded to the nearest level by the float trick: adding 1.5 × 2⁵² leaves no fraction.
                        y = ((min(1, max(-1, (x + last) / 2)) * levels + 0x1.8p52) - 0x1.8p52) / levels
                    } else {
                        if left == 0 {
                            heldValue = min(1, max(-1, (x + last) / 2))
                            left = hold
                        }
                        left -= 1
                        y = heldValue
                    }
                    last = x
                    high[frame] = Float(y)
                }
            }
        }
        previous[channel] = last
        previousIntegral[channel] = lastIntegral
        held[channel] = heldValue
        holdLeft[channel] = left
    }

    /// The antiderivative of a clipper's curve (`aurender_clip_integral`): log cosh x for tanh,
    /// x²/2 or |x| − 1/2 for hard clipping; the digital shapes have none.
    static func integral(_ x: Double, _ shape: Shape) -> Double {
        aurender_clip_integral(x, shape == .hard ? 1 : 0)
    }
}
