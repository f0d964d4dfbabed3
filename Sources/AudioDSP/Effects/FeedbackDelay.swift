#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An echo with feedback, as `AVAudioUnitDelay` makes it: the input comes back after the delay
/// time, and each echo comes back again scaled by the feedback, through an optional low-pass.
///
/// The tap is `d[n] = LP(line[n − D])` and the line holds `x[n] + feedback × d[n]`, so an
/// impulse echoes at D, 2D, 3D, … frames with gains 1, feedback, feedback², … (each echo one more
/// time through the low-pass); the output is `(1 − wet) × x + wet × d`. The line is sized for the
/// longest delay when made, so settings change while rendering without allocating.
public final class FeedbackDelay {
    /// What the echo does.
    public struct Settings: Equatable, Sendable {
        /// The delay in seconds, 0 to `maximumTime` (at least one frame).
        public var time: Double
        /// The gain of each echo's return, −1 to 1.
        public var feedback: Double
        /// The low-pass cutoff in Hz the echoes go through; nil, or at or above half the rate, for none.
        public var lowpass: Double?
        /// The share of the echoed signal in the output, 0 (dry) to 1 (only the echoes).
        public var wet: Double

        public init(time: Double, feedback: Double = 0.5, lowpass: Double? = nil, wet: Double = 0.5) {
            self.time = time
            self.feedback = feedback
            self.lowpass = lowpass
            self.wet = wet
        }
    }

    /// The longest delay a line holds, in seconds.
    public static let maximumTime = 2.0

    /// The channels it echoes.
    public let channelCount: Int
    /// The rate its times are counted at.
    public let sampleRate: Double
    private let capacity: Int
    private let lines: UnsafeMutablePointer<Float>
    private let filterStates: UnsafeMutablePointer<Float>
    private var writeIndex = 0
    /// Frames processed since the start, and the last of them whose line sample, times the wet share, reached `quietLevel`.
    private var position: Int64 = 0
    private var lastLoudWrite: Int64 = .min / 2
    /// The level under which what the line holds counts as silence.
    public let quietLevel: Float
    private var delayFrames = 1
    private var feedback: Float = 0
    private var wet: Float = 0
    /// The one-pole low-pass `y = b0 (x + x₋₁) − a1 y₋₁` (bilinear), or nil for none.
    private var lowpass: (b0: Float, a1: Float)?

    /// A delay for `channelCount` channels at `sampleRate`, starting silent with `settings`;
    /// sound under `quietLevel` in its line counts as none (`holdsSound(from:)`).
    public init(channelCount: Int, sampleRate: Double, settings: Settings, quietLevel: Float = 1e-6) {
        self.channelCount = channelCount
        self.quietLevel = quietLevel
        self.sampleRate = sampleRate
        capacity = Int((Self.maximumTime * sampleRate).rounded()) + 1
        lines = .allocate(capacity: capacity * channelCount)
        filterStates = .allocate(capacity: 2 * channelCount)
        reset()
        update(settings)
    }

    deinit {
        lines.deallocate()
        filterStates.deallocate()
    }

    /// Silences the line and the filters.
    public func reset() {
        lines.initialize(repeating: 0, count: capacity * channelCount)
        filterStates.initialize(repeating: 0, count: 2 * channelCount)
        writeIndex = 0
        position = 0
        lastLoudWrite = .min / 2
    }

    /// Whether the line holds an echo that comes out at or above `quietLevel` (before the low-pass) at frame `position` or later.
    public func holdsSound(from position: Int64) -> Bool { lastLoudWrite + Int64(delayFrames) >= position }

    /// Takes new settings from the next frame; the echo already in the line stays.
    public func update(_ settings: Settings) {
        delayFrames = min(capacity - 1, max(1, Int((settings.time * sampleRate).rounded())))
        feedback = Float(max(-1, min(1, settings.feedback)))
        wet = Float(max(0, min(1, settings.wet)))
        if let cutoff = settings.lowpass, cutoff < sampleRate / 2 {
            let k = tan(Double.pi * max(1, cutoff) / sampleRate)
            let wasOff = lowpass == nil
            lowpass = (Float(k / (1 + k)), Float((k - 1) / (k + 1)))
            if wasOff {
                for channel in 0..<channelCount { seedFilter(channel) }
            }
        } else {
            lowpass = nil
        }
    }

    /// Starts a channel's low-pass as if it had always seen the tap it sees now, so switching it on adds no step.
    private func seedFilter(_ channel: Int) {
        var read = writeIndex - delayFrames
        if read < 0 { read += capacity }
        let tap = lines[channel * capacity + read]
        filterStates[2 * channel] = tap
        filterStates[2 * channel + 1] = tap
    }

    /// Echoes `frames` frames of `input` into `output` (one pointer per channel; they may be the same buffers).
    public func process(input: UnsafePointer<UnsafeMutablePointer<Float>>, output: UnsafePointer<UnsafeMutablePointer<Float>>, frames: Int) {
        let dry = 1 - wet, wet = wet, feedback = feedback, delay = delayFrames, capacity = capacity, quiet = wet > 0 ? quietLevel / wet : .infinity
        var end = writeIndex, loudFrame = -1
        for channel in 0..<channelCount {
            let line = lines + channel * capacity, source = input[channel], destination = output[channel]
            var write = writeIndex
            var read = write - delay
            if read < 0 { read += capacity }
            if let (b0, a1) = lowpass {
                var previousIn = filterStates[2 * channel], previousOut = filterStates[2 * channel + 1]
                for frame in 0..<frames {
                    let raw = line[read]
                    let tap = b0 * (raw + previousIn) - a1 * previousOut
                    previousIn = raw
                    previousOut = tap
                    let x = source[frame]
                    let kept = x + feedback * tap
                    line[write] = kept
                    if abs(kept) >= quiet, frame > loudFrame { loudFrame = frame }
                    destination[frame] = dry * x + wet * tap
                    write += 1
                    if write == capacity { write = 0 }
                    read += 1
                    if read == capacity { read = 0 }
                }
                filterStates[2 * channel] = previousIn
                filterStates[2 * channel + 1] = previousOut
            } else {
                // In runs where neither the tap nor the write wraps around the ring, and no longer
                // than the delay, so a run never reads what it writes: the loop then has no
                // dependence from one frame to the next and runs as vector instructions.
                var frame = 0
                while frame < frames {
                    let run = min(frames - frame, capacity - write, capacity - read, delay)
                    let taps = line + read, kept = line + write, x = source + frame, y = destination + frame
                    for index in 0..<run {
                        let tap = taps[index], sample = x[index]
                        kept[index] = sample + feedback * tap
                        y[index] = dry * sample + wet * tap
                    }
                    // The run's last loud frame, sought from its end: at once in sound, through the run in silence.
                    var last = run - 1
                    while last >= 0, !(abs(kept[last]) >= quiet) { last -= 1 }
                    if last >= 0, frame + last > loudFrame { loudFrame = frame + last }
                    frame += run
                    write += run
                    if write == capacity { write = 0 }
                    read += run
                    if read == capacity { read = 0 }
                }
            }
            end = write
        }
        writeIndex = end
        if loudFrame >= 0 { lastLoudWrite = position + Int64(loudFrame) }
        position += Int64(frames)
    }
}
