import AudioGraph

/// Fades a stream out to silence over its last `fadeOutFrames` frames, wherever it ends: for a
/// stream whose length is known only when it ends, such as one with a reverb's, a delay's or a
/// plugin's tail after the input.
///
/// The node holds back the fade's length of frames ahead of what it gives: a frame leaves only
/// once more than `fadeOutFrames` frames follow it, or once the stream has ended, when the
/// frames held are the last ones and take the ramp. The ramp is `FadeNode`'s (1 at the first
/// frame of the fade, 0 at the last), it counts from the stream's first frame, so it lands on the
/// same frames for any slice size. It may fade in too, over its first `fadeInFrames`: a frame
/// in both fades takes the smaller gain, as in `FadeNode`, so a stream of known length faded both
/// ways comes out as `FadeNode` gives it. The ring is made at initialize: rendering allocates nothing.
public final class EndFadeNode: AudioNode {
    /// Frames the fade-in lasts (0: none).
    public let fadeInFrames: Int64
    /// Frames the fade-out lasts.
    public let fadeOutFrames: Int64

    private var ring: AudioBufferStorage?
    private var scratch: AudioBufferStorage?
    private var capacity = 0
    /// The ring's first held frame, the frames it holds, frames pulled and given so far.
    private var start = 0, held = 0
    private var pulled: Int64 = 0, given: Int64 = 0
    private var inputEnded = false

    public init(name: String = "fade out", fadeInFrames: Int64 = 0, fadeOutFrames: Int64) {
        self.fadeInFrames = max(0, fadeInFrames)
        self.fadeOutFrames = max(0, fadeOutFrames)
        super.init(name: name, inputBusCount: 1, outputBusCount: 1)
    }

    public override var planDetail: String? {
        (fadeInFrames > 0 ? "fade in over \(fadeInFrames) frames, " : "") + "fade out over the last \(fadeOutFrames) frames of the stream, its tail included (held back that long)"
    }

    /// The gain of frame `time` of a stream of `total` frames.
    public func gain(at time: Int64, total: Int64) -> Float {
        let fromEnd = total - time
        guard fromEnd <= fadeOutFrames else { return 1 }
        return Float(max(0, fromEnd - 1)) / Float(max(1, fadeOutFrames - 1))
    }

    public override func allocateRenderResources() throws {
        let format = try requiredStreamFormat(scope: .input, bus: 0)
        capacity = Int(fadeOutFrames) + maximumFramesPerSlice
        ring = AudioBufferStorage(channelCount: format.channelCount, capacity: capacity)
        scratch = AudioBufferStorage(channelCount: format.channelCount, capacity: maximumFramesPerSlice)
        try reset()
    }

    public override func deallocateRenderResources() {
        ring = nil
        scratch = nil
    }

    public override func reset() throws {
        start = 0
        held = 0
        pulled = 0
        given = 0
        inputEnded = false
    }

    public override func render(_ flags: inout RenderActionFlags, _ request: RenderRequest, _ output: AudioBufferList) throws -> Int {
        guard let ring, let scratch else { return 0 }
        let fade = Int(fadeOutFrames)
        while !inputEnded, held < fade + request.frameCount {
            let count = min(capacity - held, maximumFramesPerSlice)
            var pullFlags = RenderActionFlags()
            let got = try pullInput(bus: 0, &pullFlags, RenderRequest(timeStamp: AudioTimeStamp(sampleTime: pulled), bus: 0, frameCount: count),
                                    into: scratch.list)
            copy(from: scratch.list, count: got, into: ring.list)
            pulled += Int64(got)
            if got < count || pullFlags.contains(.endOfStream) { inputEnded = true }
        }
        let frames = inputEnded ? min(request.frameCount, held) : min(request.frameCount, held - fade)
        for channel in 0..<output.channelCount {
            let first = min(frames, capacity - start)
            output[channel].update(from: ring.list[channel] + start, count: first)
            if first < frames { (output[channel] + first).update(from: ring.list[channel], count: frames - first) }
        }
        let fadingOut = inputEnded && given + Int64(frames) > pulled - fadeOutFrames
        if fadingOut || given < fadeInFrames {
            for frame in 0..<frames {
                let time = given + Int64(frame)
                var gain: Float = time < fadeInFrames ? Float(time) / Float(fadeInFrames) : 1
                if fadingOut { gain = min(gain, self.gain(at: time, total: pulled)) }
                if gain < 1 { for channel in 0..<output.channelCount { output[channel][frame] *= gain } }
            }
        }
        start = (start + frames) % max(1, capacity)
        held -= frames
        given += Int64(frames)
        output.endStream(filled: frames, requested: request.frameCount, flags: &flags)
        return frames
    }

    /// Appends `count` frames of `source` to the ring, after the frames it holds.
    private func copy(from source: AudioBufferList, count: Int, into ring: AudioBufferList) {
        let end = (start + held) % max(1, capacity)
        let first = min(count, capacity - end)
        for channel in 0..<ring.channelCount {
            (ring[channel] + end).update(from: source[channel], count: first)
            if first < count { ring[channel].update(from: source[channel] + first, count: count - first) }
        }
        held += count
    }
}
