import AudioDSP
import AudioGraph
import AudioFormats
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes the slices a graph renders to a sound file from a background thread, so that
/// sample conversion and disk writes overlap the graph's DSP.
///
/// `write` copies each slice into a small ring of blocks; the worker quantizes and writes them
/// with an `AudioFileWriter`. The file is exactly what that writer would make. Call `finish()`:
/// it waits for the worker and reports the first failure; `clipCount` is final after it.
///
/// Given where a PCM encoder writes its first frame (`startOffset`), the first block is cut
/// short so that every later block's write begins on a page boundary of the file: the kernel
/// then fills whole pages of its cache instead of splitting each block's first and last.
public final class ThreadedFileWriter {
    /// The file being written.
    public var file: any AudioEncoder { writer.file }
    private let writer: AudioFileWriter
    private let ring: SlotRing
    private var worker: BackgroundThread?
    private var current: SlotRing.Slot?
    /// Frames the current block holds when full (fewer in the first, to line the others up).
    private var blockFrames: Int
    /// Channel pointers into the current block, for `render(upTo:_:)`.
    private let blockView: UnsafeMutableBufferPointer<UnsafeMutablePointer<Float>>
    /// The worker's first failure.
    private let outcome = WorkerOutcome()

    /// What the worker reports, held apart from the writer so the worker never touches it.
    ///
    /// The owner may check it while the worker is writing (it keeps filling the block it holds
    /// without taking a slot), so the error is published by an atomic flag, not by the ring.
    // Safe to share: `error` is written once, before `failed` is stored with release ordering,
    // and read only after `failed` is loaded true with acquire ordering.
    private final class WorkerOutcome: @unchecked Sendable {
        private var error: (any Error)?
        private let failed = Atomic<Bool>(false)

        /// The first failure, once the worker has reported one.
        var failure: (any Error)? { failed.load(ordering: .acquiring) ? error : nil }

        /// Reports `error`; the worker calls it once, for its first failure.
        func fail(_ error: any Error) {
            self.error = error
            failed.store(true, ordering: .releasing)
        }
    }

    /// Starts a writer for `file` with `slotCount` blocks of `slotFrames` frames; `dither`
    /// applies to integer encodings only; `measuringLevel` adds up `sumOfSquares`; `startOffset`,
    /// the byte at which the encoder writes its first frame, lines the later blocks up with pages;
    /// `notify` is told of every block written, on the worker's thread. The blocks are also the
    /// slices the graph renders: 32,768 frames keep the per-slice work small beside the frames'
    /// and the ring at 1 MB of stereo (65,536 cost 1 MB more of peak memory for no speed).
    public init(file: any AudioEncoder, slotFrames: Int = 32_768, slotCount: Int = 4, dither: TPDFDither? = nil,
                measuringLevel: Bool = false, startOffset: Int64? = nil, notify: (any RenderNotify)? = nil) {
        blockFrames = Self.firstBlockFrames(startOffset: startOffset, encoding: file.encoding, channelCount: file.channelCount,
                                            capacity: slotFrames)
        let writer = AudioFileWriter(file: file, maximumFrames: slotFrames, dither: dither, measuringLevel: measuringLevel, notify: notify)
        self.writer = writer
        let ring = SlotRing(slotCount: slotCount, channelCount: file.channelCount, capacity: slotFrames)
        self.ring = ring
        blockView = .allocate(capacity: max(1, file.channelCount))
        blockView.initialize(repeating: ring.slots[0].storage.list[0])
        // Safe: only the worker writes until `finish()` joins it; the owner reads counts after that.
        nonisolated(unsafe) let sharedWriter = writer
        worker = BackgroundThread { [outcome] in
            while true {
                let slot = ring.acquireFilled()
                if outcome.failure == nil, slot.frames > 0 {
                    do { try sharedWriter.write(slot.storage.list, frames: slot.frames) } catch { outcome.fail(error) }
                }
                let last = slot.isLast
                ring.release()
                if last { return }
            }
        }
    }

    deinit {
        endWorker()
        blockView.deallocate()
    }

    /// Overs, non-finite samples and peak of everything written; complete after `finish()`.
    public var clipCount: ClipCount { writer.clipCount }
    /// Frames written; complete after `finish()`.
    public var framesWritten: Int64 { writer.framesWritten }
    /// The sum of the squares of every sample written, when measuring the level; complete after `finish()`.
    public var sumOfSquares: Double? { writer.sumOfSquares }

    /// Queues the first `frames` frames of `buffers`, which has the file's channel count.
    /// Throws the worker's failure, if it has met one.
    public func write(_ buffers: AudioBufferList, frames: Int) throws {
        var done = 0
        while done < frames {
            let slot = takeSlot()
            if let failure = outcome.failure { throw failure }
            let count = min(frames - done, blockFrames - slot.frames)
            for channel in 0..<buffers.channelCount {
                (slot.storage.list[channel] + slot.frames).update(from: buffers[channel] + done, count: count)
            }
            slot.frames += count
            done += count
            if slot.frames == blockFrames { publishBlock() }
        }
    }

    /// Lets `render` write up to `limit` frames straight into the next free part of a block,
    /// copying nothing; `render` returns how many it wrote. Throws the worker's failure, if any.
    public func render(upTo limit: Int, _ render: (AudioBufferList) throws -> Int) throws -> Int {
        let slot = takeSlot()
        if let failure = outcome.failure { throw failure }
        let room = min(limit, blockFrames - slot.frames)
        for channel in 0..<blockView.count { blockView[channel] = slot.storage.list[channel] + slot.frames }
        let frames = try render(AudioBufferList(channels: blockView, capacity: room))
        slot.frames += frames
        if slot.frames == blockFrames { publishBlock() }
        return frames
    }

    /// Writes what is queued, waits for the worker, then completes and closes the file.
    public func finish() throws {
        endWorker()
        if let failure = outcome.failure { throw failure }
        try writer.finish()
    }

    private func takeSlot() -> SlotRing.Slot {
        if let current { return current }
        let slot = ring.acquireFree()
        slot.frames = 0
        slot.isLast = false
        current = slot
        return slot
    }

    /// Publishes the current block, full; the next holds a full slot.
    private func publishBlock() {
        current = nil
        blockFrames = ring.capacity
        ring.publish()
    }

    /// The most frames, up to `capacity`, after which a PCM encoder that wrote its first frame at
    /// `startOffset` stands on a page boundary; `capacity` when there are none or the encoding
    /// has no fixed frame size (a codec).
    static func firstBlockFrames(startOffset: Int64?, encoding: AudioEncoding, channelCount: Int, capacity: Int) -> Int {
        guard let startOffset, startOffset >= 0, let type = encoding.sampleType, AudioEncoding.pcm(of: type) == encoding
                || encoding == .pcmU8 else { return capacity }
        let page = Int64(max(1, sysconf(Int32(_SC_PAGESIZE)))), bytesPerFrame = Int64(type.bitDepth / 8 * channelCount)
        guard let first = (1...Int64(min(capacity, Int(page)))).first(where: { (startOffset + $0 * bytesPerFrame) % page == 0 })
        else { return capacity }
        let period = page / gcd(bytesPerFrame, page)
        return Int(first + (Int64(capacity) - first) / period * period)
    }

    private static func gcd(_ a: Int64, _ b: Int64) -> Int64 { b == 0 ? a : gcd(b, a % b) }

    /// Sends the last block and waits for the worker to write it.
    private func endWorker() {
        guard let worker else { return }
        takeSlot().isLast = true
        current = nil
        ring.publish()
        worker.join()
        self.worker = nil
    }
}
