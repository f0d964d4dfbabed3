import Synchronization

/// How far one render has come: the render loop adds the frames it writes, and a progress
/// display on another thread reads them.
///
/// Counting is a relaxed atomic add, so the render path takes no lock and allocates nothing;
/// what the render expects (frames and rate) is set once, before the first frame.
public final class RenderProgress: Sendable {
    private let done = Atomic<Int64>(0)
    private let expectation = Mutex<(frames: Int64?, sampleRate: Double)>((nil, 0))

    public init() {}

    /// Frames rendered so far, over every pass.
    public var framesDone: Int64 { done.load(ordering: .relaxed) }

    /// Seconds of audio rendered so far, over every pass.
    public var secondsDone: Double {
        let rate = expectation.withLock { $0.sampleRate }
        return rate > 0 ? Double(framesDone) / rate : 0
    }

    /// Seconds of audio the whole render will take over all its passes; nil until the render
    /// has started, or when its length is unknown (as for a stream).
    public var expectedSeconds: Double? {
        let (frames, rate) = expectation.withLock { $0 }
        return rate > 0 ? frames.map { Double($0) / rate } : nil
    }

    /// Says what the render will take: `frames` at `sampleRate`, over `passes` passes.
    func expect(frames: Int64?, sampleRate: Double, passes: Int = 1) {
        expectation.withLock { $0 = (frames.map { $0 * Int64(passes) }, sampleRate) }
    }

    /// Counts `frames` more frames rendered.
    func add(_ frames: Int) {
        done.add(Int64(frames), ordering: .relaxed)
    }
}
