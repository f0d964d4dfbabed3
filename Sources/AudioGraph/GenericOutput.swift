/// The output node that drives rendering offline, connected to no hardware.
///
/// Core Audio's generic output unit (`kAudioUnitSubType_GenericOutput`): the caller pulls
/// slices in a loop with `renderSlice(frameCount:)` and decides where they go.
public final class GenericOutput: AudioNode {
    private var storage: AudioBufferStorage?
    /// Channel pointers for the rest of a slice after a scheduled change, made at initialize.
    private var remainder: UnsafeMutableBufferPointer<UnsafeMutablePointer<Float>>?
    private var finished = false
    /// The graph's scheduled parameter changes, set by the graph while it is initialized.
    var schedule: ParameterSchedule?

    /// The time of the next slice's first frame.
    public private(set) var sampleTime: Int64 = 0

    /// A generic output with one input bus (what it renders) and one output bus (to the caller).
    public init(name: String = "output") {
        super.init(name: name, inputBusCount: 1, outputBusCount: 1)
    }

    /// The slice rendered by the last successful `renderSlice(frameCount:)`.
    public var buffers: AudioBufferList {
        guard let storage else { preconditionFailure("GenericOutput '\(name)' read before initialize") }
        return storage.list
    }

    public override func allocateRenderResources() throws {
        let channels = streamFormat(scope: .input, bus: 0)?.channelCount ?? 1
        let storage = AudioBufferStorage(channelCount: channels, capacity: maximumFramesPerSlice)
        self.storage = storage
        let remainder = UnsafeMutableBufferPointer<UnsafeMutablePointer<Float>>.allocate(capacity: channels)
        for channel in 0..<channels { remainder[channel] = storage.list[channel] }
        self.remainder = remainder
        try reset()
    }

    public override func deallocateRenderResources() {
        storage = nil
        remainder?.deallocate()
        remainder = nil
    }

    /// A graph dropped while initialized (a plan, or a build that failed after initialize)
    /// never deallocates its nodes' resources: the remainder pointers are freed here.
    deinit {
        remainder?.deallocate()
    }

    /// Starts the stream again at sample time 0.
    public override func reset() throws {
        sampleTime = 0
        finished = false
    }

    /// Pulls up to `frameCount` frames into `buffers`. Returns `.endOfStream` once every
    /// source is exhausted; the slice before it may be short. No frame is lost or
    /// duplicated between slices, whatever the slice sizes.
    public func renderSlice(frameCount: Int) throws -> SliceResult {
        guard let storage else { throw GraphError.notInitialized }
        return try renderSlice(frameCount: frameCount, into: storage.list)
    }

    /// Pulls up to `frameCount` frames straight into `destination` (the caller's memory, with
    /// the output's channel count and room for the frames), as `renderSlice(frameCount:)` does
    /// into `buffers`: a sink can have the graph render into its own blocks, copying nothing.
    ///
    /// The graph's scheduled parameter changes are applied between pulls: the slice is pulled
    /// in parts that end where a change is due, so each lands on its exact sample time.
    public func renderSlice(frameCount: Int, into destination: AudioBufferList) throws -> SliceResult {
        guard isInitialized, let remainder else { throw GraphError.notInitialized }
        guard frameCount <= maximumFramesPerSlice else {
            throw GraphError.tooManyFrames(node: name, requested: frameCount, maximum: maximumFramesPerSlice)
        }
        if finished || frameCount <= 0 { return finished ? .endOfStream : .rendered(frames: 0) }
        var done = 0
        while done < frameCount, !finished {
            try schedule?.apply(upTo: sampleTime)
            var size = frameCount - done
            if let due = schedule?.nextFrame { size = Int(min(Int64(size), due - sampleTime)) }
            var part = destination
            if done > 0 {
                let channels = min(remainder.count, destination.channelCount)
                for channel in 0..<channels { remainder[channel] = destination[channel] + done }
                part = AudioBufferList(channels: UnsafeMutableBufferPointer(rebasing: remainder[0..<channels]),
                                       capacity: destination.capacity - done)
            }
            var flags: RenderActionFlags = []
            let request = RenderRequest(timeStamp: AudioTimeStamp(sampleTime: sampleTime), bus: 0, frameCount: size)
            let frames = min(size, max(0, try pullInput(bus: 0, &flags, request, into: part)))
            tapOutput(bus: 0, part, frames: frames)
            if frames < size || flags.contains(.endOfStream) { finished = true }
            sampleTime += Int64(frames)
            done += frames
        }
        return done == 0 ? .endOfStream : .rendered(frames: done)
    }
}
