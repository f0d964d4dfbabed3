#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CAudioKernels

/// A brick-wall limiter on true peaks: the signal comes out `latency` frames late, multiplied
/// by a gain that keeps every point of its 8× reconstruction (`ReconstructionFilter`, flat to
/// 0.45 of the rate) and of BS.1770-4's 4× interpolation (`TruePeakInterpolator`, libebur128's)
/// at or under the ceiling: the first so that longer meters (FFmpeg's `ebur128`, a long
/// windowed sinc) read the output under it, the second because BS.1770-4's short filter passes
/// images of near-Nyquist energy and can read a point higher than the reconstruction does.
///
/// For each frame the gain it needs is ceiling ÷ its true peak (1 at most). A sliding minimum
/// of that over the lookahead plus the interpolator's reach on both sides, then a release that
/// lets the gain rise only gradually, then a moving average over the lookahead, give a gain
/// that starts falling a lookahead before a peak and is flat, at exactly the peak's need,
/// across every sample the peak's interpolation reads: so the output's interpolated points
/// near an isolated peak reach the ceiling and no further, and the gain never steps.
/// Each step is a fixed amount of work (the minimum is van Herk and Gil-Werman's), nothing is
/// allocated after init, and the output does not depend on how the stream is cut into blocks.
public final class TruePeakLimiter {
    /// Channels limited together (one gain for all, so the image does not move).
    public let channelCount: Int
    /// Frames between a sample going in and coming out.
    public let latency: Int
    /// The reconstruction whose points are held under the ceiling.
    public let filter: ReconstructionFilter
    /// The reconstruction as one polyphase filter: its reach and bounds.
    public let interpolator: TruePeakInterpolator
    /// BS.1770-4's interpolator at the stream's rate, whose points are held under the ceiling too.
    public let standard: TruePeakInterpolator
    /// The frames over which the gain falls before a peak (the lookahead).
    public let attackFrames: Int

    private let historyLength: Int
    /// Per channel, the last `historyLength` input samples twice over, so any run of them is contiguous.
    private let history: UnsafeMutablePointer<Float>
    private var position = 0
    /// The reconstruction's stages, as `aurender_reconstructed_peaks` reads them.
    private var stages: aurender_reconstruction
    /// BS.1770-4's phases one after another, each oldest tap first, as `aurender_interpolated_peaks` reads them.
    private let standardCoefficients: UnsafeMutablePointer<Float>
    /// Per frame of the block in hand: its largest interpolated magnitude, whether any sample
    /// its points read could reach the ceiling, and the gain its delayed frame gets.
    private let blockPeaks: UnsafeMutablePointer<Float>
    private let blockLoud: UnsafeMutablePointer<Bool>
    private let blockGains: UnsafeMutablePointer<Float>
    /// Frames a block holds: a block's peaks, gains and products are each found in one pass.
    private static let blockFrames = 256
    /// The sliding minimum, the release and the average (`aurender_limiter_gains`), over
    /// rings allocated here.
    private var gainPath: aurender_limiter_gain
    /// Frames in a row under `ceiling / quietBound`; once the interpolator's whole window is, no
    /// interpolated point can reach the ceiling.
    private var quietFrames = 0
    /// The largest sum of absolute coefficients of a phase (1 when there are none).
    private let quietBound: Float

    /// The ceiling as a linear amplitude; a change counts every frame as loud again.
    public var ceiling: Double {
        get { gainPath.ceiling }
        set {
            gainPath.ceiling = newValue
            quietFrames = 0
        }
    }

    /// How far the released gain moves toward its target each frame (1 − e^(−1/release frames)).
    public var releaseStep: Double {
        get { gainPath.release_step }
        set { gainPath.release_step = newValue }
    }

