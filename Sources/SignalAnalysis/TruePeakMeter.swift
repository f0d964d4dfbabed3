import AudioDSP
import CAudioKernels

/// A stream's sample peak and true peak (ITU-R BS.1770-4 Annex 2, as libebur128 measures it),
/// with the limiter's oversampling filter (`TruePeakInterpolator`, `aurender_interpolated_peaks`).
///
/// Cheap exactly, not approximately: an interpolated point's magnitude is at most its phase's
/// sum of absolute coefficients times the largest magnitude among the samples it reads, so a
/// piece of the stream whose largest magnitude, over the piece and the filter's reach before it,
/// times the largest such sum (`bound`) cannot pass the true peak so far is not interpolated;
/// the result is the one interpolating everything gives (`skipsQuietPieces` false).
final class TruePeakMeter {
    let channelCount: Int
    let interpolator: TruePeakInterpolator
    /// Whether quiet pieces are skipped; false interpolates every frame (for tests).
    let skipsQuietPieces: Bool
    private(set) var samplePeak: Float = 0
    /// The largest interpolated magnitude so far (not counting the samples themselves).
    private(set) var interpolatedPeak: Float = 0
    /// Pieces not interpolated because they were too quiet to raise the true peak.
    private(set) var piecesSkipped = 0
    /// The largest sum of absolute coefficients of a phase, a little over, for float rounding.
    let bound: Float
    /// The samples an interpolated point reads before the newest, `taps - 1`.
    private let reach: Int
    /// Per channel, the last `reach` frames, then room for a piece: the kernel's input.
    private let scratch: UnsafeMutablePointer<Float>
    private let coefficients: UnsafeMutablePointer<Float>
    private let peaks: UnsafeMutablePointer<Float>
    /// Each channel's first frame of the piece in hand, for the kernels.
    private let cursors: UnsafeMutablePointer<UnsafePointer<Float>?>
    /// The largest magnitude in the history (the last `reach` frames of every channel).
    private var historyPeak: Float = 0

    /// Frames interpolated (or skipped) together.
    static let pieceFrames = 256

    /// A meter for `channelCount` channels at `sampleRate`.
    init(channelCount: Int, sampleRate: Double, skipsQuietPieces: Bool = true) {
        self.channelCount = channelCount
        self.skipsQuietPieces = skipsQuietPieces
        interpolator = TruePeakInterpolator(sampleRate: sampleRate)
        reach = interpolator.tapsPerPhase - 1
        let sums = interpolator.phases.map { $0.reduce(0) { $0 + abs($1) } }
        bound = max(1, sums.max() ?? 1) * (1 + 1e-5)
        scratch = .allocate(capacity: max(1, channelCount) * (reach + Self.pieceFrames))
        scratch.initialize(repeating: 0, count: max(1, channelCount) * (reach + Self.pieceFrames))
        let flattened = interpolator.phases.flatMap { $0 }
        coefficients = .allocate(capacity: max(1, flattened.count))
        coefficients.initialize(repeating: 0, count: max(1, flattened.count))
        coefficients.update(from: flattened, count: flattened.count)
        peaks = .allocate(capacity: Self.pieceFrames)
        peaks.initialize(repeating: 0, count: Self.pieceFrames)
        cursors = .allocate(capacity: max(1, channelCount))
        cursors.initialize(repeating: nil, count: max(1, channelCount))
    }

    deinit {
        scratch.deallocate()
        coefficients.deallocate()
        peaks.deallocate()
        cursors.deallocate()
    }

    /// The true peak so far: the largest interpolated point or sample; linear.
    var truePeak: Float { max(interpolatedPeak, samplePeak) }

    /// Adds `frames` frames of `channels`.
    func add(_ channels: ChannelPointers, frames: Int) {
        var done = 0
        while done < frames {
            let count = min(frames - done, Self.pieceFrames)
            addPiece(channels, from: done, count: count)
            done += count
        }
    }

    private func addPiece(_ channels: ChannelPointers, from first: Int, count: Int) {
        let stride = reach + Self.pieceFrames
        for channel in 0..<channelCount { cursors[channel] = channels[channel]! + first }
        let piecePeak = aurender_largest_magnitude(cursors, Int32(channelCount), count)
        samplePeak = max(samplePeak, piecePeak)
        if !skipsQuietPieces || max(piecePeak, historyPeak) * bound > interpolatedPeak, interpolator.phases.count > 0 {
            peaks.update(repeating: 0, count: count)
            for channel in 0..<channelCount {
                let row = scratch + channel * stride
                (row + reach).update(from: cursors[channel]!, count: count)
                aurender_interpolated_peaks(row + reach, count, interpolator.delay, coefficients,
                                            Int32(interpolator.phases.count), Int32(interpolator.tapsPerPhase), peaks)
            }
            var row = Optional(UnsafePointer(peaks))
            interpolatedPeak = max(interpolatedPeak, aurender_largest_magnitude(&row, 1, count))
        } else {
            piecesSkipped += 1
        }
        keepHistory(count: count)
    }

    /// Keeps each channel's last `reach` frames (of the history and the piece) at its row's start.
    private func keepHistory(count: Int) {
        guard reach > 0 else { return }
        let stride = reach + Self.pieceFrames
        var peak: Float = 0
        for channel in 0..<channelCount {
            let row = scratch + channel * stride, source = cursors[channel]!
            let kept = max(0, reach - count)
            for frame in 0..<kept { row[frame] = row[frame + count] }
            for frame in kept..<reach { row[frame] = source[count - reach + frame] }
            for frame in 0..<reach { peak = max(peak, abs(row[frame])) }
        }
        historyPeak = peak
    }
}
