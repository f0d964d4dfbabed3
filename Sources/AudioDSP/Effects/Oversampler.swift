import CAudioKernels
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
///
/// Both run as polyphase filters (`aurender_polyphase_up`, `aurender_polyphase_down` in
/// `CAudioKernels`): four sub-filters of about a quarter of the taps each, so the interpolator
/// never multiplies the stuffed zeros and the decimator computes only the samples it keeps.
public struct OversamplerDesign: Sendable {
    /// The factor, fixed: four.
    public static let factor = 4
    /// The interpolator's taps at the high rate (gain four, for the zeros stuffed between samples), by phase.
    public let upPhases: [[Float]]
    /// The decimator's taps at the high rate, newest sample first.
    public let down: [Float]
    /// Base frames the path runs late, counting a half high-rate sample between the filters.
    public let latency: Int
    /// Taps per phase of the interpolator and of the decimator (the longest phase's).
    let upCount: Int, downCount: Int
    /// The interpolator's four phases, `upCount` taps each, oldest first, zeros before a shorter phase.
    let upKernel: [Float]
    /// The decimator split by the phase of the high-rate sample each tap meets, `downCount` taps each, oldest first.
    let downKernel: [Float]

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
        // High-rate sample 4n + p is Σ up[4m + p]·x[n − m]; base frame n is Σ down[j]·s[4n + 3 − j],
        // and s[4n + 3 − j] is phase p = 3 − j mod 4 of frame n − m for j = 4m + 3 − p.
        let upCount = (upLength + 3) / 4, downCount = (downLength + 3) / 4
        self.upCount = upCount
        self.downCount = downCount
        var upKernel = [Float](repeating: 0, count: 4 * upCount), downKernel = [Float](repeating: 0, count: 4 * downCount)
        for phase in 0..<4 {
            for k in 0..<upCount where upCount - 1 - k < upPhases[phase].count { upKernel[phase * upCount + k] = upPhases[phase][upCount - 1 - k] }
            for k in 0..<downCount {
                let tap = 4 * (downCount - 1 - k) + 3 - phase
                if tap < down.count { downKernel[phase * downCount + k] = down[tap] }
            }
        }
        self.upKernel = upKernel
        self.downKernel = downKernel
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

/// The running state of one channel through an `OversamplerDesign`, worked a block at a time:
/// the block's base frames after the interpolator's history, the block's four high-rate phases
/// after the decimator's history, and the decimated block.
///
/// A caller writes up to `blockFrames` frames at `input`, calls `interpolate(frames:)`, changes
/// the high-rate samples at `phase(_:)` as it likes, then calls `decimate(frames:)`, which
/// leaves the base frames at `output` and keeps the history for the next block.
public struct OversamplerChannel {
    /// The most frames a block holds.
    public static let blockFrames = 256
    private let upKernel: UnsafeMutablePointer<Float>
    private let downKernel: UnsafeMutablePointer<Float>
    private let upCount: Int32
    private let downCount: Int32
    private let inputs: UnsafeMutablePointer<Float>
    private let highs: UnsafeMutablePointer<Float>
    private let writeHighs: UnsafeMutablePointer<UnsafeMutablePointer<Float>?>
    private let readHighs: UnsafeMutablePointer<UnsafePointer<Float>?>
    /// Where the caller writes a block's base frames.
    public let input: UnsafeMutablePointer<Float>
    /// Where `decimate(frames:)` leaves the block's base frames.
    public let output: UnsafeMutablePointer<Float>

    /// Makes the state (allocating); `release()` frees it.
    public init(design: OversamplerDesign) {
        upCount = Int32(design.upCount)
        downCount = Int32(design.downCount)
        upKernel = .allocate(capacity: design.upKernel.count)
        upKernel.initialize(from: design.upKernel, count: design.upKernel.count)
        downKernel = .allocate(capacity: design.downKernel.count)
        downKernel.initialize(from: design.downKernel, count: design.downKernel.count)
        let upHistory = design.upCount - 1, phaseLength = design.downCount - 1 + Self.blockFrames
        inputs = .allocate(capacity: upHistory + Self.blockFrames)
        input = inputs + upHistory
        highs = .allocate(capacity: 4 * phaseLength)
        writeHighs = .allocate(capacity: 4)
        readHighs = .allocate(capacity: 4)
        for phase in 0..<4 {
            readHighs[phase] = UnsafePointer(highs + phase * phaseLength)
            writeHighs[phase] = highs + phase * phaseLength + design.downCount - 1
        }
        output = .allocate(capacity: Self.blockFrames)
        reset()
    }

    /// Frees the state.
    public func release() {
        upKernel.deallocate()
        downKernel.deallocate()
        inputs.deallocate()
        highs.deallocate()
        writeHighs.deallocate()
        readHighs.deallocate()
        output.deallocate()
    }

    /// Clears the history.
    public func reset() {
        inputs.initialize(repeating: 0, count: Int(upCount) - 1 + Self.blockFrames)
        highs.initialize(repeating: 0, count: 4 * (Int(downCount) - 1 + Self.blockFrames))
        output.initialize(repeating: 0, count: Self.blockFrames)
    }

    /// The block's four phases, for a kernel.
    public var phases: UnsafePointer<UnsafeMutablePointer<Float>?> { UnsafePointer(writeHighs) }

    /// The block's high-rate samples of `phase` (0 to 3): sample 4i + phase at index i.
    @inline(__always)
    public func phase(_ phase: Int) -> UnsafeMutablePointer<Float> { writeHighs[phase]! }

    /// Interpolates the `frames` base frames at `input` into the four phases.
    public func interpolate(frames: Int) {
        aurender_polyphase_up(inputs, frames, upKernel, upCount, writeHighs)
        let history = Int(upCount) - 1
        memmove(inputs, inputs + frames, history * MemoryLayout<Float>.size)
    }

    /// Decimates the four phases' `frames` high-rate frames into `output`.
    public func decimate(frames: Int) {
        aurender_polyphase_down(readHighs, frames, downKernel, downCount, output)
        let history = Int(downCount) - 1
        for phase in 0..<4 {
            let start = UnsafeMutableRawPointer(mutating: readHighs[phase]!)
            memmove(start, start + frames * MemoryLayout<Float>.size, history * MemoryLayout<Float>.size)
        }
    }
}
