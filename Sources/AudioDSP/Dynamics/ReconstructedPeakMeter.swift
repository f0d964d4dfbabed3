import CAudioKernels

/// The largest point of a stream's 8× reconstruction (`ReconstructionFilter`), over every
/// channel: the figure a true-peak limiter holds under its ceiling, reported beside BS.1770-4's
/// 4× true peak because that one under-reads programme with energy near Nyquist.
///
/// The stream is taken to start and end in silence, so the points around its first and last
/// samples count; `finish()` adds the end's.
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
    private var stages = ReconstructionFilter().stages
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
    }

    deinit {
        rows.deallocate()
        peaks.deallocate()
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

    /// Adds the silence after the stream, so the points after its last sample count; later
    /// calls do nothing.
    public func finish() {
        guard !finished else { return }
        finished = true
        let tail = Int(AURENDER_RECONSTRUCTION_REACH)
        pass(tail) { _, row in row.update(repeating: 0, count: tail) }
    }

    /// The largest point so far, linear (0 for silence).
    public var peak: Float { largest }

    /// One pass over `count` frames, which `fill` writes into each channel's row after its history.
    private func pass(_ count: Int, fill: (Int, UnsafeMutablePointer<Float>) -> Void) {
        for channel in 0..<channelCount {
            let row = rows + channel * (reach + Self.passFrames)
            fill(channel, row + reach)
            peaks.update(repeating: 0, count: count)
            aurender_reconstructed_peaks(row + reach, count, &stages, peaks)
            for frame in 0..<count where peaks[frame] > largest { largest = peaks[frame] }
            row.update(from: row + count, count: reach)
        }
    }
}
