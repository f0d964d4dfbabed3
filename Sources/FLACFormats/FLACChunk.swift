import Dispatch

/// One chunk of a stream: its samples, filled by the thread that writes, and its frames, encoded
/// by a worker as a stream of its own and renumbered to their places in the whole.
///
/// A chunk is a fixed number of whole blocks (the last chunk may be shorter), so the frames
/// are the ones one encoder would make of the whole input, and the same whatever the number of
/// workers.
final class FLACChunk: FLACFrameSink, @unchecked Sendable {
    // @unchecked: the writing thread and one worker take turns, never at once. The writer fills
    // the samples and `sequence` and hands the chunk over with the pool's semaphore; the worker
    // encodes and hands it back with `encoded`, which the writer waits on before reading or
    // refilling anything.

    /// Interleaved right-justified samples, room for `capacity` frames.
    let samples: UnsafeMutablePointer<Int32>
    /// Frames (per channel) the chunk has room for: a whole number of blocks.
    let capacity: Int
    /// Frames filled so far.
    var frameCount = 0
    /// The chunk's place in the stream, from 0: its first frame is numbered `sequence × blocks`.
    var sequence = 0

    /// The renumbered frames, one after another.
    private(set) var bytes: UnsafeMutableRawPointer
    /// Bytes of frames in `bytes`.
    private(set) var byteCount = 0
    private var byteCapacity: Int
    /// Frames encoded, and the smallest and largest of them in bytes.
    private(set) var encodedFrames = 0
    private(set) var smallestFrame = Int.max
    private(set) var largestFrame = 0
    /// Why libFLAC failed, if it did.
    private(set) var failure: FLACEncodingError?
    /// Signalled by the worker when the frames are ready.
    let encoded = DispatchSemaphore(value: 0)

    private let settings: LibFLAC.Settings
    private let blocksPerChunk: Int

    /// A chunk of `blocks` blocks of `blockSize` frames of a stream of `settings`.
    init(settings: LibFLAC.Settings, blockSize: Int, blocks: Int) {
        self.settings = settings
        blocksPerChunk = blocks
        capacity = blockSize * blocks
        samples = .allocate(capacity: capacity * settings.channelCount)
        // Room for every frame stored verbatim (libFLAC's fallback), with headers and renumbering.
        let bitsPerFrame = settings.channelCount * (blockSize * (settings.bitsPerSample + 1) + 8 + 32)
        byteCapacity = blocks * ((bitsPerFrame + 7) / 8 + 24 + FrameRenumbering.maximumGrowth)
        bytes = .allocate(byteCount: byteCapacity, alignment: 16)
    }

    deinit {
        samples.deallocate()
        bytes.deallocate()
    }

    /// Encodes the samples into renumbered frames (on a worker thread), then signals `encoded`.
    func encode() {
        byteCount = 0
        encodedFrames = 0
        smallestFrame = .max
        largestFrame = 0
        failure = nil
        do throws(FLACEncodingError) {
            let encoder = try LibFLAC.StreamEncoder(settings, sink: self)
            try encoder.encode(samples, frames: frameCount)
            try encoder.finish()
        } catch {
            failure = error
        }
        encoded.signal()
    }

    /// Takes one frame from libFLAC, numbered within this chunk, and stores it renumbered.
    func receive(frame: UnsafeRawBufferPointer, samples: Int) {
        let room = frame.count + FrameRenumbering.maximumGrowth
        if byteCount + room > byteCapacity {
            // Not reached: the capacity holds verbatim frames. Kept so a surprise costs memory, not the file.
            byteCapacity = 2 * (byteCount + room)
            let larger = UnsafeMutableRawPointer.allocate(byteCount: byteCapacity, alignment: 16)
            larger.copyMemory(from: bytes, byteCount: byteCount)
            bytes.deallocate()
            bytes = larger
        }
        let written = FrameRenumbering.renumber(frame, as: sequence * blocksPerChunk + encodedFrames, into: bytes + byteCount)
        byteCount += written
        encodedFrames += 1
        smallestFrame = min(smallestFrame, written)
        largestFrame = max(largestFrame, written)
    }
}
