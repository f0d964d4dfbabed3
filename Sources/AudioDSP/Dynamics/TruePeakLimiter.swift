#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A brick-wall limiter on true peaks: the signal comes out `latency` frames late, multiplied
/// by a gain that keeps every oversampled peak (`TruePeakInterpolator`) at or under the ceiling.
///
/// For each frame the gain it needs is ceiling ÷ its true peak (1 at most). A sliding minimum
/// of that over the lookahead plus the interpolator's reach on both sides, then a release that
/// lets the gain rise only gradually, then a moving average over the lookahead, give a gain
/// that starts falling a lookahead before a peak and is flat, at exactly the peak's need,
/// across every sample the peak's interpolation reads: so the output's interpolated points
/// near an isolated peak reach the ceiling and no further, and the gain never steps.
/// Each step is a fixed amount of work (the minimum is a monotonic queue), nothing is
/// allocated after init, and the output does not depend on how the stream is cut into blocks.
public final class TruePeakLimiter {
    /// Channels limited together (one gain for all, so the image does not move).
    public let channelCount: Int
    /// Frames between a sample going in and coming out.
    public let latency: Int
    /// The interpolator whose peaks are held under the ceiling.
    public let interpolator: TruePeakInterpolator
    /// The frames over which the gain falls before a peak (the lookahead).
    public let attackFrames: Int

    private let reach: Int
    private let historyLength: Int
    /// Per channel, the last `historyLength` input samples twice over, so any run of them is contiguous.
    private let history: UnsafeMutablePointer<Float>
    private var position = 0
    /// Per phase, its coefficients four at a time (the oldest first, zeros before them to fill
    /// the first four), so each interpolated point is a few vector multiply-adds and one sum.
    private let phaseCoefficients: UnsafeMutablePointer<SIMD4<Float>>
    /// Vectors of four coefficients a phase.
    private let chunksPerPhase: Int
    /// The sliding minimum's queue: frame numbers and gains, in a ring of a power of two.
    private let queueFrames: UnsafeMutablePointer<Int>
    private let queueGains: UnsafeMutablePointer<Double>
    private let queueCapacity: Int
    private var queueHead = 0
    private var queueCount = 0
    private let windowLength: Int
    /// The last `attackFrames` released gains, in a ring, and their sum.
    private let released: UnsafeMutablePointer<Double>
    private var releasedSum: Double
    private var releasedPosition = 0
    private var releasedGain = 1.0
    private var frame = 0
    /// Frames in a row under `ceiling / quietBound`; once the interpolator's whole window is, no
    /// interpolated point can reach the ceiling.
    private var quietFrames = 0
    /// The largest sum of absolute coefficients of a phase (1 when there are none).
    private let quietBound: Float

    /// The ceiling as a linear amplitude; a change counts every frame as loud again.
    public var ceiling: Double { didSet { quietFrames = 0 } }
    /// How far the released gain moves toward its target each frame (1 − e^(−1/release frames)).
    public var releaseStep: Double

    /// A limiter for `channelCount` channels at `sampleRate`, at `ceiling` (linear), with a
    /// lookahead of `attackFrames` frames and a release time constant of `releaseFrames`.
    public init(channelCount: Int, sampleRate: Double, ceiling: Double, attackFrames: Int, releaseFrames: Double) {
        self.channelCount = channelCount
        self.ceiling = ceiling
        self.attackFrames = max(1, attackFrames)
        interpolator = TruePeakInterpolator(sampleRate: sampleRate)
        reach = interpolator.delay
        latency = interpolator.delay + reach + self.attackFrames - 1
        windowLength = self.attackFrames + 2 * reach
        releaseStep = Self.releaseStep(frames: releaseFrames)
        var length = 1
        while length < max(latency + 1, interpolator.tapsPerPhase + 3) { length *= 2 }
        historyLength = length
        history = .allocate(capacity: 2 * length * channelCount)
        history.initialize(repeating: 0, count: 2 * length * channelCount)
        quietBound = max(1, interpolator.phases.map { $0.reduce(0) { $0 + abs($1) } }.max() ?? 1)
        let chunks = (interpolator.tapsPerPhase + 3) / 4
        chunksPerPhase = chunks
        phaseCoefficients = .allocate(capacity: max(1, chunks * interpolator.phases.count))
        phaseCoefficients.initialize(repeating: .zero, count: max(1, chunks * interpolator.phases.count))
        let padding = chunks * 4 - interpolator.tapsPerPhase
        for (phase, coefficients) in interpolator.phases.enumerated() {
            for (tap, coefficient) in coefficients.enumerated() {
                phaseCoefficients[phase * chunks + (padding + tap) / 4][(padding + tap) % 4] = coefficient
            }
        }
        var capacity = 1
        while capacity < windowLength + 1 { capacity *= 2 }
        queueCapacity = capacity
        queueFrames = .allocate(capacity: queueCapacity)
        queueFrames.initialize(repeating: 0, count: queueCapacity)
        queueGains = .allocate(capacity: queueCapacity)
        queueGains.initialize(repeating: 1, count: queueCapacity)
        released = .allocate(capacity: self.attackFrames)
        released.initialize(repeating: 1, count: self.attackFrames)
        releasedSum = Double(self.attackFrames)
    }

