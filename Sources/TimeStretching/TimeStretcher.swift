/// Changes a stream's tempo without changing its pitch: one SoundTouch processor (WSOLA,
/// overlap-add of waveform-similar segments), streaming interleaved Float32 frames.
///
/// SoundTouch is fast and made for exactly this, which is why it is used; its own rate
/// transposer is left at 1 (the caller resamples with a better filter when it needs to).
/// Its output is aligned with its input: stretched frame k is input frame k × tempo, so
/// there is no leading delay to remove, though SoundTouch holds back some input
/// (`initialLatency`) before its first output. The tempo may change between puts; it applies
/// from the first frame not yet stretched (`unprocessedFrames`).
///
/// SoundTouch grows its buffers as it first needs them: `reserve(blockFrames:readFrames:tempos:)`
/// grows them once for a way of using it, after which putting and receiving allocate nothing.
/// One stretcher per stream, used from one thread at a time.
public final class TimeStretcher {
    /// The most channels SoundTouch stretches (`SOUNDTOUCH_MAX_CHANNELS`).
    public static let maximumChannelCount = 16
    /// The highest sample rate SoundTouch takes.
    public static let maximumSampleRate = 768_000
    /// The SoundTouch library's version: "2.3.2".
    public static var libraryVersion: String { LibSoundTouch.version() }

    /// Samples per frame.
    public let channelCount: Int
    /// The stream's rate in Hz, which sets SoundTouch's segment lengths.
    public let sampleRate: Int
    /// How much faster the output plays, input duration over output duration: 1.25 is 25 % faster (shorter).
    public private(set) var tempo = 1.0
    private let handle: LibSoundTouch.Handle

    /// A stretcher for `channelCount` channels at `sampleRate` Hz, at tempo 1.
    public init(channelCount: Int, sampleRate: Int) throws(TimeStretchError) {
        guard (1...Self.maximumChannelCount).contains(channelCount) else { throw .unsupportedChannelCount(channelCount) }
        guard (1...Self.maximumSampleRate).contains(sampleRate) else { throw .unsupportedSampleRate(sampleRate) }
        guard let handle = LibSoundTouch.create() else { throw .library(operation: "create a processor") }
        self.handle = handle
        self.channelCount = channelCount
        self.sampleRate = sampleRate
        guard LibSoundTouch.setChannels(handle, channelCount), LibSoundTouch.setSampleRate(handle, sampleRate) else {
            LibSoundTouch.destroy(handle)
            throw .library(operation: "take \(channelCount) channels at \(sampleRate) Hz")
        }
        LibSoundTouch.setTempo(handle, 1)
    }

    deinit {
        LibSoundTouch.destroy(handle)
    }

    /// Sets the tempo (above 0) for the frames not stretched yet.
    public func setTempo(_ tempo: Double) {
        self.tempo = tempo
        LibSoundTouch.setTempo(handle, tempo)
    }

    /// Input frames SoundTouch holds before its first output at the current tempo.
    public var initialLatency: Int { LibSoundTouch.setting(handle, .initialLatency) }

    /// Stretched frames ready to be received.
    public var availableFrames: Int { LibSoundTouch.available(handle) }

    /// Input frames given but not stretched yet: a tempo set now applies from the first of them.
    public var unprocessedFrames: Int { LibSoundTouch.unprocessed(handle) }

    /// Adds `frames` interleaved frames and stretches all it can.
    public func put(_ samples: UnsafePointer<Float>, frames: Int) throws(TimeStretchError) {
        guard LibSoundTouch.put(handle, samples, frames: frames) else { throw .library(operation: "take \(frames) frames") }
    }

    /// Moves up to `frames` stretched frames, interleaved, into `destination`; returns how many.
    public func receive(into destination: UnsafeMutablePointer<Float>, frames: Int) -> Int {
        LibSoundTouch.receive(handle, into: destination, frames: frames)
    }

    /// Forgets every frame given and made, as if new, keeping the tempo and the buffers' memory.
    public func clear() {
        LibSoundTouch.clear(handle)
    }

    /// Grows SoundTouch's buffers to what a stream needs that is put `blockFrames` at a time,
    /// whenever fewer than `readFrames` frames are ready, and received at most `readFrames` at a
    /// time, at any tempo in `tempos`; then clears. It runs silence through SoundTouch at both
    /// ends of the range: the slowest tempo holds the most output, the fastest the most input.
    public func reserve(blockFrames: Int, readFrames: Int, tempos: ClosedRange<Double>) throws(TimeStretchError) {
        let silence = UnsafeMutablePointer<Float>.allocate(capacity: blockFrames * channelCount)
        let received = UnsafeMutablePointer<Float>.allocate(capacity: readFrames * channelCount)
        defer {
            silence.deallocate()
            received.deallocate()
            clear()
            LibSoundTouch.setTempo(handle, tempo)
        }
        silence.initialize(repeating: 0, count: blockFrames * channelCount)
        for rate in [tempos.lowerBound, tempos.upperBound] {
            clear()
            LibSoundTouch.setTempo(handle, rate)
            let held = 2 * (initialLatency + blockFrames)
            let mostReady = readFrames + Int((Double(held) / rate).rounded(.up))
            var given = 0
            while given < 4 * held || (availableFrames < mostReady && given < 64 * held) {
                try put(silence, frames: blockFrames)
                given += blockFrames
                if rate == tempos.upperBound {
                    while receive(into: received, frames: readFrames) > 0 {}
                }
            }
        }
    }
}
