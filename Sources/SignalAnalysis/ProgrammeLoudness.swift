import CAudioKernels

/// Integrated loudness, loudness range and true peak of a whole programme (a track), fed
/// interleaved blocks: the report sketcher's meters (`GatedLoudness`, `TruePeakMeter`) without
/// its waveform and spectrum, for measuring a library at a quarter of libebur128's cost.
///
/// Its figures are libebur128's: the integrated loudness within 0.01 LU of it (0.01 dB bins),
/// the loudness range from the same 3 s windows a second, the true peak from the same 4×
/// interpolation (`LoudnessTests` hold them to it).
public final class ProgrammeLoudness {
    public let channelCount: Int
    private let loudness: GatedLoudness
    private let peaks: TruePeakMeter
    private let planar: UnsafeMutablePointer<Float>
    private let planarChannels: UnsafeMutablePointer<UnsafeMutablePointer<Float>?>
    private let channels: UnsafeMutablePointer<UnsafePointer<Float>?>

    /// A meter for `channelCount` channels (at least one) at `sampleRate` Hz.
    public init(channelCount: Int, sampleRate: Double) {
        self.channelCount = channelCount
        loudness = GatedLoudness(channelCount: channelCount, sampleRate: sampleRate, measuresRange: true)
        peaks = TruePeakMeter(channelCount: channelCount, sampleRate: sampleRate)
        let slots = max(1, channelCount)
        planar = .allocate(capacity: slots * SignalSketcher.interleavedChunk)
        planar.initialize(repeating: 0, count: slots * SignalSketcher.interleavedChunk)
        planarChannels = .allocate(capacity: slots)
        for channel in 0..<slots { (planarChannels + channel).initialize(to: planar + channel * SignalSketcher.interleavedChunk) }
        channels = .allocate(capacity: slots)
        channels.initialize(repeating: nil, count: slots)
    }

    deinit {
        planar.deallocate()
        planarChannels.deallocate()
        channels.deallocate()
    }

    /// Adds `frames` interleaved frames (full scale ±1).
    public func add(interleaved samples: UnsafePointer<Float>, frames: Int) {
        guard channelCount > 0 else { return }
        var done = 0
        while done < frames {
            let count = min(frames - done, SignalSketcher.interleavedChunk)
            aurender_deinterleave_float(samples + done * channelCount, Int32(channelCount), count, planarChannels)
            for channel in 0..<channelCount { channels[channel] = UnsafePointer(planarChannels[channel]) }
            loudness.add(channels, frames: count)
            peaks.add(channels, frames: count)
            done += count
        }
    }

    /// The gated blocks so far: the integrated loudness and range, alone or merged into an album's.
    public var blocks: GatedBlocks { loudness.blocks }

    /// The largest true peak so far, linear (1 is full scale); 0 for silence.
    public var truePeak: Double { Double(peaks.truePeak) }

    /// The largest sample so far, linear.
    public var samplePeak: Double { Double(peaks.samplePeak) }
}
