import CAudioKernels
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs a pair of channels at four times their rate and back: two cascaded 2x half-band IIR
/// stages up, whatever the caller does to the four samples of each frame, the same two down.
///
/// Each stage is a polyphase half-band made of two chains of first-order allpass sections
/// (Valenzuela and Constantinides' elliptic design, the one HIIR uses), computed here from
/// their formula: ½(A₀(z²) + z⁻¹A₁(z²)) costs one multiply per section and sample of the lower
/// rate instead of a long FIR's hundreds. The first stage passes up to 19/44.1 of the base rate
/// (19 kHz at 44.1 kHz) and stops from 25.1/44.1 of it, 90 dB down, where an image or an alias
/// would fold back under 19 kHz; the second, at twice the rate, has 0.2 of its rate as
/// transition and stops 100 dB down. The phase is not linear: the path runs late by
/// `latency` frames (whole, counting the half high-rate sample of an antiderivative step between
/// the directions) at low frequencies, 0.3 frame more at 10 kHz.
public struct OversamplerDesign: Sendable {
    /// The factor, fixed: four.
    public static let factor = 4
    /// The first stage's allpass coefficients, ascending (branch 0 takes the even-numbered ones).
    public let first: [Double]
    /// The second stage's.
    public let second: [Double]
    /// Base frames the path runs late at low frequencies.
    public let latency = 4
    /// The coefficients in the kernels' lanes.
    let stages: aurender_halfband_stages

    /// The one design, for any rate (the filters scale with it).
    public static let standard = OversamplerDesign()

    init() {
        let passband = 19.0 / 44.1 / 2
        first = Self.halfBand(coefficients: 2 * Int(AURENDER_HALFBAND_FIRST_SECTIONS), transition: 2 * (0.25 - passband))
        second = Self.halfBand(coefficients: 2 * Int(AURENDER_HALFBAND_SECOND_SECTIONS), transition: 0.2)
        var stages = aurender_halfband_stages()
        func lanes(_ coefficients: [Double]) -> [Float] {
            (0..<(coefficients.count / 2)).flatMap { section -> [Float] in
                let branch0 = Float(coefficients[2 * section]), branch1 = Float(coefficients[2 * section + 1])
                return [branch0, branch1, branch0, branch1]
            }
        }
        let firstLanes = lanes(first), secondLanes = lanes(second)
        withUnsafeMutableBytes(of: &stages.first) { $0.bindMemory(to: Float.self).update(fromContentsOf: firstLanes) }
        withUnsafeMutableBytes(of: &stages.second) { $0.bindMemory(to: Float.self).update(fromContentsOf: secondLanes) }
        self.stages = stages
    }

    /// The allpass coefficients of an elliptic half-band with `coefficients` sections whose
    /// transition band is `transition` of the sampling rate wide around a quarter of it: from
    /// the filter's selectivity k and the nome q of its elliptic functions, each section's pole
    /// by the theta-function series.
    public static func halfBand(coefficients: Int, transition: Double) -> [Double] {
        let k = pow(tan((1 - 2 * transition) * .pi / 4), 2)
        let root = pow(1 - k * k, 0.25)
        let e = 0.5 * (1 - root) / (1 + root)
        let q = e + 2 * pow(e, 5) + 15 * pow(e, 9) + 150 * pow(e, 13)
        let order = Double(2 * coefficients + 1)
        return (1...coefficients).map { index in
            let c = Double(index)
            var numerator = 0.0, denominator = 1.0
            for j in 0..<20 {
                let sign = j % 2 == 0 ? 1.0 : -1.0, jj = Double(j)
                numerator += sign * pow(q, jj * (jj + 1)) * sin((2 * jj + 1) * c * .pi / order)
                if j > 0 { denominator += 2 * sign * pow(q, jj * jj) * cos(2 * jj * c * .pi / order) }
            }
            let w = 2 * pow(q, 0.25) * numerator / denominator, w2 = w * w
            let x = ((1 - w2 * k) * (1 - w2 / k)).squareRoot() / (1 + w2)
            return (1 - x) / (1 + x)
        }
    }
}

/// The running state of a pair of channels through an `OversamplerDesign`, worked a block at a
/// time: the block's base frames in, its four high-rate phases per channel, the decimated block.
///
/// A caller writes up to `blockFrames` frames per channel at `input(_:)`, calls
/// `interpolate(frames:)`, changes the high-rate samples at `phases(_:)` as it likes, then calls
/// `decimate(frames:)`, which leaves the base frames at `output(_:)`. A lone channel runs as a
/// pair with a silent second.
public struct OversamplerPair {
    /// The most frames a block holds.
    public static let blockFrames = 256
    private let stages: UnsafeMutablePointer<aurender_halfband_stages>
    private let up: UnsafeMutablePointer<aurender_halfband_state>
    private let down: UnsafeMutablePointer<aurender_halfband_state>
    private let inputs: UnsafeMutablePointer<UnsafePointer<Float>?>
    private let outputs: UnsafeMutablePointer<UnsafeMutablePointer<Float>?>
    private let highs: UnsafeMutablePointer<UnsafeMutablePointer<Float>?>
    private let storage: UnsafeMutablePointer<Float>

    /// Makes the state (allocating); `release()` frees it.
    public init(design: OversamplerDesign) {
        stages = .allocate(capacity: 1)
        stages.initialize(to: design.stages)
        up = .allocate(capacity: 1)
        down = .allocate(capacity: 1)
        inputs = .allocate(capacity: 2)
        outputs = .allocate(capacity: 2)
        highs = .allocate(capacity: 8)
        let block = Self.blockFrames
        storage = .allocate(capacity: 12 * block)
        for channel in 0..<2 {
            inputs[channel] = UnsafePointer(storage + channel * block)
            outputs[channel] = storage + (2 + channel) * block
        }
        for phase in 0..<8 { highs[phase] = storage + (4 + phase) * block }
        reset()
    }

    /// Frees the state.
    public func release() {
        stages.deallocate()
        up.deallocate()
        down.deallocate()
        inputs.deallocate()
        outputs.deallocate()
        highs.deallocate()
        storage.deallocate()
    }

    /// Clears the history.
    public func reset() {
        up.initialize(to: aurender_halfband_state())
        down.initialize(to: aurender_halfband_state())
        storage.initialize(repeating: 0, count: 12 * Self.blockFrames)
    }

    /// Where the caller writes channel `channel`'s (0 or 1) block of base frames.
    public func input(_ channel: Int) -> UnsafeMutablePointer<Float> { UnsafeMutablePointer(mutating: inputs[channel]!) }

    /// Where `decimate(frames:)` leaves channel `channel`'s block of base frames.
    public func output(_ channel: Int) -> UnsafeMutablePointer<Float> { outputs[channel]! }

    /// Channel `channel`'s four phases, for a kernel: `phases(c)[p][i]` is high-rate sample 4i + p.
    public func phases(_ channel: Int) -> UnsafePointer<UnsafeMutablePointer<Float>?> { UnsafePointer(highs + 4 * channel) }

    /// Interpolates the `frames` base frames at the inputs into the phases.
    public func interpolate(frames: Int) {
        aurender_halfband_up4(inputs, frames, stages, up, highs)
    }

    /// Decimates the phases' `frames` high-rate frames into the outputs.
    public func decimate(frames: Int) {
        highs.withMemoryRebound(to: UnsafePointer<Float>?.self, capacity: 8) { phases in
            aurender_halfband_down4(phases, frames, stages, down, outputs)
        }
    }
}
