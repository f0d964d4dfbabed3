/// A read-only view of one slice that a node's output bus gave: what a tap block sees.
///
/// AVAudioEngine hands its taps an `AVAudioPCMBuffer`; this is the same slice without the copy:
/// it points into the buffers the graph rendered into, so it is valid only while the tap block
/// runs, and it lets the block read the samples but not change them.
public struct TapBuffer {
    private let channels: UnsafeMutableBufferPointer<UnsafeMutablePointer<Float>>
    /// Frames in the slice: the audio the bus gave, never the zeros after its end.
    public let frameCount: Int

    /// A view of the first `frameCount` frames of `buffers`.
    init(_ buffers: AudioBufferList, frameCount: Int) {
        channels = buffers.channels
        self.frameCount = frameCount
    }

    /// Channels in the slice, as the bus's stream format has them.
    public var channelCount: Int { channels.count }

    /// The `frameCount` samples of one channel, Float32 at full scale ±1.
    public subscript(channel: Int) -> UnsafeBufferPointer<Float> {
        UnsafeBufferPointer(start: channels[channel], count: frameCount)
    }
}

/// What a tap runs with every slice its bus gives: the slice, and the frame index of the slice's
/// first frame in that bus's stream (0 for the first frame after `Graph.initialize()` or
/// `Graph.reset()`).
///
/// It runs on the render thread — the thread that calls `renderSlice` — in the middle of the
/// render, which waits for it: keep it short, like a render callback. Rendering allocates nothing
/// and takes no locks only as long as the taps' blocks do neither. The buffer is valid only
/// during the call: copy what you keep.
public typealias TapBlock = (_ buffer: TapBuffer, _ sampleTime: Int64) -> Void

/// One output bus's tap and the frames the bus has given; kept by the node, set by the graph.
struct OutputTap {
    var block: TapBlock?
    var framesGiven: Int64 = 0
}
