import AudioGraph

/// What a tap saw: every slice's sample time and frame count, and the samples, per channel;
/// `block` is the tap to install.
public final class TapRecording {
    public var sampleTimes: [Int64] = []
    public var frameCounts: [Int] = []
    public var samples: [[Float]]

    public init(channels: Int) { samples = Array(repeating: [], count: channels) }

    public var block: TapBlock {
        { [self] buffer, sampleTime in
            sampleTimes.append(sampleTime)
            frameCounts.append(buffer.frameCount)
            for channel in 0..<buffer.channelCount { samples[channel] += buffer[channel] }
        }
    }

    /// Whether each slice starts where the one before ended, the first at frame 0.
    public var timesAreContiguousFromZero: Bool {
        var next: Int64 = 0
        for (time, frames) in zip(sampleTimes, frameCounts) {
            guard time == next, frames > 0 else { return false }
            next += Int64(frames)
        }
        return true
    }
}