    deinit {
        history.deallocate()
        phaseCoefficients.deallocate()
        queueFrames.deallocate()
        queueGains.deallocate()
        released.deallocate()
    }

    /// How near its target the released gain snaps to it: far under what a Float sample
    /// resolves, so a release ends at exactly unity rather than approaching it for ever. A
    /// stored constant, so the loop reads no global.
    private let closeEnough = 1e-9

    /// The per-frame release step for a time constant of `frames` frames.
    public static func releaseStep(frames: Double) -> Double { frames > 0 ? 1 - exp(-1 / frames) : 1 }

    /// Back to silence and unity gain, as when made.
    public func reset() {
        history.update(repeating: 0, count: 2 * historyLength * channelCount)
        position = 0
        queueHead = 0
        queueCount = 0
        released.update(repeating: 1, count: attackFrames)
        releasedSum = Double(attackFrames)
        releasedPosition = 0
        releasedGain = 1
        frame = 0
        quietFrames = 0
    }

    /// Limits `frames` frames of `channels` from `offset` in place: each sample is replaced by
    /// the limited sample `latency` frames before it (silence at first).
    ///
    /// While every sample an interpolated point reads is quiet enough that no point can reach
    /// the ceiling (its magnitude times the largest sum of a phase's absolute coefficients is
    /// under it), the points are not computed: the need is 1 either way.
    public func process(_ channels: UnsafePointer<UnsafeMutablePointer<Float>>, offset: Int = 0, frames: Int) {
        let taps = interpolator.tapsPerPhase, mask = historyLength - 1, stride = 2 * historyLength
        let chunks = chunksPerPhase, phaseCount = interpolator.phases.count
        let quietLevel = Float(ceiling) / quietBound
        let inverseAttack = 1 / Double(attackFrames)
        for index in offset..<(offset + frames) {
            var peak: Float = 0
            var loud = false
            for channel in 0..<channelCount {
                let sample = channels[channel][index]
                let ring = history + channel * stride
                ring[position] = sample
                ring[position + historyLength] = sample
                if abs(sample) >= quietLevel { loud = true }
            }
            if loud { quietFrames = 0 } else { quietFrames += 1 }
            if quietFrames < taps {
                for channel in 0..<channelCount {
                    let newest = history + channel * stride + position + historyLength
                    peak = max(peak, abs(newest[-reach]))
                    let window = UnsafeRawPointer(newest - (chunks * 4 - 1))
                    for phase in 0..<phaseCount {
                        let coefficients = phaseCoefficients + phase * chunks
                        var sums = SIMD4<Float>.zero
                        for chunk in 0..<chunks {
                            sums += coefficients[chunk] * window.loadUnaligned(fromByteOffset: 16 * chunk, as: SIMD4<Float>.self)
                        }
                        peak = max(peak, abs(sums.sum()))
                    }
                }
            }
            pushNeed(Double(peak) > ceiling ? ceiling / Double(peak) : 1)
            let gain = Float(releasedSum * inverseAttack)
            let delayed = (position + historyLength - latency) & mask
            for channel in 0..<channelCount {
                channels[channel][index] = history[channel * stride + delayed] * gain
            }
            position = (position + 1) & mask
            frame += 1
        }
    }

    /// Adds the gain the newest peak needs to the sliding minimum, releases toward the
    /// window's minimum, and moves the average on by one frame.
    @inline(__always)
    private func pushNeed(_ need: Double) {
        let mask = queueCapacity - 1
        while queueCount > 0, queueGains[(queueHead + queueCount - 1) & mask] >= need { queueCount -= 1 }
        let tail = (queueHead + queueCount) & mask
        queueFrames[tail] = frame
        queueGains[tail] = need
        queueCount += 1
        if queueFrames[queueHead] <= frame - windowLength {
            queueHead = (queueHead + 1) & mask
            queueCount -= 1
        }
        let minimum = queueGains[queueHead]
        releasedGain = minimum - releasedGain < closeEnough ? minimum : releasedGain + (minimum - releasedGain) * releaseStep
        releasedSum += releasedGain - released[releasedPosition]
        released[releasedPosition] = releasedGain
        releasedPosition = releasedPosition + 1 == attackFrames ? 0 : releasedPosition + 1
    }
}
