#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs one channel at four times its rate and back: a polyphase FIR interpolator, then
/// whatever the caller does to the four samples of each frame, then a polyphase FIR decimator.
///
/// Both filters are Kaiser-windowed sincs (80 dB) that pass up to 43 % of the base rate (19 kHz
/// at 44.1 kHz) flat and stop from 57 % of it (where an image or an alias would fold back under
/// 43 %), so a nonlinearity run at the high rate adds only what it makes below half the high
/// rate. The interpolator has an odd length and the decimator an even one, so that
/// with the half-sample delay of a first-order antiderivative step between them the whole path
/// runs late by a whole number of base frames: `latency`.
public struct OversamplerDesign: Sendable {
    /// The factor, fixed: four.
    public static let factor = 4
    /// The interpolator's taps at the high rate (gain four, for the zeros stuffed between samples), by phase.
    public let upPhases: [[Float]]
    /// The decimator's taps at the high rate, newest sample first.
    public let down: [Float]
    /// Base frames the path runs late, counting a half high-rate sample between the filters.
    public let latency: Int

    /// The one design, for any rate (the filters scale with it).
    public static let standard = OversamplerDesign(upLength: 145, downLength: 150)

    init(upLength: Int, downLength: Int) {
        precondition(upLength % 2 == 1 && downLength % 2 == 0)
        let factor = Double(Self.factor)
        func kaiser(_ length: Int) -> [Double] {
            let beta = 0.1102 * (80 - 8.7)
            return (0..<length).map { index in
                let ratio = 2 * Double(index) / Double(length - 1) - 1
                return Self.besselI0(beta * (1 - ratio * ratio).squareRoot()) / Self.besselI0(beta)
            }
        }
        func lowpass(_ length: Int, gain: Double) -> [Double] {
            let cutoff = 0.5 / factor, middle = Double(length - 1) / 2, window = kaiser(length)
            return (0..<length).map { index in
                let t = Double(index) - middle
                let sinc = t == 0 ? 2 * cutoff : sin(2 * .pi * cutoff * t) / (.pi * t)
                return gain * sinc * window[index]
            }
        }
        let up = lowpass(upLength, gain: factor)
        upPhases = (0..<Self.factor).map { phase in stride(from: phase, to: upLength, by: Self.factor).map { Float(up[$0]) } }
        down = lowpass(downLength, gain: 1).map(Float.init)
        // The decimator gives a frame when the last of its four high-rate samples is in, three after the frame's first.
        let highRateDelay = Double(upLength - 1) / 2 + Double(downLength - 1) / 2 + 0.5 - (factor - 1)
        precondition(highRateDelay.truncatingRemainder(dividingBy: factor) == 0)
        latency = Int(highRateDelay / factor)
    }

    /// The modified Bessel function of the first kind, order zero, by its series.
    private static func besselI0(_ x: Double) -> Double {
        var sum = 1.0, term = 1.0, k = 1.0
        while term > 1e-12 * sum {
            term *= (x / (2 * k)) * (x / (2 * k))
            sum += term
            k += 1
        }
        return sum
    }
}

/// The running state of one channel through an `OversamplerDesign`: the last base frames the
/// interpolator reads and the last high-rate samples the decimator reads, each kept twice over
/// in a ring so that every read is one contiguous stretch.
public struct OversamplerChannel {
    private let upTaps: UnsafeMutablePointer<Float>
    private let upLength: Int
    private let downLength: Int
    private let downTaps: UnsafeMutablePointer<Float>
    private let inputs: UnsafeMutablePointer<Float>
    private let highs: UnsafeMutablePointer<Float>
    private var inputAt = 0
    private var highAt = 0

    /// Makes the state (allocating); `release()` frees it.
    public init(design: OversamplerDesign) {
        // Each phase, and the decimator, padded with zeros at its oldest end to whole vectors of eight.
        upLength = (design.upPhases[0].count + 7) / 8 * 8
        downLength = (design.down.count + 7) / 8 * 8
        upTaps = .allocate(capacity: OversamplerDesign.factor * upLength)
        upTaps.initialize(repeating: 0, count: OversamplerDesign.factor * upLength)
        for (phase, taps) in design.upPhases.enumerated() {
            // Stored oldest-first, to meet the ring's oldest-first order.
            for (index, tap) in taps.reversed().enumerated() { upTaps[phase * upLength + (upLength - taps.count) + index] = tap }
        }
        downTaps = .allocate(capacity: downLength)
        downTaps.initialize(repeating: 0, count: downLength)
        for (index, tap) in design.down.reversed().enumerated() { downTaps[downLength - design.down.count + index] = tap }
        inputs = .allocate(capacity: 2 * upLength)
        highs = .allocate(capacity: 2 * downLength)
        reset()
    }

    /// Frees the state.
    public func release() {
        upTaps.deallocate()
        downTaps.deallocate()
        inputs.deallocate()
        highs.deallocate()
    }

    /// Clears the history.
    public mutating func reset() {
        inputs.initialize(repeating: 0, count: 2 * upLength)
        highs.initialize(repeating: 0, count: 2 * downLength)
        inputAt = 0
        highAt = 0
    }

    /// Takes one base frame and writes its four high-rate samples into `high`.
    @inline(__always)
    public mutating func interpolate(_ sample: Float, into high: inout SIMD4<Float>) {
        inputs[inputAt] = sample
        inputs[inputAt + upLength] = sample
        inputAt += 1
        if inputAt == upLength { inputAt = 0 }
        let window = inputs + inputAt
        high = SIMD4(Self.dot(window, upTaps, upLength), Self.dot(window, upTaps + upLength, upLength),
                     Self.dot(window, upTaps + 2 * upLength, upLength), Self.dot(window, upTaps + 3 * upLength, upLength))
    }

    /// Takes four high-rate samples and gives the base frame they decimate to.
    @inline(__always)
    public mutating func decimate(_ high: SIMD4<Float>) -> Float {
        let length = downLength
        for index in 0..<4 {
            highs[highAt] = high[index]
            highs[highAt + length] = high[index]
            highAt += 1
            if highAt == length { highAt = 0 }
        }
        return Self.dot(highs + highAt, downTaps, length)
    }

    /// The dot product of `count` floats, a multiple of eight, eight at a time.
    @inline(__always)
    static func dot(_ a: UnsafeMutablePointer<Float>, _ b: UnsafeMutablePointer<Float>, _ count: Int) -> Float {
        var sum = SIMD8<Float>()
        let rawA = UnsafeRawPointer(a), rawB = UnsafeRawPointer(b)
        for index in stride(from: 0, to: count, by: 8) {
            sum += rawA.loadUnaligned(fromByteOffset: index * 4, as: SIMD8<Float>.self)
                * rawB.loadUnaligned(fromByteOffset: index * 4, as: SIMD8<Float>.self)
        }
        return sum.sum()
    }
}
