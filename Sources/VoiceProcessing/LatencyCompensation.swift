/// Delays each of WebRTC's output frames by what its current settings leave short of its
/// greatest latency, so the voice node runs the same number of frames late whichever stages run.
///
/// WebRTC's delay depends on its stages (the noise suppressor's overlap, the band-splitting
/// filters that run only when some stage changes the samples), and a setting changed while
/// rendering may switch them: without this the output would jump by up to 7 ms against the input.
/// With it the node hides one fixed latency; at a switch a few ms are dropped or repeated once.
final class LatencyCompensation {
    /// The latency every frame is brought to.
    let target: Int
    /// Frames added to the current frames: `target` less WebRTC's latency now.
    private(set) var delay = 0
    private let channelCount: Int
    /// Per channel, WebRTC's last `target` output samples, then room for as many copied aside.
    private let history: UnsafeMutablePointer<Float>

    /// A compensation up to `target` frames for `channelCount` channels of WebRTC frames of
    /// `frameLength` frames (at least `target`).
    init(target: Int, channelCount: Int, frameLength: Int) {
        precondition(target <= frameLength, "the compensation holds less than one frame")
        self.target = target
        self.channelCount = channelCount
        history = .allocate(capacity: max(1, 2 * target * channelCount))
        history.initialize(repeating: 0, count: max(1, 2 * target * channelCount))
    }

    deinit { history.deallocate() }

    /// Starts again with silence before the first frame, delaying frames by `target − latency`.
    func reset(latency: Int) {
        history.update(repeating: 0, count: max(1, 2 * target * channelCount))
        delay = target - latency
    }

    /// From the next frame on, WebRTC runs `latency` frames late.
    func latencyChanged(to latency: Int) {
        delay = target - latency
    }

    /// Delays one output frame of `frames` frames in place, channel by channel through `outputs`.
    func apply(_ outputs: UnsafePointer<UnsafeMutablePointer<Float>?>, frames: Int) {
        guard target > 0 else { return }
        for channel in 0..<channelCount {
            guard let samples = outputs[channel] else { continue }
            let held = history + 2 * target * channel
            let aside = held + target
            aside.update(from: samples + frames - target, count: target)
            if delay > 0 {
                (samples + delay).update(from: samples, count: frames - delay)
                samples.update(from: held + target - delay, count: delay)
            }
            held.update(from: aside, count: target)
        }
    }
}