    /// A limiter for `channelCount` channels at `sampleRate`, at `ceiling` (linear), with a
    /// lookahead of `attackFrames` frames and a release time constant of `releaseFrames`; the
    /// reconstruction's coefficients are designed here, once.
    public init(channelCount: Int, sampleRate: Double, ceiling: Double, attackFrames: Int, releaseFrames: Double) {
        self.channelCount = channelCount
        self.attackFrames = max(1, attackFrames)
        filter = ReconstructionFilter()
        stages = filter.stages
        interpolator = filter.interpolator
        standard = TruePeakInterpolator(sampleRate: sampleRate)
        let flattened = standard.phases.flatMap { $0 }
        standardCoefficients = .allocate(capacity: max(1, flattened.count))
        standardCoefficients.initialize(repeating: 0, count: max(1, flattened.count))
        standardCoefficients.update(from: flattened, count: flattened.count)
        latency = 2 * interpolator.delay + self.attackFrames - 1
        var length = 1
        while length < max(latency + Self.blockFrames, interpolator.tapsPerPhase + 3) { length *= 2 }
        historyLength = length
        history = .allocate(capacity: 2 * length * channelCount)
        history.initialize(repeating: 0, count: 2 * length * channelCount)
        quietBound = max(1, (interpolator.phases + standard.phases).map { $0.reduce(0) { $0 + abs($1) } }.max() ?? 1)
        blockPeaks = .allocate(capacity: Self.blockFrames)
        blockPeaks.initialize(repeating: 0, count: Self.blockFrames)
        blockLoud = .allocate(capacity: Self.blockFrames)
        blockLoud.initialize(repeating: false, count: Self.blockFrames)
        blockGains = .allocate(capacity: Self.blockFrames)
        blockGains.initialize(repeating: 1, count: Self.blockFrames)
        let window = self.attackFrames + 2 * interpolator.delay
        gainPath = aurender_limiter_gain(
            needs: .allocate(capacity: window), suffix: .allocate(capacity: window), window: window, slot: 0, prefix: 1,
            unity_needs: 0, released: .allocate(capacity: self.attackFrames), attack_frames: self.attackFrames,
            released_position: 0, released_sum: 0, released_gain: 1, release_step: Self.releaseStep(frames: releaseFrames),
            ceiling: ceiling, unity_frames: 0)
        gainPath.needs.initialize(repeating: 1, count: window)
        gainPath.suffix.initialize(repeating: 1, count: window)
        gainPath.released.initialize(repeating: 1, count: self.attackFrames)
        reset()
    }

    deinit {
        history.deallocate()
        standardCoefficients.deallocate()
        blockPeaks.deallocate()
        blockLoud.deallocate()
        blockGains.deallocate()
        gainPath.needs.deallocate()
        gainPath.suffix.deallocate()
        gainPath.released.deallocate()
    }

    /// The per-frame release step for a time constant of `frames` frames.
    public static func releaseStep(frames: Double) -> Double { frames > 0 ? 1 - exp(-1 / frames) : 1 }

    /// Back to silence and unity gain, as when made.
    public func reset() {
        history.update(repeating: 0, count: 2 * historyLength * channelCount)
        position = 0
        gainPath.needs.update(repeating: 1, count: gainPath.window)
        gainPath.suffix.update(repeating: 1, count: gainPath.window)
        gainPath.slot = 0
        gainPath.prefix = 1
        gainPath.unity_needs = 0
        gainPath.released.update(repeating: 1, count: attackFrames)
        gainPath.released_sum = Double(attackFrames)
        gainPath.released_position = 0
        gainPath.released_gain = 1
        gainPath.unity_frames = 0
        quietFrames = 0
    }

    /// Limits `frames` frames of `channels` from `offset` in place: each sample is replaced by
    /// the limited sample `latency` frames before it (silence at first).
    ///
    /// A block at a time: its samples go into the history, its interpolated peaks are found
    /// together, then the gains, then the products. While every sample an interpolated point
    /// reads is quiet enough that no point can reach the ceiling (its magnitude times the largest
    /// sum of a phase's absolute coefficients is under it), the frame needs no gain and is not
    /// interpolated; once the gain path has settled at unity it is not run either.
    public func process(_ channels: UnsafePointer<UnsafeMutablePointer<Float>>, offset: Int = 0, frames: Int) {
        var done = 0
        while done < frames {
            let count = min(frames - done, Self.blockFrames, historyLength - position)
            processBlock(channels, from: offset + done, frames: count)
            done += count
        }
    }

    /// One block of `process`, which lies in the history without wrapping around its end.
    private func processBlock(_ channels: UnsafePointer<UnsafeMutablePointer<Float>>, from first: Int, frames: Int) {
        let stride = 2 * historyLength
        if rememberAndFindThePeaks(channels, from: first, frames: frames) || !isSettled {
            aurender_limiter_gains(&gainPath, blockPeaks, blockLoud, frames, blockGains)
        } else {
            passSettled(frames: frames)
        }
        for channel in 0..<channelCount {
            let delayed = history + channel * stride + position + historyLength - latency
            let output = channels[channel] + first
            for frame in 0..<frames { output[frame] = delayed[frame] * blockGains[frame] }
        }
        position = (position + frames) & (historyLength - 1)
    }

