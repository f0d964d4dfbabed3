/// A one-in, one-out node that processes its input in blocks of its own, runs late by a latency
/// it hides, and may ring on after its input ends: the frame for plugins, reverbs, delays and
/// convolutions, which all need the same bookkeeping around a different kernel.
///
/// A subclass gives the kernel (`processBlock(input:output:frames:)`, on buffers the base owns)
/// and says how late it runs (`processingLatency`, read once, after the first block, since a
/// plugin only knows it then). The base pulls the input, runs the blocks and moves their output
/// through a FIFO into the slices asked for: the first `processingLatency` frames are dropped
/// and the input is followed by as many frames of silence, so output frame n is the kernel's
/// answer to input frame n. With a `tailLimit`, the kernel keeps running on silence after the
/// input ends while its output (its tail: a reverb's decay, a delay's echoes) reaches −120 dBFS
/// in some 1024-frame window, up to `tailLimit` frames; the output ends after the last frame at
/// or above that level. Without one, the output has the input's length.
///
/// Blocks are as long as the slice asked for (up to the block storage), or always
/// `fixedBlockLength` when the kernel needs that; either way the output does not depend on the
/// slice size, as long as the kernel's answer does not depend on how its input is cut into blocks.
open class BlockEffectNode: AudioNode {
    /// The level under which a tail counts as silent: −120 dBFS.
    public static let tailThreshold: Float = 1e-6
    /// The window of tail that must be silent throughout for the tail to end.
    public static let tailWindow = 1024

    /// The most frames of tail rendered after the input (and the latency) ends; nil when the
    /// node has no tail and its output ends with its input.
    public let tailLimit: Int64?
    /// The one block length the kernel runs on, or nil when any length up to the storage does.
    public let fixedBlockLength: Int?

    /// The block the kernel reads: the input's frames, zeros after the input ends.
    public private(set) var blockInput: AudioBufferList?
    /// The block the kernel writes.
    public private(set) var blockOutput: AudioBufferList?
    /// The frames `blockInput` and `blockOutput` hold.
    public private(set) var blockCapacity = 0

    private var inputStorage: AudioBufferStorage?
    private var outputStorage: AudioBufferStorage?
    private var fifo: AudioBufferStorage?
    private var pullView: UnsafeMutableBufferPointer<UnsafeMutablePointer<Float>>?
    private var stream = StreamPosition()

    /// Where the node is in its stream: frames the kernel has run, the input's length once
    /// known, the latency, and the frames waiting in the FIFO.
    private struct StreamPosition {
        /// Frames the kernel has run.
        var position: Int64 = 0
        /// Frames pulled from the input.
        var inputFrames: Int64 = 0
        var inputEnded = false
        var latency: Int64?
        /// The FIFO's first unread frame, its end of committed frames, and its end of frames
        /// held back (a quiet tail window that is emitted only if sound follows).
        var read = 0, committed = 0, written = 0
        /// Whether the current tail window had a frame at or above the threshold.
        var windowLoud = false
        var finished = false
    }

    /// A node called `name`, with a tail of at most `tailLimit` frames (nil: none), running its
    /// kernel on blocks of exactly `fixedBlockLength` frames when given.
    public init(name: String, tailLimit: Int64?, fixedBlockLength: Int? = nil) {
        precondition(fixedBlockLength.map { $0 > 0 } ?? true, "a fixed block length is at least one frame")
        self.tailLimit = tailLimit
        self.fixedBlockLength = fixedBlockLength
        super.init(name: name, inputBusCount: 1, outputBusCount: 1)
    }

    // MARK: What a subclass gives

    /// Makes the kernel's state for blocks of up to `blockCapacity` frames; `blockInput` and
    /// `blockOutput` exist from here, at fixed addresses, until `deallocateBlocks()`.
    open func allocateBlocks(input: StreamFormat, output: StreamFormat) throws {}

    /// Frees what `allocateBlocks` made.
    open func deallocateBlocks() {}

    /// Clears the kernel's state, as after `allocateBlocks`.
    open func resetBlocks() throws {}

    /// Runs the kernel on the first `frames` frames of `input` (the input, then zeros), writing
    /// as many frames of `output`; the two never share memory.
    open func processBlock(input: AudioBufferList, output: AudioBufferList, frames: Int) throws {}

    /// Frames the kernel runs behind its input, which the base hides; read after the first block.
    open var processingLatency: Int { 0 }

    /// Whether the kernel holds sound that it gives out at or above `tailThreshold` only at its
    /// frame `position` (counted from its first) or later, such as an echo still in a delay line
    /// longer than a tail window; a quiet window then does not end the tail but is kept, as the
    /// silence before that sound. By default none.
    open func holdsSound(from position: Int64) -> Bool { false }

    // MARK: The bookkeeping

    public final override func allocateRenderResources() throws {
        let input = try requiredStreamFormat(scope: .input, bus: 0)
        let output = try requiredStreamFormat(scope: .output, bus: 0)
        blockCapacity = fixedBlockLength ?? max(maximumFramesPerSlice, Self.tailWindow)
        let inputStorage = AudioBufferStorage(channelCount: input.channelCount, capacity: blockCapacity)
        let outputStorage = AudioBufferStorage(channelCount: output.channelCount, capacity: blockCapacity)
        self.inputStorage = inputStorage
        self.outputStorage = outputStorage
        blockInput = inputStorage.list
        blockOutput = outputStorage.list
        fifo = AudioBufferStorage(channelCount: output.channelCount, capacity: blockCapacity + 2 * Self.tailWindow)
        pullView = .allocate(capacity: input.channelCount)
        stream = StreamPosition()
        try allocateBlocks(input: input, output: output)
    }

