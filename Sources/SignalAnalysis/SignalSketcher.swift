import AudioGraph

/// Watches a stream block by block and keeps its `SignalSketch`: the render notification a
/// report attaches to a file's reader or writer.
///
/// Everything is allocated in `init`; `rendered(_:frames:)` allocates nothing and takes no
/// lock, and its memory does not grow with the stream's length.
public final class SignalSketcher: RenderNotify {
    /// The stream's rate and channel count.
    public let sampleRate: Double
    public let channelCount: Int

    /// A sketcher for a stream of `channelCount` channels at `sampleRate` Hz. `expectedFrames`,
    /// when known, lets the outline's columns and the spectrum's choice of windows fit the length
    /// from the start; the sketch is right without it.
    public init(sampleRate: Double, channelCount: Int, expectedFrames: Int64?) {
        self.sampleRate = sampleRate
        self.channelCount = channelCount
    }

    public func rendered(_ buffers: AudioBufferList, frames: Int) {}

    /// Adds `frames` interleaved frames of `channelCount` channels.
    public func add(interleaved samples: UnsafePointer<Float>, frames: Int) {}

    /// The sketch of everything seen so far.
    public func sketch() -> SignalSketch {
        SignalSketch(sampleRate: sampleRate, channelCount: channelCount, frames: 0, framesPerColumn: 1, minima: [], maxima: [], rms: [],
                     binWidth: 1, spectrumDecibels: [], integratedLoudness: nil, samplePeak: 0, truePeak: 0)
    }
}
