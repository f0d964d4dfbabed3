#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch
import Synchronization

/// One worker's own decoder of a seekable stream, able to decode any segment of it from its
/// start: what `ParallelSegments` runs on each of its threads.
public protocol SegmentDecoding: AnyObject {
    /// Decodes the `frames` interleaved frames from frame `start` into `buffer`; returns the
    /// frames decoded. Fewer than `frames`, a thrown error or `metHole` (the stream has a gap
    /// there) all mean the segment cannot be had this way.
    func decode(from start: Int64, frames: Int, into buffer: UnsafeMutablePointer<Float>) throws(AudioFormatError) -> (frames: Int, metHole: Bool)
}

/// Decodes a seekable stream of known length in segments of a fixed length on several threads
/// and hands the frames back in order, so that a codec that decodes on one core (Vorbis, Opus)
/// uses them all for one long file.
///
/// The segments' bounds depend only on the segment length, never on the number of workers, and
/// each worker's decoder gives a segment's frames exactly (its codec's seek pre-rolls), so the
/// frames are the same whatever the workers. Memory is bounded: two segments per worker are in
/// flight, allocated once. A segment that cannot be decoded whole (a gap in the stream, an
/// error) ends the reading: `failed` is set and `position` says where, for the caller to go on
/// another way (its sequential decoder).
public final class ParallelSegments: @unchecked Sendable {
    // Safe to share: a slot's buffer and outcome are written by its one worker before it
    // signals `filled` and read by the consumer only after waiting on it; the consumer hands
    // the slot back through `free`.

    /// The default segment length: about 3 s at 44.1 kHz, long enough that a seek's cost is
    /// small beside the segment's decoding.
    public static let defaultSegmentFrames = 1 << 17

    /// The workers a decoder starts by default: one per processor, at most 4 (beyond that
    /// the writer, not the decoding, sets the pace).
    public static var defaultWorkerCount: Int {
        max(1, min(4, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))))
    }

    /// One segment's place: its frames and what came of decoding them.
    private final class Slot: @unchecked Sendable {
        let samples: UnsafeMutablePointer<Float>
        var frames = 0
        var failed = false
        let free = DispatchSemaphore(value: 0)
        let filled = DispatchSemaphore(value: 0)

        init(samples count: Int) {
            samples = .allocate(capacity: count)
            free.signal()
        }

        deinit { samples.deallocate() }
    }

    /// Frames in the stream, as its container states them.
    public let totalFrames: Int64
    /// Frames in each segment but the last.
    public let segmentFrames: Int
    private let channelCount: Int
    private let slots: [Slot]
    private var threads: [BackgroundThread] = []
    /// Set to make the workers stop; the workers hold it and the slots, never `self`, so
    /// dropping the reader stops them.
    private let stopping = Stopping()
    /// The segment being handed out, and the frames of it already given.
    private var segment = 0
    private var offset = 0
    /// Frames handed back so far.
    public private(set) var position: Int64 = 0
    /// Whether a segment could not be decoded; reading then gives nothing more.
    public private(set) var failed = false

    /// Starts one thread per decoder in `workers` on a stream of `totalFrames` frames of
    /// `channelCount` channels, in segments of `segmentFrames`; worker `w` decodes segments
    /// `w`, `w + workers.count`, and so on.
    public init(totalFrames: Int64, channelCount: Int, segmentFrames: Int = defaultSegmentFrames, workers: [any SegmentDecoding]) {
        precondition(!workers.isEmpty && segmentFrames > 0)
        self.totalFrames = totalFrames
        self.segmentFrames = segmentFrames
        self.channelCount = channelCount
        let workerCount = workers.count
        slots = (0..<(2 * workerCount)).map { _ in Slot(samples: segmentFrames * channelCount) }
        let segmentCount = Int((totalFrames + Int64(segmentFrames) - 1) / Int64(segmentFrames))
        for (index, worker) in workers.enumerated() {
            // Safe: each decoder is handed to its one thread, which alone uses it from here on.
            nonisolated(unsafe) let worker = worker
            let plan = Plan(slots: slots, segmentFrames: segmentFrames, totalFrames: totalFrames, segmentCount: segmentCount,
                            step: workerCount, stopping: stopping)
            threads.append(BackgroundThread { Self.run(worker, first: index, plan) })
        }
    }

    deinit { stop() }

    /// Copies up to `frames` interleaved frames, in order, into `buffer`; returns the frames
    /// given, fewer at the end of the stream or where a segment failed (`failed`).
    public func read(into buffer: UnsafeMutablePointer<Float>, frames: Int) -> Int {
        var done = 0
        while done < frames, !failed, position < totalFrames {
            let slot = slots[segment % slots.count]
            if offset == 0 {
                slot.filled.wait()
                if slot.failed {
                    failed = true
                    slot.free.signal()
                    break
                }
            }
            let count = min(frames - done, slot.frames - offset)
            (buffer + done * channelCount).update(from: slot.samples + offset * channelCount, count: count * channelCount)
            done += count
            offset += count
            position += Int64(count)
            if offset == slot.frames {
                offset = 0
                segment += 1
                slot.free.signal()
            }
        }
        return done
    }

    /// Stops the workers and waits for them; reading afterwards gives nothing.
    public func stop() {
        guard !threads.isEmpty else { return }
        stopping.flag.store(true, ordering: .releasing)
        for slot in slots { slot.free.signal() }
        for thread in threads { thread.join() }
        threads = []
        failed = true
    }

    /// The flag that stops the workers.
    private final class Stopping: Sendable {
        let flag = Atomic<Bool>(false)
    }

    /// What a worker needs to know: the slots, the segments and the flag.
    private struct Plan: Sendable {
        let slots: [Slot]
        let segmentFrames: Int
        let totalFrames: Int64
        let segmentCount: Int
        let step: Int
        let stopping: Stopping
    }

    /// A worker's loop: decodes its segments, `first` and every `step`th after it, into their
    /// slots as they come free.
    private static func run(_ worker: any SegmentDecoding, first: Int, _ plan: Plan) {
        var index = first
        while index < plan.segmentCount {
            let slot = plan.slots[index % plan.slots.count]
            slot.free.wait()
            if plan.stopping.flag.load(ordering: .acquiring) { return }
            let start = Int64(index) * Int64(plan.segmentFrames)
            let wanted = Int(min(Int64(plan.segmentFrames), plan.totalFrames - start))
            do {
                let (got, metHole) = try worker.decode(from: start, frames: wanted, into: slot.samples)
                slot.frames = got
                slot.failed = got != wanted || metHole
            } catch {
                slot.frames = 0
                slot.failed = true
            }
            slot.filled.signal()
            if slot.failed { return }
            index += plan.step
        }
    }
}
