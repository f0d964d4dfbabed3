#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Changes a stream's tempo without changing its pitch: one SoundTouch processor (WSOLA,
/// overlap-add of waveform-similar segments), streaming interleaved Float32 frames.
///
/// SoundTouch is fast and made for exactly this, which is why it is used; its own rate
/// transposer is left at 1 (the caller resamples with a better filter when it needs to).
///
/// The output is aligned with the input: stretched frame k carries input time k × tempo, on
/// average over each segment, and frame 0 is input frame 0. SoundTouch itself lines up each
/// segment's start, so each segment's middle, and the sound on average, comes early at slow
/// tempos and late at fast ones, by (1 − tempo) × half a segment of input (a 90 ms segment at
/// tempo 0.5: 22 ms early); a stream therefore starts with half a segment of silence and as much
/// output is dropped, which moves the alignment to the segments' middles. SoundTouch also holds
/// back some input (`initialLatency`) before its first output. The tempo may change between
/// puts; it applies from the first frame not yet stretched (`unprocessedFrames`).
///
/// SoundTouch grows its buffers as it first needs them: `reserve(blockFrames:readFrames:tempos:)`
/// grows them once for a way of using it, after which putting, receiving and clearing allocate
/// nothing. One stretcher per stream, used from one thread at a time.
public final class TimeStretcher {
    /// The most channels SoundTouch stretches (`SOUNDTOUCH_MAX_CHANNELS`).
    public static let maximumChannelCount = 16
    /// The highest sample rate SoundTouch takes.
    public static let maximumSampleRate = 768_000
    /// The SoundTouch library's version: "2.3.2".
    public static var libraryVersion: String { LibSoundTouch.version() }
    /// Frames of silence put at a time.
    private static let silenceFrames = 1024

    /// Samples per frame.
    public let channelCount: Int
    /// The stream's rate in Hz, which sets SoundTouch's segment lengths.
    public let sampleRate: Int
    /// How much faster the output plays, input duration over output duration: 1.25 is 25 % faster (shorter).
    public private(set) var tempo = 1.0
    private let handle: LibSoundTouch.Handle
    private let silence: UnsafeMutablePointer<Float>
    /// Output frames still to drop at the start of the stream.
    private var leadToDrop = 0

    /// A stretcher for `channelCount` channels at `sampleRate` Hz, starting a stream at `tempo`.
    public init(channelCount: Int, sampleRate: Int, tempo: Double = 1) throws(TimeStretchError) {
        guard (1...Self.maximumChannelCount).contains(channelCount) else { throw .unsupportedChannelCount(channelCount) }
        guard (1...Self.maximumSampleRate).contains(sampleRate) else { throw .unsupportedSampleRate(sampleRate) }
        guard let handle = LibSoundTouch.create() else { throw .library(operation: "create a processor") }
        self.handle = handle
        self.channelCount = channelCount
        self.sampleRate = sampleRate
        silence = .allocate(capacity: Self.silenceFrames * channelCount)
        silence.initialize(repeating: 0, count: Self.silenceFrames * channelCount)
        guard LibSoundTouch.setChannels(handle, channelCount), LibSoundTouch.setSampleRate(handle, sampleRate) else {
            throw .library(operation: "take \(channelCount) channels at \(sampleRate) Hz")
        }
        setTempo(tempo)
        try clear()
    }

    deinit {
        LibSoundTouch.destroy(handle)
        silence.deallocate()
    }

    /// Sets the tempo (above 0) for the frames not stretched yet.
    public func setTempo(_ tempo: Double) {
        self.tempo = tempo
        LibSoundTouch.setTempo(handle, tempo)
    }

    /// Input frames SoundTouch holds before its first output at the current tempo.
    public var initialLatency: Int { LibSoundTouch.setting(handle, .initialLatency) }

    /// Output frames per segment at the current tempo, cross-fades included.
    public var segmentFrames: Int {
        LibSoundTouch.setting(handle, .outputSequence) + sampleRate * LibSoundTouch.setting(handle, .overlapMilliseconds) / 1000
    }

    /// Stretched frames ready to be received.
    public var availableFrames: Int { max(0, LibSoundTouch.available(handle) - leadToDrop) }

    /// Input frames given but not stretched yet: a tempo set now applies from the first of them.
    public var unprocessedFrames: Int { LibSoundTouch.unprocessed(handle) }

    /// Adds `frames` interleaved frames and stretches all it can.
    public func put(_ samples: UnsafePointer<Float>, frames: Int) throws(TimeStretchError) {
        guard LibSoundTouch.put(handle, samples, frames: frames) else { throw .library(operation: "take \(frames) frames") }
    }

    /// Moves up to `frames` stretched frames, interleaved, into `destination`; returns how many.
    public func receive(into destination: UnsafeMutablePointer<Float>, frames: Int) -> Int {
        if leadToDrop > 0 { leadToDrop -= LibSoundTouch.discard(handle, frames: leadToDrop) }
        guard leadToDrop == 0 else { return 0 }
        return LibSoundTouch.receive(handle, into: destination, frames: frames)
    }

    /// Starts a new stream at the current tempo, keeping the buffers' memory: forgets every
    /// frame given and made, then puts the half segment of silence whose output is dropped.
    public func clear() throws(TimeStretchError) {
        LibSoundTouch.clear(handle)
        let lead = segmentFrames / 2
        var given = 0
        while given < lead {
            let count = min(lead - given, Self.silenceFrames)
            try put(silence, frames: count)
            given += count
        }
        leadToDrop = lead
    }

    /// Grows SoundTouch's buffers to what a stream needs that is put `blockFrames` at a time,
    /// whenever fewer than `readFrames` frames are ready, and received at most `readFrames` at a
    /// time, at any tempo in `tempos`; then starts a new stream. It runs silence through
    /// SoundTouch: at the fastest tempo, the most input it ever holds in one put (what it holds
    /// before a segment, at the tempo in the range that needs the most, and two blocks); at the
    /// slowest, puts until it holds more output than it ever does between reads.
    public func reserve(blockFrames: Int, readFrames: Int, tempos: ClosedRange<Double>) throws(TimeStretchError) {
        let tempo = self.tempo
        let samples = (0...8).map { step in tempos.lowerBound * pow(tempos.upperBound / tempos.lowerBound, Double(step) / 8) }
        let mostHeld = samples.map { rate in
            setTempo(rate)
            return initialLatency
        }.max() ?? 0
        let mostInput = mostHeld + 2 * blockFrames
        let quiet = UnsafeMutablePointer<Float>.allocate(capacity: mostInput * channelCount)
        defer { quiet.deallocate() }
        quiet.initialize(repeating: 0, count: mostInput * channelCount)
        setTempo(tempos.upperBound)
        try clear()
        try put(quiet, frames: mostInput)
        while LibSoundTouch.discard(handle, frames: mostInput) > 0 {}
        setTempo(tempos.lowerBound)
        try clear()
        let mostReady = readFrames + Int((Double(2 * (mostHeld + blockFrames)) / tempos.lowerBound).rounded(.up))
        while availableFrames < mostReady {
            try put(quiet, frames: blockFrames)
        }
        setTempo(tempo)
        try clear()
    }
}
