import Foundation
import SignalAnalysis
import Testing

/// Integrated loudness against libebur128 (`LoudnessMeter`), within 0.05 LU.
@Suite struct IntegratedLoudnessTests {
    static func compare(_ samples: [Float], channels: Int, sampleRate: Double, tolerance: Double = 0.05) throws {
        let reference = try #require(try Signals.reference(samples, channels: channels, sampleRate: Int(sampleRate)).loudness)
        let sketch = Signals.sketch(samples, channels: channels, sampleRate: sampleRate, expectedFrames: nil, block: 1000)
        let measured = try #require(sketch.integratedLoudness)
        #expect(abs(measured - reference) < tolerance, "\(measured) LUFS, libebur128 \(reference) LUFS")
    }

    @Test(arguments: [44100.0, 48000, 96000], [-3.0, -23, -45])
    func sinesMatchLibebur128(sampleRate: Double, level: Double) throws {
        for frequency in [60.0, 1000, 9000] {
            let samples = Signals.sine(frequency: frequency, amplitude: pow(10, level / 20), sampleRate: sampleRate, seconds: 3,
                                       channels: 2)
            try Self.compare(samples, channels: 2, sampleRate: sampleRate)
        }
    }

    @Test func ebuTech3341StereoSineAtMinus23ReadsMinus23() throws {
        let samples = Signals.sine(frequency: 1000, amplitude: pow(10, -23.0 / 20), sampleRate: 48000, seconds: 20, channels: 2)
        let sketch = Signals.sketch(samples, channels: 2, sampleRate: 48000, expectedFrames: nil, block: 4096)
        let measured = try #require(sketch.integratedLoudness)
        #expect(abs(measured - -23) < 0.05, "\(measured) LUFS")
    }

    @Test(arguments: [44100.0, 48000])
    func noiseMatchesLibebur128(sampleRate: Double) throws {
        try Self.compare(Signals.noise(amplitude: 0.5, sampleRate: sampleRate, seconds: 5, channels: 2), channels: 2, sampleRate: sampleRate)
    }

    @Test func theRelativeGateLeavesOutTheQuietHalf() throws {
        let loud = Signals.noise(amplitude: 0.8, sampleRate: 48000, seconds: 4, channels: 2)
        let quiet = Signals.noise(amplitude: 0.8 * pow(10, -25.0 / 20), sampleRate: 48000, seconds: 4, channels: 2, seed: 7)
        let ungated = Signals.noise(amplitude: 0.8 * pow(10, -6.0 / 20), sampleRate: 48000, seconds: 4, channels: 2, seed: 9)
        try Self.compare(quiet + loud, channels: 2, sampleRate: 48000)
        try Self.compare(ungated + loud, channels: 2, sampleRate: 48000)
    }

    @Test func monoAndSurroundChannelsAreWeightedAsLibebur128Weighs() throws {
        try Self.compare(Signals.noise(amplitude: 0.5, sampleRate: 44100, seconds: 3, channels: 1), channels: 1, sampleRate: 44100)
        var surround = Signals.noise(amplitude: 0.5, sampleRate: 48000, seconds: 3, channels: 6)
        for frame in 0..<(surround.count / 6) { surround[frame * 6 + 4] *= 0.3 }
        try Self.compare(surround, channels: 6, sampleRate: 48000)
    }

    @Test func silenceAndShortStreamsHaveNoLoudness() {
        let silence = [Float](repeating: 0, count: 2 * 48000)
        #expect(Signals.sketch(silence, channels: 2, sampleRate: 48000, expectedFrames: nil, block: 512).integratedLoudness == nil)
        let short = Signals.sine(frequency: 1000, amplitude: 0.5, sampleRate: 48000, seconds: 0.39, channels: 2)
        #expect(Signals.sketch(short, channels: 2, sampleRate: 48000, expectedFrames: nil, block: 512).integratedLoudness == nil)
    }
}
