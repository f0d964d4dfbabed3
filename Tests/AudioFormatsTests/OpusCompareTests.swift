import Foundation
import Testing
@testable import TestSupport

/// The test support's `OpusCompare`, RFC 6716's quality criterion for Opus decoders: the same
/// signal scores the top quality, a faint difference passes, and noise 20 dB down or a shift of
/// one 20 ms Opus frame fail, as the reference tool judges them.
@Suite struct OpusCompareTests {
    /// Two seconds of three tones over faint noise, `channels` channels at 48 kHz, interleaved:
    /// a spectrum with peaks and valleys, as music has (a flat one would hide added white noise).
    static func music(channels: Int) -> [Float] {
        let frames = 96_000
        let tones = [(220.0, 0.3), (1_000.0, 0.1), (3_500.0, 0.05)].map { Signal.sine(frequency: $0, sampleRate: 48_000, frames: frames, amplitude: $1) }
        let noise = Signal.noise(frames: frames * channels, amplitude: 0.002, seed: 11)
        return (0..<(frames * channels)).map { index in tones.reduce(noise[index]) { $0 + $1[index / channels] } }
    }

    /// `signal` with uniform noise added whose power is `decibels` below the signal's.
    static func withNoise(_ signal: [Float], decibels: Double) -> [Float] {
        let noise = Signal.noise(frames: signal.count, amplitude: 1, seed: 99)
        let scale = Float(Signal.rms(signal) / Signal.rms(noise) * pow(10, -decibels / 20))
        return zip(signal, noise).map { $0 + scale * $1 }
    }

    @Test(arguments: [1, 2])
    func theSameSignalScoresTheTopQuality(channels: Int) throws {
        let signal = Self.music(channels: channels)
        #expect(try #require(OpusCompare.quality(reference: signal, decoded: signal, channelCount: channels)) == 100)
    }

    @Test(arguments: [1, 2])
    func noiseTwentyDecibelsDownFailsAndSixtyPasses(channels: Int) throws {
        let signal = Self.music(channels: channels)
        let loud = try #require(OpusCompare.quality(reference: signal, decoded: Self.withNoise(signal, decibels: 20), channelCount: channels))
        let faint = try #require(OpusCompare.quality(reference: signal, decoded: Self.withNoise(signal, decibels: 60), channelCount: channels))
        #expect(loud < 0, "\(loud)")
        #expect(faint > 0, "\(faint)")
        #expect(faint < 100, "\(faint)")
        #expect(faint > loud)
    }

    @Test func aShiftOfOneOpusFrameFails() throws {
        let signal = Self.music(channels: 2)
        let frame = 960 * 2
        let shifted = Array(signal[frame...]) + Array(repeating: 0, count: frame)
        #expect(try #require(OpusCompare.quality(reference: signal, decoded: shifted, channelCount: 2)) < 0)
    }

    @Test func lengthsThatDifferOrAreUnderOneBlockAreNotCompared() {
        let signal = Self.music(channels: 1)
        #expect(OpusCompare.quality(reference: signal, decoded: Array(signal.dropLast()), channelCount: 1) == nil)
        #expect(OpusCompare.quality(reference: Array(signal.prefix(479)), decoded: Array(signal.prefix(479)), channelCount: 1) == nil)
    }

    /// The fast transform against the sum that defines it, on noise.
    @Test func theMixedRadixTransformIsTheDiscreteFourierTransform() {
        let signal = Signal.noise(frames: 480, amplitude: 1, seed: 5).map(Double.init)
        let (real, imaginary) = MixedRadixDFT(size: 480).transform(signal)
        for bin in [0, 1, 7, 80, 239, 240, 479] {
            var sumReal = 0.0, sumImaginary = 0.0
            for (index, value) in signal.enumerated() {
                let angle = -2 * Double.pi * Double(bin * index % 480) / 480
                sumReal += value * cos(angle)
                sumImaginary += value * sin(angle)
            }
            #expect(abs(real[bin] - sumReal) < 1e-9 && abs(imaginary[bin] - sumImaginary) < 1e-9, "bin \(bin)")
        }
    }
}
