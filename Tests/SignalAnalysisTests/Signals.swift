import AudioGraph
import Foundation
import Loudness
import SignalAnalysis

/// Test signals, interleaved, and ways to feed them.
enum Signals {
    /// A sine of `amplitude` in every channel.
    static func sine(frequency: Double, amplitude: Double, phase: Double = 0, sampleRate: Double, seconds: Double,
                     channels: Int) -> [Float] {
        let frames = Int(seconds * sampleRate)
        var samples = [Float](repeating: 0, count: frames * channels)
        for frame in 0..<frames {
            let value = Float(amplitude * sin(2 * .pi * frequency * Double(frame) / sampleRate + phase))
            for channel in 0..<channels { samples[frame * channels + channel] = value }
        }
        return samples
    }

    /// Pink-ish noise (white noise through Paul Kellett's economy filter), independent per
    /// channel, of peak near `amplitude`; the same for the same seed.
    static func noise(amplitude: Double, sampleRate: Double, seconds: Double, channels: Int, seed: UInt64 = 1) -> [Float] {
        let frames = Int(seconds * sampleRate)
        var state = seed &* 0x9E37_79B9_7F4A_7C15 | 1
        var b = [[Double]](repeating: [0, 0, 0], count: channels)
        var samples = [Float](repeating: 0, count: frames * channels)
        for frame in 0..<frames {
            for channel in 0..<channels {
                state ^= state << 13
                state ^= state >> 7
                state ^= state << 17
                let white = Double(state >> 11) / Double(1 << 53) * 2 - 1
                b[channel][0] = 0.99765 * b[channel][0] + white * 0.0990460
                b[channel][1] = 0.96300 * b[channel][1] + white * 0.2965164
                b[channel][2] = 0.57000 * b[channel][2] + white * 1.0526913
                let pink = b[channel][0] + b[channel][1] + b[channel][2] + white * 0.1848
                samples[frame * channels + channel] = Float(pink * amplitude / 4)
            }
        }
        return samples
    }

    /// A sketch of `samples` fed as planar blocks of `block` frames through `rendered`.
    static func sketch(_ samples: [Float], channels: Int, sampleRate: Double, expectedFrames: Int64?, block: Int) -> SignalSketch {
        let sketcher = SignalSketcher(sampleRate: sampleRate, channelCount: channels, expectedFrames: expectedFrames)
        feed(samples, channels: channels, to: sketcher, block: block)
        return sketcher.sketch()
    }

    /// Feeds `samples` to `sketcher` as planar blocks of `block` frames.
    static func feed(_ samples: [Float], channels: Int, to sketcher: SignalSketcher, block: Int) {
        let frames = samples.count / channels
        let storage = AudioBufferStorage(channelCount: channels, capacity: block)
        var done = 0
        while done < frames {
            let count = min(block, frames - done)
            for frame in 0..<count {
                for channel in 0..<channels { storage.list[channel][frame] = samples[(done + frame) * channels + channel] }
            }
            sketcher.rendered(storage.list, frames: count)
            done += count
        }
    }

    /// libebur128's integrated loudness (LUFS) and true peak (linear) of `samples`.
    static func reference(_ samples: [Float], channels: Int, sampleRate: Int) throws -> (loudness: Double?, truePeak: Double) {
        let meter = try LoudnessMeter(channelCount: channels, sampleRate: sampleRate)
        try samples.withUnsafeBufferPointer { try meter.add($0.baseAddress!, frames: samples.count / channels) }
        let measurement = meter.measurement()
        return (measurement.integrated, measurement.truePeak.map { pow(10, $0 / 20) } ?? 0)
    }
}
