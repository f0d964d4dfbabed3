/// Interleaved frames waiting between two stages of a node: one buffer made at initialize,
/// written at the back and read from the front, so passing frames along allocates nothing.
final class FrameQueue {
    /// Samples per frame.
    let channelCount: Int
    /// The most frames it holds.
    let capacity: Int
    private let samples: UnsafeMutablePointer<Float>
    private var start = 0
    /// Frames held.
    private(set) var count = 0

    init(channelCount: Int, capacity: Int) {
        self.channelCount = channelCount
        self.capacity = capacity
        samples = .allocate(capacity: capacity * channelCount)
        samples.initialize(repeating: 0, count: capacity * channelCount)
    }

    deinit {
        samples.deallocate()
    }

    /// The first frame held.
    var front: UnsafeMutablePointer<Float> { samples + start * channelCount }

    /// Where new frames go and how many fit, once the frames held are moved to the front.
    func room() -> (destination: UnsafeMutablePointer<Float>, frames: Int) {
        if start > 0 {
            samples.update(from: front, count: count * channelCount)
            start = 0
        }
        return (samples + count * channelCount, capacity - count)
    }

    /// Counts `frames` frames written at `room().destination` as held.
    func append(_ frames: Int) {
        count += frames
    }

    /// Drops `frames` frames from the front.
    func removeFirst(_ frames: Int) {
        start += frames
        count -= frames
        if count == 0 { start = 0 }
    }

    /// Drops every frame.
    func removeAll() {
        start = 0
        count = 0
    }
}
