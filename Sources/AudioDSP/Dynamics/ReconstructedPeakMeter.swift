import CAudioKernels

/// The largest point of a stream's 8× reconstruction (`ReconstructionFilter`), over every
/// channel: the figure a true-peak limiter holds under its ceiling, reported beside BS.1770-4's
/// 4× true peak because that one under-reads programme with energy near Nyquist.
///
/// The stream is taken to start and end in silence, so the points around its first and last
/// samples count; `finish()` adds the end's.
///
/// Only points that could beat the largest so far are found: a point is at most the largest
/// magnitude among the samples it reads times the largest sum of a phase's absolute
/// coefficients, so frames whose samples are all under the largest over that sum are passed
/// over (marked as the limiter marks its quiet frames). The peak is exact; for noise at a steady
/// level most frames are passed over once its loudest stretch has been seen.
public final class ReconstructedPeakMeter {
    /// Channels measured.
    public let channelCount: Int
    /// Frames each pass of the kernel takes.
    private static let passFrames = 4096
    /// Samples before a pass's first that its points read.
    private let reach: Int
    /// Per channel, the last `reach` samples, then room for a pass.
    private let rows: UnsafeMutablePointer<Float>
    private let peaks: UnsafeMutablePointer<Float>
    /// Per frame of a pass: its sample's magnitude, and whether a point reading it could beat the largest.
    private let levels: UnsafeMutablePointer<Float>
    private let loud: UnsafeMutablePointer<Bool>
    /// Per channel, frames since one at or over the level that could beat the largest.
    private let quietFrames: UnsafeMutablePointer<Int>
    private var stages: aurender_reconstruction
    /// The largest sum of a phase's absolute coefficients, with a margin for the stages' rounding.
    private let bound: Float
    private var largest: Float = 0
    private var finished = false

    /// A meter for `channelCount` channels; the filter is designed and the rows allocated here.
    public init(channelCount: Int) {
        self.channelCount = channelCount
        reach = 2 * Int(AURENDER_RECONSTRUCTION_REACH) - 1
        rows = .allocate(capacity: channelCount * (reach + Self.passFrames))
        rows.initialize(repeating: 0, count: channelCount * (reach + Self.passFrames))
        peaks = .allocate(capacity: Self.passFrames)
        peaks.initialize(repeating: 0, count: Self.passFrames)
        levels = .allocate(capacity: Self.passFrames)
        levels.initialize(repeating: 0, count: Self.passFrames)
        loud = .allocate(capacity: Self.passFrames)
        loud.initialize(repeating: false, count: Self.passFrames)
        quietFrames = .allocate(capacity: max(1, channelCount))
        quietFrames.initialize(repeating: Int.max / 2, count: max(1, channelCount))
        let filter = ReconstructionFilter()
        stages = filter.stages
        bound = 1.001 * max(1, filter.interpolator.phases.map { $0.reduce(0) { $0 + abs($1) } }.max() ?? 1)
    }

    deinit {
        rows.deallocate()
        peaks.deallocate()
        levels.deallocate()
        loud.deallocate()
        quietFrames.deallocate()
    }

    /// Adds `frames` interleaved frames (full scale ±1).
    public func add(interleaved samples: UnsafePointer<Float>, frames: Int) {
        var done = 0
        while done < frames {
            let count = min(Self.passFrames, frames - done)
            pass(count) { channel, row in
                for frame in 0..<count { row[frame] = samples[(done + frame) * channelCount + channel] }
            }
            done += count
        }
    }

    /// Adds `frames` frames of `channels`, one pointer a channel (full scale ±1).
    public func add(_ channels: UnsafePointer<UnsafePointer<Float>?>, frames: Int) {
        var done = 0
        while done < frames {
            let count = min(Self.passFrames, frames - done)
            pass(count) { channel, row in row.update(from: channels[channel]! + done, count: count) }
            done += count
        }
    }

    /// Adds the silence after the stream, so the points after its last sample count; later
    /// calls do nothing.
    public func finish() {
        largest = peakThroughEnd
        finished = true
    }

    /// The largest point so far, linear (0 for silence).
    public var peak: Float { largest }

    /// The largest point with those after the stream's last sample counted, as though it
    /// ended here in silence, without ending it (more frames may still be added).
    public var peakThroughEnd: Float {
        guard !finished else { return largest }
        let tail = Int(AURENDER_RECONSTRUCTION_REACH)
        let scratch = UnsafeMutablePointer<Float>.allocate(capacity: reach + tail), tailPeaks = UnsafeMutablePointer<Float>.allocate(capacity: tail)
        defer {
            scratch.deallocate()
            tailPeaks.deallocate()
        }
        var stages = stages, result = largest
        for channel in 0..<channelCount {
            scratch.update(from: rows + channel * (reach + Self.passFrames), count: reach)
            (scratch + reach).initialize(repeating: 0, count: tail)
            tailPeaks.initialize(repeating: 0, count: tail)
            aurender_reconstructed_peaks(scratch + reach, tail, &stages, tailPeaks)
            for frame in 0..<tail where tailPeaks[frame] > result { result = tailPeaks[frame] }
        }
        return result
    }

    /// One pass over `count` frames, which `fill` writes into each channel's row after its
    /// history: the points of the runs of frames that could beat the largest.
    private func pass(_ count: Int, fill: (Int, UnsafeMutablePointer<Float>) -> Void) {
        // Interval k's points read the 2 × REACH samples ending at the pass's frame k.
        let window = 2 * Int(AURENDER_RECONSTRUCTION_REACH)
        for channel in 0..<channelCount {
            let row = rows + channel * (reach + Self.passFrames)
            let newest = row + reach
            fill(channel, newest)
            for frame in 0..<count { levels[frame] = abs(newest[frame]) }
            if aurender_mark_loud(levels, count, largest / bound, window, quietFrames + channel, loud) {
                var start = 0
                while start < count {
                    guard loud[start] else {
                        start += 1
                        continue
                    }
                    var end = start + 1
                    while end < count, loud[end] { end += 1 }
                    peaks.update(repeating: 0, count: end - start)
                    aurender_reconstructed_peaks(newest + start, end - start, &stages, peaks)
                    for frame in 0..<(end - start) where peaks[frame] > largest { largest = peaks[frame] }
                    start = end
                }
            }
            row.update(from: row + count, count: reach)
        }
    }
}
