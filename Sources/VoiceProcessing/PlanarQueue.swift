/// Frames waiting between two stages of the voice node, one run of samples per channel:
/// appended at the back, taken from the front, in memory made once.
final class PlanarQueue {
    /// Channels of each frame.
    let channelCount: Int
    /// The most frames it holds.
    let capacity: Int
    private let storage: UnsafeMutablePointer<Float>
    /// Per-channel pointers to the first frame, and to the first free frame, for the engines.
    let fronts: UnsafeMutableBufferPointer<UnsafeMutablePointer<Float>>
    let backs: UnsafeMutableBufferPointer<UnsafeMutablePointer<Float>>
    private var start = 0
    /// Frames held.
    private(set) var count = 0

    init(channelCount: Int, capacity: Int) {
        self.channelCount = channelCount
        self.capacity = capacity
        storage = .allocate(capacity: channelCount * capacity)
        storage.initialize(repeating: 0, count: channelCount * capacity)
        fronts = .allocate(capacity: channelCount)
        backs = .allocate(capacity: channelCount)
        for channel in 0..<channelCount {
            fronts.initializeElement(at: channel, to: storage + channel * capacity)
            backs.initializeElement(at: channel, to: storage + channel * capacity)
        }
    }

    deinit {
        storage.deallocate()
        fronts.deallocate()
        backs.deallocate()
    }

    /// Frames that may still be appended, after moving what is held to the front.
    var room: Int {
        compact()
        return capacity - count
    }

    /// The first sample of `channel`.
    func front(_ channel: Int) -> UnsafeMutablePointer<Float> { fronts[channel] }

    /// Counts `frames` frames written at `backs` as held.
    func didAppend(_ frames: Int) {
        precondition(start + count + frames <= capacity, "a voice stage's queue overflowed")
        count += frames
        point()
    }

    /// Appends `frames` frames from one pointer per channel.
    func append(_ source: (Int) -> UnsafePointer<Float>, frames: Int) {
        compact()
        for channel in 0..<channelCount { backs[channel].update(from: source(channel), count: frames) }
        didAppend(frames)
    }

    /// Forgets the first `frames` frames.
    func removeFirst(_ frames: Int) {
        precondition(frames <= count, "a voice stage took more frames than it held")
        start += frames
        count -= frames
        if count == 0 { start = 0 }
        point()
    }

    /// Forgets everything.
    func removeAll() {
        start = 0
        count = 0
        point()
    }

    private func compact() {
        guard start > 0 else { return }
        for channel in 0..<channelCount {
            let base = storage + channel * capacity
            base.update(from: base + start, count: count)
        }
        start = 0
        point()
    }

    private func point() {
        for channel in 0..<channelCount {
            fronts[channel] = storage + channel * capacity + start
            backs[channel] = storage + channel * capacity + start + count
        }
    }
}
