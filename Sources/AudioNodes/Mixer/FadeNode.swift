import AudioGraph

/// Fades a stream in from silence and out to silence: a linear gain ramp over the first
/// `fadeInFrames` frames and over the `fadeOutFrames` frames before `totalFrames`.
///
/// The envelope follows the render timestamps, so it lands on the same frames for any slice size.
public final class FadeNode: AudioNode {
    /// Frames the fade-in lasts.
    public let fadeInFrames: Int64
    /// Frames the fade-out lasts.
    public let fadeOutFrames: Int64
    /// The stream's length, where the fade-out ends.
    public let totalFrames: Int64

    public init(name: String = "fade", fadeInFrames: Int64, fadeOutFrames: Int64, totalFrames: Int64) {
        self.fadeInFrames = max(0, fadeInFrames)
        self.fadeOutFrames = max(0, fadeOutFrames)
        self.totalFrames = totalFrames
        super.init(name: name, inputBusCount: 1, outputBusCount: 1)
    }

    public override var planDetail: String? {
        "fade in over \(fadeInFrames) frames, out over \(fadeOutFrames)"
    }

    /// The gain at frame `time`.
    public func gain(at time: Int64) -> Float {
        var gain: Float = 1
        if time < fadeInFrames { gain = Float(time) / Float(fadeInFrames) }
        let fromEnd = totalFrames - time
        if fromEnd <= fadeOutFrames { gain = min(gain, Float(max(0, fromEnd - 1)) / Float(max(1, fadeOutFrames - 1))) }
        return gain
    }

    public override func render(_ flags: inout RenderActionFlags, _ request: RenderRequest, _ output: AudioBufferList) throws -> Int {
        let frames = try pullInput(bus: 0, &flags, request, into: output)
        let start = request.timeStamp.sampleTime
        guard start < fadeInFrames || start + Int64(frames) > totalFrames - fadeOutFrames else { return frames }
        for frame in 0..<frames {
            let gain = gain(at: start + Int64(frame))
            for channel in 0..<output.channelCount { output[channel][frame] *= gain }
        }
        return frames
    }
}