    public final override func deallocateRenderResources() {
        deallocateBlocks()
        inputStorage = nil
        outputStorage = nil
        blockInput = nil
        blockOutput = nil
        fifo = nil
        pullView?.deallocate()
        pullView = nil
    }

    public final override func reset() throws {
        try resetBlocks()
        stream = StreamPosition()
    }

    public final override func render(_ flags: inout RenderActionFlags, _ request: RenderRequest, _ output: AudioBufferList) throws -> Int {
        guard let fifo else { return 0 }
        var produced = 0
        while produced < request.frameCount {
            let available = stream.committed - stream.read
            if available > 0 {
                let count = min(available, request.frameCount - produced)
                for channel in 0..<output.channelCount {
                    (output[channel] + produced).update(from: fifo.list[channel] + stream.read, count: count)
                }
                stream.read += count
                produced += count
            } else if stream.finished {
                break
            } else {
                try runBlock(wanted: request.frameCount - produced)
            }
        }
        output.endStream(filled: produced, requested: request.frameCount, flags: &flags)
        return produced
    }

    /// Runs the kernel on one block of input (silence once the input ended) and moves its
    /// output into the FIFO: latency frames dropped, tail frames held back until sound follows.
    private func runBlock(wanted: Int) throws {
        guard let blockInput, let blockOutput, let fifo, let pullView else { return }
        let frames = fixedBlockLength ?? min(blockCapacity, max(wanted, 1))
        var filled = 0
        while filled < frames && !stream.inputEnded {
            let count = min(frames - filled, maximumFramesPerSlice)
            for channel in 0..<pullView.count { pullView[channel] = blockInput[channel] + filled }
            var pullFlags = RenderActionFlags()
            let request = RenderRequest(timeStamp: AudioTimeStamp(sampleTime: stream.inputFrames), bus: 0, frameCount: count)
            let got = try pullInput(bus: 0, &pullFlags, request, into: AudioBufferList(channels: pullView, capacity: count))
            filled += got
            stream.inputFrames += Int64(got)
            if got < count || pullFlags.contains(.endOfStream) { stream.inputEnded = true }
        }
        if filled < frames { blockInput.zero(from: filled, frames: frames - filled) }
        try processBlock(input: blockInput, output: blockOutput, frames: frames)
        if stream.latency == nil { stream.latency = Int64(max(0, processingLatency)) }
        if stream.read == stream.committed {
            let held = stream.written - stream.committed
            for channel in 0..<fifo.list.channelCount {
                fifo.list[channel].update(from: fifo.list[channel] + stream.committed, count: held)
            }
            stream.read = 0
            stream.committed = 0
            stream.written = held
        }
        let latency = stream.latency ?? 0
        let start = stream.position
        stream.position += Int64(frames)
        let bodyEnd: Int64 = stream.inputEnded ? stream.inputFrames + latency : .max
        let bodyFrom = Int(min(max(latency - start, 0), Int64(frames)))
        let bodyTo = Int(min(max(bodyEnd - start, Int64(bodyFrom)), Int64(frames)))
        if bodyTo > bodyFrom {
            for channel in 0..<fifo.list.channelCount {
                (fifo.list[channel] + stream.written).update(from: blockOutput[channel] + bodyFrom, count: bodyTo - bodyFrom)
            }
            stream.written += bodyTo - bodyFrom
            stream.committed = stream.written
        }
        if bodyTo < frames, stream.inputEnded {
            if let tailLimit {
                for frame in bodyTo..<frames where !stream.finished {
                    appendTail(frame, at: start + Int64(frame), intoTail: start + Int64(frame) - bodyEnd, limit: tailLimit)
                }
            } else {
                stream.finished = true
            }
        }
        if stream.finished { stream.written = stream.committed }
    }

    /// Holds back one frame of tail, `intoTail` frames after the aligned input's end; a frame
    /// at or above the threshold commits the frames before it. A silent window (with no sound
    /// held in the kernel for later), or the limit, ends the stream.
    private func appendTail(_ frame: Int, at position: Int64, intoTail: Int64, limit: Int64) {
        guard let blockOutput, let fifo else { return }
        let windowStarts = intoTail % Int64(Self.tailWindow) == 0
        if intoTail > 0, windowStarts, !stream.windowLoud, intoTail < limit {
            // A quiet window ends the tail, unless sound is still to come: then it is kept.
            guard holdsSound(from: position) else {
                stream.finished = true
                return
            }
            stream.committed = stream.written
        }
        if intoTail >= limit {
            stream.finished = true
            return
        }
        if windowStarts { stream.windowLoud = false }
        var loud = false
        for channel in 0..<fifo.list.channelCount {
            let sample = blockOutput[channel][frame]
            fifo.list[channel][stream.written] = sample
            if abs(sample) >= Self.tailThreshold { loud = true }
        }
        stream.written += 1
        if loud {
            stream.committed = stream.written
            stream.windowLoud = true
        }
    }
}
