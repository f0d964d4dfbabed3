import CAudioKernels

/// A waveform's outline in a fixed number of columns: each column's smallest and largest sample
/// and its sum of squares, over every channel.
///
/// A column covers `framesPerColumn` frames. When the columns are full and more frames come,
/// neighbours merge pairwise and `framesPerColumn` doubles, so memory stays fixed. The squares
/// are summed in eight single-precision lanes keyed by the frame's position (moved into the
/// column's Double sum every `flushFrames` frames and at the column's end), so the outline is
/// the same whatever blocks the stream arrives in.
final class WaveformOutline {
    let columnCapacity: Int
    let channelCount: Int
    private(set) var framesPerColumn: Int64
    private let minima: UnsafeMutablePointer<Float>
    private let maxima: UnsafeMutablePointer<Float>
    private let sums: UnsafeMutablePointer<Double>
    /// The eight lanes `aurender_outline_accumulate` adds squares to.
    private let lanes: UnsafeMutablePointer<Float>
    /// Each channel's next frame, for the kernel.
    private let cursors: UnsafeMutablePointer<UnsafePointer<Float>?>
    /// Complete columns.
    private var column = 0
    /// Frames in the column being filled, and its extremes and flushed sum so far.
    private var columnFrames: Int64 = 0
    private var low = Float.infinity, high = -Float.infinity, sum = 0.0
    private(set) var frames: Int64 = 0

    /// Frames between moves of the lanes into the Double sum, by stream position.
    static let flushFrames: Int64 = 4096

    /// An outline of `columns` (even, at least 2) columns of `channelCount` channels, each
    /// `framesPerColumn` frames to begin with.
    init(columns: Int, channelCount: Int, framesPerColumn: Int64) {
        columnCapacity = columns
        self.channelCount = channelCount
        self.framesPerColumn = max(1, framesPerColumn)
        minima = .allocate(capacity: columns)
        maxima = .allocate(capacity: columns)
        sums = .allocate(capacity: columns)
        lanes = .allocate(capacity: 8)
        minima.initialize(repeating: 0, count: columns)
        maxima.initialize(repeating: 0, count: columns)
        sums.initialize(repeating: 0, count: columns)
        lanes.initialize(repeating: 0, count: 8)
        cursors = .allocate(capacity: max(1, channelCount))
        cursors.initialize(repeating: nil, count: max(1, channelCount))
    }

    deinit {
        minima.deallocate()
        maxima.deallocate()
        sums.deallocate()
        lanes.deallocate()
        cursors.deallocate()
    }

    /// Adds `count` frames of `channels`.
    func add(_ channels: ChannelPointers, frames count: Int) {
        var done = 0
        while done < count {
            if column == columnCapacity { mergePairs() }
            let toFlush = Self.flushFrames - frames % Self.flushFrames
            let span = Int(min(Int64(count - done), framesPerColumn - columnFrames, toFlush))
            for channel in 0..<channelCount { cursors[channel] = channels[channel]! + done }
            aurender_outline_accumulate(cursors, Int32(channelCount), span, Int(frames & 7), &low, &high, lanes)
            done += span
            frames += Int64(span)
            columnFrames += Int64(span)
            if span == toFlush || columnFrames == framesPerColumn { flush() }
            if columnFrames == framesPerColumn { closeColumn() }
        }
    }

    /// Moves the lanes into the column's sum, lane 0 first.
    private func flush() {
        for lane in 0..<8 {
            sum += Double(lanes[lane])
            lanes[lane] = 0
        }
    }

    private func closeColumn() {
        minima[column] = low
        maxima[column] = high
        sums[column] = sum
        column += 1
        columnFrames = 0
        (low, high, sum) = (.infinity, -.infinity, 0)
    }

    /// Halves the columns in use, each new one the union of two neighbours, and doubles their span.
    private func mergePairs() {
        for index in 0..<(column / 2) {
            minima[index] = min(minima[2 * index], minima[2 * index + 1])
            maxima[index] = max(maxima[2 * index], maxima[2 * index + 1])
            sums[index] = sums[2 * index] + sums[2 * index + 1]
        }
        column /= 2
        framesPerColumn *= 2
    }

    /// The columns so far, the partial last one included: minima, maxima and RMS levels.
    func columns() -> (minima: [Float], maxima: [Float], rms: [Float]) {
        var lows = Array(UnsafeBufferPointer(start: minima, count: column))
        var highs = Array(UnsafeBufferPointer(start: maxima, count: column))
        var levels = (0..<column).map { Float((sums[$0] / Double(framesPerColumn * Int64(channelCount))).squareRoot()) }
        if columnFrames > 0 {
            let partial = (0..<8).reduce(sum) { $0 + Double(lanes[$1]) }
            lows.append(low)
            highs.append(high)
            levels.append(Float((partial / Double(columnFrames * Int64(channelCount))).squareRoot()))
        }
        return (lows, highs, levels)
    }
}