    /// Copies a block's samples into the history, marks in `blockLoud` the frames whose points
    /// could reach the ceiling, and, when there are any, finds their interpolated peaks into
    /// `blockPeaks` (which holds each frame's largest magnitude until then; a quiet frame's
    /// peak is left 0, since a quiet frame needs no gain whatever its peak); says whether it did.
    private func rememberAndFindThePeaks(_ channels: UnsafePointer<UnsafeMutablePointer<Float>>, from first: Int,
                                         frames: Int) -> Bool {
        let taps = interpolator.tapsPerPhase, stride = 2 * historyLength
        let quietLevel = Float(ceiling) / quietBound
        let levels = blockPeaks
        levels.update(repeating: 0, count: frames)
        for channel in 0..<channelCount {
            let source = channels[channel] + first, ring = history + channel * stride + position
            ring.update(from: source, count: frames)
            (ring + historyLength).update(from: source, count: frames)
            for frame in 0..<frames {
                let magnitude = abs(source[frame])
                levels[frame] = magnitude > levels[frame] ? magnitude : levels[frame]
            }
        }
        // A frame is loud while fewer than `taps` frames have passed since the last one at or
        // over the quiet level.
        guard aurender_mark_loud(levels, frames, quietLevel, taps, &quietFrames, blockLoud) else { return false }
        blockPeaks.update(repeating: 0, count: frames)
        // Only loud frames' peaks are read: runs of groups of frames holding a loud one, joined
        // across a quiet group, are interpolated.
        let groups = (frames + Self.group - 1) / Self.group
        var group = 0
        while group < groups {
            guard isLoud(group: group, frames: frames) else {
                group += 1
                continue
            }
            let first = group
            var last = group
            group += 1
            while group < groups, group - last <= 2 {
                if isLoud(group: group, frames: frames) { last = group }
                group += 1
            }
            let start = first * Self.group, end = min(frames, (last + 1) * Self.group)
            for channel in 0..<channelCount {
                let newest = history + channel * stride + position + historyLength + start
                aurender_reconstructed_peaks(newest, end - start, &stages, blockPeaks + start)
                // BS.1770-4's points between the same samples, which its shorter reach reads nearer the newest.
                aurender_interpolated_peaks(newest - (interpolator.delay - standard.delay), end - start, standard.delay,
                                            standardCoefficients, Int32(standard.phases.count), Int32(standard.tapsPerPhase),
                                            blockPeaks + start)
            }
        }
        return true
    }

    /// Whether any frame of group `group` (of `group` frames each) among the block's `frames` is loud.
    private func isLoud(group: Int, frames: Int) -> Bool {
        let first = group * Self.group
        guard first + Self.group <= frames else { return (first..<frames).contains { blockLoud[$0] } }
        return UnsafeRawPointer(blockLoud + first).loadUnaligned(as: UInt64.self) != 0
    }

    /// Frames whose loudness is checked at once (eight `Bool`s read as one word).
    private static let group = 8

    /// Whether every need in the window and every gain in the average is exactly 1, so frames
    /// that need none leave the gain path as it is.
    private var isSettled: Bool {
        gainPath.unity_needs >= gainPath.window && gainPath.released_gain == 1 && gainPath.unity_frames >= attackFrames
    }

    /// A settled gain path over a block of frames that need no gain: every frame gets the
    /// average's unchanging gain, and the path moves on as `aurender_limiter_gains` would leave
    /// it (every need in its blocks is 1, so a block that ends leaves minima of 1).
    private func passSettled(frames: Int) {
        blockGains.update(repeating: Float(gainPath.released_sum * (1 / Double(attackFrames))), count: frames)
        if gainPath.slot + frames >= gainPath.window { gainPath.suffix.update(repeating: 1, count: gainPath.window) }
        gainPath.slot = (gainPath.slot + frames) % gainPath.window
        gainPath.unity_needs += frames
        gainPath.released_position = (gainPath.released_position + frames) % attackFrames
        gainPath.unity_frames += frames
    }
}
