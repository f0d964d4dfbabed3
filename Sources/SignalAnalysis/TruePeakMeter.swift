import AudioDSP
import CAudioKernels

/// A stream's sample peak and true peak (ITU-R BS.1770-4 Annex 2, as libebur128 measures it),
/// with the limiter's oversampling filter (`TruePeakInterpolator`), through
/// `aurender_true_peak_scan`.
///
/// Cheap exactly, not approximately: an interpolated point's magnitude is at most its phase's
/// sum of absolute coefficients times the largest magnitude among the samples it reads, so a
/// group of 16 frames of a channel whose largest magnitude, over the group and the filter's
/// reach before it, times the largest such sum (`bound`) cannot pass the peak so far is not
/// interpolated; the result is the one interpolating everything gives (`skipsQuietGroups` false).
final class TruePeakMeter {
    let channelCount: Int
    let interpolator: TruePeakInterpolator
    /// Whether quiet groups are skipped; false interpolates every frame (for tests).
    let skipsQuietGroups: Bool
    private(set) var samplePeak: Float = 0
    /// The largest interpolated magnitude so far (not counting the samples themselves).
    private(set) var interpolatedPeak: Float = 0
    /// Groups of a channel's frames not interpolated because they were too quiet to raise the true peak.
    private(set) var groupsSkipped = 0
    /// The largest sum of absolute coefficients of a phase, a little over, for float rounding.
    let bound: Float
    /// The samples an interpolated point reads before the newest, `taps - 1`.
    private let reach: Int
    /// A block's first frames, scanned from a channel's row after its history: `reach` rounded
    /// up to the kernel's groups of 16, so the rest of the block is scanned where it lies.
    private let headFrames: Int
    /// Per channel, the last `reach` frames, then room for the head of a block.
    private let scratch: UnsafeMutablePointer<Float>
    private let coefficients: UnsafeMutablePointer<Float>

    /// A meter for `channelCount` channels at `sampleRate`.
    init(channelCount: Int, sampleRate: Double, skipsQuietGroups: Bool = true) {
        self.channelCount = channelCount
        self.skipsQuietGroups = skipsQuietGroups
        interpolator = TruePeakInterpolator(sampleRate: sampleRate)
        reach = interpolator.tapsPerPhase - 1
        headFrames = (reach + 15) / 16 * 16
        let sums = interpolator.phases.map { $0.reduce(0) { $0 + abs($1) } }
        bound = max(1, sums.max() ?? 1) * (1 + 1e-5)
        scratch = .allocate(capacity: max(1, channelCount * (reach + headFrames)))
        scratch.initialize(repeating: 0, count: max(1, channelCount * (reach + headFrames)))
        let flattened = interpolator.phases.flatMap { $0 }
        coefficients = .allocate(capacity: max(1, flattened.count))
        coefficients.initialize(repeating: 0, count: max(1, flattened.count))
        coefficients.update(from: flattened, count: flattened.count)
    }

    deinit {
        scratch.deallocate()
        coefficients.deallocate()
    }

    /// The true peak so far: the largest interpolated point or sample; linear.
    var truePeak: Float { max(interpolatedPeak, samplePeak) }

    /// Adds `frames` frames of `channels`.
    func add(_ channels: ChannelPointers, frames: Int) {
        let head = min(frames, headFrames)
        for channel in 0..<channelCount {
            let row = scratch + channel * (reach + headFrames), block = channels[channel]!
            (row + reach).update(from: block, count: head)
            scan(row + reach, frames: head)
            scan(block + head, frames: frames - head)
            if frames >= reach {
                row.update(from: block + frames - reach, count: reach)
            } else {
                for frame in 0..<reach { row[frame] = row[frame + frames] }
            }
        }
    }

    /// Scans `frames` frames from `newest`, whose `reach` frames before are readable.
    private func scan(_ newest: UnsafePointer<Float>, frames: Int) {
        guard frames > 0 else { return }
        groupsSkipped += aurender_true_peak_scan(newest, frames, coefficients, Int32(interpolator.phases.count),
                                                 Int32(interpolator.tapsPerPhase), bound, skipsQuietGroups ? 1 : 0,
                                                 &samplePeak, &interpolatedPeak)
    }
}
