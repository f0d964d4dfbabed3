import AudioGraph
import AudioFormats

/// Feeds a graph from a sound file read ahead on a background thread: a render callback
/// whose disk reads and sample conversions overlap the graph's DSP.
///
/// The worker fills a small ring of canonical blocks with an `AudioFileReader`; the render
/// callback copies from them, waiting only when the disk is behind. The output is exactly
/// the `AudioFileReader`'s, for any slice size.
public final class ThreadedFileReader: FileSource {
    /// What the reader produces: the file's rate and channels, in the canonical form.
    public let format: StreamFormat
    /// Frames handed to the graph so far.
    public private(set) var framesRead: Int64 = 0
    private let ring: SlotRing
    private var worker: BackgroundThread?
    private var current: SlotRing.Slot?
    private var position = 0
    private var finished = false

    /// Starts reading `file` ahead, in `slotCount` blocks of `slotFrames` frames; `notify` is
    /// told of every block read, on the worker's thread. Four blocks of 32,768 frames (1 MB of
    /// stereo) keep the worker well ahead; 65,536 cost 1 MB more of peak memory for no speed.
    public init(file: any AudioDecoder, slotFrames: Int = 32_768, slotCount: Int = 4, notify: (any RenderNotify)? = nil) {
        // Safe: only the worker decodes from here on; the format and length others read are fixed at open.
        nonisolated(unsafe) let reader = AudioFileReader(file: file, scratchFrames: slotFrames)
        format = reader.format
        let ring = SlotRing(slotCount: slotCount, channelCount: format.channelCount, capacity: slotFrames)
        self.ring = ring
        // Safe: only the worker calls it until the reader stops; its owner reads what it kept after that.
        nonisolated(unsafe) let notify = notify
        worker = BackgroundThread {
            while true {
                let slot = ring.acquireFree()
                if ring.isStopping { return }
                var flags: RenderActionFlags = []
                do {
                    slot.frames = try reader.render(&flags, RenderRequest(timeStamp: AudioTimeStamp(sampleTime: reader.framesRead),
                                                                          bus: 0, frameCount: ring.capacity), slot.storage.list)
                    slot.failure = nil
                    notify?.rendered(slot.storage.list, frames: slot.frames)
                } catch {
                    slot.frames = 0
                    slot.failure = error
                }
                slot.isLast = slot.frames < ring.capacity || slot.failure != nil
                ring.publish()
                if slot.isLast { return }
            }
        }
    }

    deinit { stop() }

    /// Fills `buffers` with the next `request.frameCount` frames of the file; a `RenderCallback`.
    public func render(_ flags: inout RenderActionFlags, _ request: RenderRequest, _ buffers: AudioBufferList) throws -> Int {
        var filled = 0
        while filled < request.frameCount, !finished {
            let slot: SlotRing.Slot
            if let current {
                slot = current
            } else {
                slot = ring.acquireFilled()
                current = slot
                position = 0
                if let failure = slot.failure {
                    finished = true
                    throw failure
                }
            }
            let count = min(request.frameCount - filled, slot.frames - position)
            for channel in 0..<buffers.channelCount {
                (buffers[channel] + filled).update(from: slot.storage.list[channel] + position, count: count)
            }
            filled += count
            position += count
            if position == slot.frames {
                finished = slot.isLast
                current = nil
                ring.release()
            }
        }
        framesRead += Int64(filled)
        buffers.endStream(filled: filled, requested: request.frameCount, flags: &flags)
        return filled
    }

    /// Stops reading ahead and waits for the worker; called by deinit.
    public func stop() {
        ring.requestStop()
        worker?.join()
        worker = nil
    }
}
