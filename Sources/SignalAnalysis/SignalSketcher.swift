import AudioDSP
import AudioGraph
import CAudioKernels

/// Watches a stream block by block and keeps its `SignalSketch`: the render notification a
/// report attaches to a file's reader or writer.
///
/// Everything is allocated in `init`; `rendered(_:frames:)` allocates nothing and takes no
/// lock, and its memory does not grow with the stream's length. The sketch does not depend on
/// the sizes of the blocks the stream arrives in: each part (`WaveformOutline`, `WelchSpectrum`,
/// `GatedLoudness`, `TruePeakMeter`) works on spans fixed by stream position or computes each
/// frame alike wherever a block begins (the true-peak meter may skip other groups of frames,
/// but only ones that cannot change its result).
public final class SignalSketcher: RenderNotify {
    /// The stream's rate and channel count.
    public let sampleRate: Double
    public let channelCount: Int
    /// One spectrum window in this many is analysed: chosen from `expectedFrames` so a stream
    /// of that length gets about `targetWindows` windows, else `unknownLengthStride`.
    public let spectrumStride: Int

    /// Columns of the waveform outline.
    public static let columnCount = 1024
    /// Frames in a spectrum window (a 4096-point transform).
    public static let windowFrames = 4096
    /// Windows a stream of the expected length gets in its spectrum, about.
    public static let targetWindows = 64
    /// The spectrum stride when the length is unknown.
    public static let unknownLengthStride = 32
    /// A column's frames before the first merge when the length is unknown.
    static let unknownLengthColumnFrames: Int64 = 64
    /// Frames `add(interleaved:frames:)` splits into planar at a time.
    static let interleavedChunk = 4096

    private let outline: WaveformOutline
    private let spectrum: WelchSpectrum
    private let loudness: GatedLoudness
    private let peaks: TruePeakMeter
    /// The 8× reconstruction's peak, when asked for.
    private let reconstructed: ReconstructedPeakMeter?
    private var frames: Int64 = 0
    /// The block in hand's channel pointers, as the kernels take them.
    private let channels: UnsafeMutablePointer<UnsafePointer<Float>?>
    /// Planar room for `interleavedChunk` frames and its channel pointers.
    private let planar: UnsafeMutablePointer<Float>
    private let planarChannels: UnsafeMutablePointer<UnsafeMutablePointer<Float>?>

    /// A sketcher for a stream of `channelCount` channels at `sampleRate` Hz. `expectedFrames`,
    /// when known, lets the outline's columns and the spectrum's choice of windows fit the length
    /// from the start; the sketch is right without it. `reconstructsPeaks` adds the 8×
    /// reconstruction's peak (`SignalSketch.reconstructedPeak`), which costs more than the rest.
    public init(sampleRate: Double, channelCount: Int, expectedFrames: Int64?, reconstructsPeaks: Bool = false) {
        self.sampleRate = sampleRate
        self.channelCount = channelCount
        let columns = Self.columnCount
        let framesPerColumn = expectedFrames.map { max(1, ($0 + Int64(columns) - 1) / Int64(columns)) } ?? Self.unknownLengthColumnFrames
        outline = WaveformOutline(columns: columns, channelCount: channelCount, framesPerColumn: framesPerColumn)
        spectrumStride = Self.stride(expectedFrames: expectedFrames)
        spectrum = WelchSpectrum(size: Self.windowFrames, channelCount: channelCount, stride: spectrumStride)
        loudness = GatedLoudness(channelCount: channelCount, sampleRate: sampleRate)
        peaks = TruePeakMeter(channelCount: channelCount, sampleRate: sampleRate)
        reconstructed = reconstructsPeaks && channelCount > 0 ? ReconstructedPeakMeter(channelCount: channelCount) : nil
        let slots = max(1, channelCount)
        channels = .allocate(capacity: slots)
        channels.initialize(repeating: nil, count: slots)
        planar = .allocate(capacity: slots * Self.interleavedChunk)
        planar.initialize(repeating: 0, count: slots * Self.interleavedChunk)
        planarChannels = .allocate(capacity: slots)
        for channel in 0..<slots { (planarChannels + channel).initialize(to: planar + channel * Self.interleavedChunk) }
    }

    deinit {
        channels.deallocate()
        planar.deallocate()
        planarChannels.deallocate()
    }

    /// The spectrum stride for a stream of `expectedFrames`: about `targetWindows` windows.
    static func stride(expectedFrames: Int64?) -> Int {
        guard let expectedFrames else { return unknownLengthStride }
        let windows = expectedFrames / Int64(windowFrames)
        return Int(max(1, (windows + Int64(targetWindows) - 1) / Int64(targetWindows)))
    }

    /// Adds the first `frames` frames of `buffers`, whose channel count is `channelCount`.
    public func rendered(_ buffers: AudioBufferList, frames: Int) {
        guard frames > 0, channelCount > 0 else { return }
        for channel in 0..<channelCount { channels[channel] = UnsafePointer(buffers[channel]) }
        add(planar: channels, frames: frames)
    }

    /// Adds `frames` interleaved frames of `channelCount` channels.
    public func add(interleaved samples: UnsafePointer<Float>, frames: Int) {
        guard frames > 0, channelCount > 0 else { return }
        var done = 0
        while done < frames {
            let count = min(frames - done, Self.interleavedChunk)
            aurender_deinterleave_float(samples + done * channelCount, Int32(channelCount), count, planarChannels)
            for channel in 0..<channelCount { channels[channel] = UnsafePointer(planarChannels[channel]) }
            add(planar: channels, frames: count)
            done += count
        }
    }

    private func add(planar channels: ChannelPointers, frames count: Int) {
        outline.add(channels, frames: count)
        spectrum.add(channels, frames: count)
        loudness.add(channels, frames: count)
        peaks.add(channels, frames: count)
        reconstructed?.add(channels, frames: count)
        frames += Int64(count)
    }

    /// The sketch of everything seen so far.
    public func sketch() -> SignalSketch {
        let (minima, maxima, rms) = outline.columns()
        return SignalSketch(sampleRate: sampleRate, channelCount: channelCount, frames: frames,
                            framesPerColumn: outline.framesPerColumn, minima: minima, maxima: maxima, rms: rms,
                            binWidth: spectrum.binWidth(sampleRate: sampleRate), spectrumDecibels: spectrum.decibels(),
                            integratedLoudness: loudness.integrated, samplePeak: peaks.samplePeak, truePeak: peaks.truePeak,
                            reconstructedPeak: reconstructed?.peakThroughEnd)
    }
}
