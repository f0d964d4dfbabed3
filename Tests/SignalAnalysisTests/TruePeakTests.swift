import Foundation
@testable import SignalAnalysis
import Testing

/// True peaks against libebur128's, and the skipping of quiet groups against interpolating all.
@Suite struct TruePeakTests {
    static func decibels(_ level: Double) -> Double { 20 * log10(level) }

    static func compare(_ samples: [Float], channels: Int, sampleRate: Double) throws {
        let reference = try Signals.reference(samples, channels: channels, sampleRate: Int(sampleRate)).truePeak
        for block in [1, 100, 4096] {
            let sketch = Signals.sketch(samples, channels: channels, sampleRate: sampleRate, expectedFrames: nil, block: block)
            let difference = abs(Self.decibels(Double(sketch.truePeak)) - Self.decibels(reference))
            #expect(difference < 0.01, "true peak \(sketch.truePeak), libebur128 \(reference), blocks of \(block)")
        }
    }

    @Test(arguments: [44100.0, 96000])
    func noiseMatchesLibebur128(sampleRate: Double) throws {
        try Self.compare(Signals.noise(amplitude: 0.9, sampleRate: sampleRate, seconds: 2, channels: 2), channels: 2, sampleRate: sampleRate)
    }

    @Test func aSineNearAQuarterOfTheRateHasIntersampleOvers() throws {
        let samples = Signals.sine(frequency: 11025, amplitude: 1, phase: .pi / 4, sampleRate: 44100, seconds: 1, channels: 2)
        let sketch = Signals.sketch(samples, channels: 2, sampleRate: 44100, expectedFrames: nil, block: 512)
        #expect(sketch.samplePeak < 0.7072)
        #expect(sketch.truePeak > 0.99)
        try Self.compare(samples, channels: 2, sampleRate: 44100)
    }

    @Test func aFullScaleSquareWaveMatchesLibebur128() throws {
        let samples = (0..<44100).flatMap { frame -> [Float] in
            let value: Float = (frame / 50) % 2 == 0 ? 1 : -1
            return [value, value]
        }
        try Self.compare(samples, channels: 2, sampleRate: 44100)
    }

    @Test(arguments: [44100.0, 96000])
    func skippingQuietGroupsChangesNothing(sampleRate: Double) {
        var samples = Signals.noise(amplitude: 0.5, sampleRate: sampleRate, seconds: 3, channels: 2)
        for index in stride(from: 40000, to: samples.count, by: 97_003) { samples[index] *= 1.9 }
        var skipped = 0
        let meters = [true, false].map { skips in
            let meter = TruePeakMeter(channelCount: 2, sampleRate: sampleRate, skipsQuietGroups: skips)
            var left = stride(from: 0, to: samples.count, by: 2).map { samples[$0] }
            var right = stride(from: 1, to: samples.count, by: 2).map { samples[$0] }
            left.withUnsafeMutableBufferPointer { left in
                right.withUnsafeMutableBufferPointer { right in
                    let pointers: [UnsafePointer<Float>?] = [UnsafePointer(left.baseAddress!), UnsafePointer(right.baseAddress!)]
                    pointers.withUnsafeBufferPointer { meter.add($0.baseAddress!, frames: left.count) }
                }
            }
            skipped += meter.groupsSkipped
            return meter
        }
        #expect(meters[0].truePeak == meters[1].truePeak)
        #expect(meters[0].samplePeak == meters[1].samplePeak)
        #expect(meters[0].groupsSkipped > 0 && meters[1].groupsSkipped == 0, "\(skipped) groups skipped")
    }
}
