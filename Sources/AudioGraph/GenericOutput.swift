/// The output node that drives rendering offline, connected to no hardware.
///
/// Core Audio's generic output unit (`kAudioUnitSubType_GenericOutput`): the caller pulls
/// slices in a loop with `renderSlice(frameCount:)` and decides where they go.
public final class GenericOutput: AudioNode {
    private var storage: AudioBufferStorage?
    private var finished = false

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
        storage = AudioBufferStorage(channelCount: channels, capacity: maximumFramesPerSlice)
        sampleTime = 0
        finished = false
    }

    public override func deallocateRenderResources() {
        storage = nil
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
    public func renderSlice(frameCount: Int, into destination: AudioBufferList) throws -> SliceResult {
        guard isInitialized else { throw GraphError.notInitialized }
        guard frameCount <= maximumFramesPerSlice else {
            throw GraphError.tooManyFrames(node: name, requested: frameCount, maximum: maximumFramesPerSlice)
        }
        if finished || frameCount <= 0 { return finished ? .endOfStream : .rendered(frames: 0) }
        var flags: RenderActionFlags = []
        let request = RenderRequest(timeStamp: AudioTimeStamp(sampleTime: sampleTime), bus: 0, frameCount: frameCount)
        let frames = min(frameCount, max(0, try pullInput(bus: 0, &flags, request, into: destination)))
        if frames < frameCount || flags.contains(.endOfStream) { finished = true }
        if frames == 0 { return .endOfStream }
        sampleTime += Int64(frames)
        return .rendered(frames: frames)
    }
}
