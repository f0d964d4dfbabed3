/// One streaming sample-rate converter: the seam every resampling library plugs into.
///
/// An engine is made for one `ResamplerConfiguration` (rates, channels, quality) by its
/// `ResamplerEngineKind`, then fed input and drained of output, call after call, until a call
/// says the input has ended.
///
/// **The exact-length contract.** For a stream of N input frames, the last of them given
/// with `endOfInput`, an engine produces exactly `configuration.outputFrames(forInputFrames: N)`
/// = round(N × outputRate / inputRate) frames in all, then no more. Output frame k lies at
/// input time k × inputRate / outputRate: the engine compensates its filter's delay, so there
/// is no leading silence, and its tail is flushed (or zero-padded) up to the exact length.
/// The samples do not depend on how the input and output are split into calls.
///
/// Engines are classes holding library state: one engine per stream, used from one thread at
/// a time. `process` allocates nothing and takes no locks, so it may run in a render path.
public protocol ResamplerEngine: AnyObject {
    /// What the engine was made for.
    var configuration: ResamplerConfiguration { get }

    /// How far the engine's filter reaches, in input frames, at most: output for input time t
    /// needs input up to t + latency, so a streaming engine holds its output back by this much
    /// (and hides the delay). A block of input converted on its own needs this many frames
    /// either side to come out as the stream converted whole would.
    var latency: Int { get }

    /// Converts up to `inputFrames` frames of `input` into at most `outputCapacity` frames of
    /// `output`; `endOfInput` says that these frames are the last, so the tail is flushed.
    ///
    /// An engine may consume fewer frames than given (give the rest again) and produce nothing
    /// while it fills its filter. After the input has ended, a call that produces nothing means
    /// the stream is complete.
    func process(_ input: ResamplerInput, inputFrames: Int, into output: ResamplerOutput, outputCapacity: Int,
                 endOfInput: Bool) throws(ResamplerError) -> ResamplerProgress

    /// Forgets all input, as if new: the next frame given is input time 0 of a new stream.
    func reset()
}

extension ResamplerEngine {
    /// Drains the tail after the last input: up to `outputCapacity` frames; nothing produced
    /// means the stream is complete.
    public func flush(into output: ResamplerOutput, outputCapacity: Int) throws(ResamplerError) -> Int {
        try withUnsafePointer(to: Float(0)) { (nothing) throws(ResamplerError) in
            try process(.interleaved(nothing), inputFrames: 0, into: output, outputCapacity: outputCapacity, endOfInput: true)
        }.framesProduced
    }
}

/// Frames an engine reads: interleaved (each frame's channels side by side) or planar (one
/// run of samples per channel). The caller keeps the memory alive during the call.
public enum ResamplerInput {
    /// `frames × channelCount` samples, frame after frame.
    case interleaved(UnsafePointer<Float>)
    /// One pointer per channel, each to `frames` samples.
    case planar(UnsafeBufferPointer<UnsafeMutablePointer<Float>>)
}

/// Where an engine writes frames, in either layout.
public enum ResamplerOutput {
    /// Room for `capacity × channelCount` samples, frame after frame.
    case interleaved(UnsafeMutablePointer<Float>)
    /// One pointer per channel, each with room for `capacity` samples.
    case planar(UnsafeBufferPointer<UnsafeMutablePointer<Float>>)
}

/// What one `process` call consumed and produced, in frames.
public struct ResamplerProgress: Equatable, Sendable {
    /// Input frames the engine took; the rest are to be given again.
    public var framesConsumed: Int
    /// Output frames written.
    public var framesProduced: Int

    /// A progress report.
    public init(framesConsumed: Int, framesProduced: Int) {
        self.framesConsumed = framesConsumed
        self.framesProduced = framesProduced
    }
}
