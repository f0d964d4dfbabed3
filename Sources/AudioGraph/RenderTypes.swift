/// Where a slice lies in the stream: the frame index of its first frame.
///
/// Core Audio's `AudioTimeStamp`, reduced to the sample time an offline graph needs.
public struct AudioTimeStamp: Hashable, Sendable {
    /// Frames rendered before this slice.
    public var sampleTime: Int64

    public init(sampleTime: Int64) { self.sampleTime = sampleTime }
}

/// Flags that travel with a render call.
///
/// Core Audio's `AudioUnitRenderActionFlags`, with what an offline graph needs.
public struct RenderActionFlags: OptionSet, Sendable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// The producer wrote only zeros; a consumer may skip work (an IIR filter still rings out).
    /// Core Audio's `kAudioUnitRenderAction_OutputIsSilence`.
    public static let outputIsSilence = RenderActionFlags(rawValue: 1 << 4)
    /// The producer has no frames after this slice; the frames it did not render are zeros.
    public static let endOfStream = RenderActionFlags(rawValue: 1 << 16)
}

/// What a producer is asked for in one render call.
public struct RenderRequest {
    /// The time of the slice's first frame.
    public var timeStamp: AudioTimeStamp
    /// The bus being pulled, on the node that produces the audio.
    public var bus: Int
    /// Frames wanted, at most the graph's maximum frames per slice.
    public var frameCount: Int

    public init(timeStamp: AudioTimeStamp, bus: Int, frameCount: Int) {
        self.timeStamp = timeStamp
        self.bus = bus
        self.frameCount = frameCount
    }
}

/// A function that feeds an input bus, in place of a node: Core Audio's render callback.
///
/// It writes `request.frameCount` frames into `buffers` and returns how many of them are
/// audio. Fewer than asked means the stream ends there: it zeroes the rest and sets
/// `.endOfStream`. It must not allocate, lock or block for long: it runs on the render path.
public typealias RenderCallback = (
    _ flags: inout RenderActionFlags, _ request: RenderRequest, _ buffers: AudioBufferList
) throws -> Int

/// What one pull of the generic output produced.
public enum SliceResult: Equatable, Sendable {
    /// This many frames are in the output buffers (fewer than asked only for the last slice).
    case rendered(frames: Int)
    /// Every source is exhausted; nothing was rendered.
    case endOfStream
}
