#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import FourierTransforms

/// The average power spectrum of the channels' mean (Welch's method): Hann-windowed transforms
/// of every `stride`-th window of `size` frames, windows laid end to end from the stream's
/// start, their powers averaged.
///
/// Which windows are analysed depends only on their place in the stream, so the spectrum is the
/// same whatever blocks the stream arrives in; the frames of the others are not looked at.
final class WelchSpectrum {
    let size: Int
    let channelCount: Int
    /// One window in `stride` is analysed.
    let stride: Int
    private let transform: RealFFT
    /// The channels' sum over the window being filled.
    private let window: UnsafeMutablePointer<Float>
    /// The Hann window times 1 / channelCount (the mean).
    private let taper: UnsafeMutablePointer<Float>
    private let powers: UnsafeMutablePointer<Double>
    private(set) var windowsAnalysed = 0
    private var frames: Int64 = 0

    /// The decibels a silent bin reads.
    static let floor: Float = -200

    /// Windows of `size` (even) frames of `channelCount` channels, one in `stride` analysed.
    init(size: Int, channelCount: Int, stride: Int) {
        self.size = size
        self.channelCount = channelCount
        self.stride = max(1, stride)
        transform = RealFFT(size: size)
        window = .allocate(capacity: size)
        window.initialize(repeating: 0, count: size)
        taper = .allocate(capacity: size)
        let scale = 1 / Float(max(1, channelCount))
        for index in 0..<size {
            taper.advanced(by: index).initialize(to: Float(0.5 - 0.5 * cos(2 * Double.pi * Double(index) / Double(size))) * scale)
        }
        powers = .allocate(capacity: size / 2 + 1)
        powers.initialize(repeating: 0, count: size / 2 + 1)
    }

    deinit {
        window.deallocate()
        taper.deallocate()
        powers.deallocate()
    }

    /// Adds `frames` frames of `channels`.
    func add(_ channels: ChannelPointers, frames count: Int) {
        var done = 0
        while done < count {
            let windowIndex = frames / Int64(size), position = Int(frames % Int64(size))
            let span = min(count - done, size - position)
            if windowIndex % Int64(stride) == 0 {
                let target = window + position
                target.update(from: channels[0]! + done, count: span)
                for channel in 1..<max(1, channelCount) {
                    let source = channels[channel]! + done
                    for frame in 0..<span { target[frame] += source[frame] }
                }
                if position + span == size { analyse() }
            }
            done += span
            frames += Int64(span)
        }
    }

    /// Transforms the full window and adds its bins' powers.
    private func analyse() {
        let input = transform.input, output = transform.output
        for index in 0..<size { input[index] = window[index] * taper[index] }
        transform.transform()
        for bin in 0...(size / 2) {
            let (re, im) = (Double(output[2 * bin]), Double(output[2 * bin + 1]))
            powers[bin] += re * re + im * im
        }
        windowsAnalysed += 1
    }

    /// The Hz between bins at `sampleRate`.
    func binWidth(sampleRate: Double) -> Double { sampleRate / Double(size) }

    /// Each bin's mean power in dB relative to a full-scale sine centred on a bin, which the
    /// Hann window reads at (size / 4)²; empty before the first window is analysed.
    func decibels() -> [Float] {
        guard windowsAnalysed > 0 else { return [] }
        let fullScale = Double(size) * Double(size) / 16 * Double(windowsAnalysed)
        return (0...(size / 2)).map { bin in
            let power = powers[bin] / fullScale
            return power > 0 ? max(Self.floor, Float(10 * log10(power))) : Self.floor
        }
    }
}
