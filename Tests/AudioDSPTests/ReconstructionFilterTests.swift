import AudioDSP
import CAudioKernels
import Foundation
import Testing

/// The limiter's 8× reconstruction: its response, measured, and its kernel against the filter
/// it documents.
@Suite struct ReconstructionFilterTests {
    let filter = ReconstructionFilter()

    /// The reconstruction's gain at `frequency` (a fraction of the rate), from its polyphase
    /// equivalent: every phase's taps laid out at eighths of a sample around the sample itself.
    func gain(at frequency: Double) -> Double {
        let interpolator = filter.interpolator, reach = interpolator.delay
        var real = 1.0, imaginary = 0.0  // phase 0 is the sample itself
        for (index, phase) in interpolator.phases.enumerated() {
            for (tap, coefficient) in phase.enumerated() {
                // Tap `tap` reads the sample tap − (reach − 1) after the interval's first; the point lies (index + 1)/8 after it.
                let offset = Double(index + 1) / 8 - Double(tap - (reach - 1))
                real += Double(coefficient) * cos(2 * .pi * frequency * offset)
                imaginary += Double(coefficient) * sin(2 * .pi * frequency * offset)
            }
        }
        return 20 * log10((real * real + imaginary * imaginary).squareRoot() / 8)
    }

    @Test func itIsEightPhasesOfFortyFourTapsDesignedTheSameEveryTime() {
        #expect(filter.interpolator.factor == 8 && filter.interpolator.phases.count == 7)
        #expect(filter.interpolator.tapsPerPhase == 44 && filter.interpolator.delay == 22)
        #expect(filter.half.count == 40 && filter.quarter.count == 8 && filter.eighth.count == 6)
        #expect(ReconstructionFilter().interpolator.phases == filter.interpolator.phases)
        #expect(filter.half == filter.half.reversed(), "a halfband stage is symmetric")
    }

    @Test func itIsFlatToNearlyHalfTheRateAndRejectsTheImages() {
        let passBand = stride(from: 0.0, through: 0.45, by: 0.0025).map(gain)
        #expect(passBand.min()! > -0.02 && passBand.max()! < 0.05, "ripple \(passBand.min()!)…\(passBand.max()!) dB")
        let stopBand = stride(from: 0.55, through: 4, by: 0.005).map(gain)
        #expect(stopBand.max()! < -50, "images at \(stopBand.max()!) dB")
        #expect(abs(gain(at: 0.5) - -6.02) < 0.3, "cut off at half the rate")
    }

    /// The kernel's peaks of a fading-in-and-out sine whose samples miss its crests.
    func kernelPeak(frequency: Double, amplitude: Double) -> Float {
        let frames = 6000
        let samples = [Float](repeating: 0, count: 43) + (0..<frames).map { n in
            let fade = min(1, Double(min(n, frames - 1 - n)) / 1500)
            return Float(amplitude * fade * sin(2 * .pi * frequency * Double(n) + 0.37))
        } + [Float](repeating: 0, count: 43)
        var peaks = [Float](repeating: 0, count: samples.count - 43)
        var stages = filter.stages
        samples.withUnsafeBufferPointer { aurender_reconstructed_peaks($0.baseAddress! + 43, peaks.count, &stages, &peaks) }
        return peaks.max()!
    }

    @Test(arguments: [0.02, 0.1, 0.2, 0.25, 0.3, 0.35, 0.4, 0.43, 0.45])
    func aSinesCrestIsReadWithinAFewHundredthsOfADecibel(frequency: Double) {
        let read = 20 * log10(Double(kernelPeak(frequency: frequency, amplitude: 0.5)) / 0.5)
        #expect(abs(read) < 0.05, "a sine at \(frequency) of the rate reads \(read) dB")
    }

    @Test func theKernelComputesItsPolyphaseEquivalentOnEveryPathInBlocks() {
        var state: UInt64 = 0x9E37_79B9
        let samples = (0..<(600 + 43)).map { _ -> Float in
            state ^= state << 13; state ^= state >> 7; state ^= state << 17
            return Float(state >> 40) / Float(1 << 24) * 2 - 1
        }
        var stages = filter.stages
        func peaks(frames: Int, from start: Int = 0) -> [Float] {
            var peaks = [Float](repeating: 0, count: frames)
            samples.withUnsafeBufferPointer { aurender_reconstructed_peaks($0.baseAddress! + 43 + start, frames, &stages, &peaks) }
            return peaks
        }
        let wide = peaks(frames: 600)
        #expect(SampleConversion.withBaselineInstructions { peaks(frames: 600) } == wide)
        #expect(peaks(frames: 300) + peaks(frames: 300, from: 300) == wide)
        let interpolator = filter.interpolator
        for frame in 0..<600 {
            let newest = 43 + frame
            var expected = Double(abs(samples[newest - interpolator.delay]))
            for phase in interpolator.phases {
                let point = (0..<44).reduce(0.0) { $0 + Double(phase[$1]) * Double(samples[newest - 43 + $1]) }
                expected = max(expected, abs(point))
            }
            #expect(abs(Double(wide[frame]) - expected) < 1e-5, "frame \(frame): \(wide[frame]) against \(expected)")
        }
    }

    @Test func theMeterReadsACrestBetweenSamplesWhateverTheBlocksAndCountsTheEnd() {
        let frames = 9000
        let sine = (0..<frames).map { n -> Float in
            let fade = min(1, Double(min(n, frames - 1 - n)) / 2000)
            return Float(0.8 * fade * sin(2 * .pi * 0.25 * Double(n) + .pi / 4))
        }
        let interleaved = sine.flatMap { [$0, $0 / 2] }
        func measured(blocks: Int) -> Float {
            let meter = ReconstructedPeakMeter(channelCount: 2)
            var start = 0
            while start < frames {
                let count = min(blocks, frames - start)
                interleaved.withUnsafeBufferPointer { meter.add(interleaved: $0.baseAddress! + 2 * start, frames: count) }
                start += count
            }
            meter.finish()
            return meter.peak
        }
        #expect(sine.map(abs).max()! < 0.8 * 0.71)
        #expect(abs(measured(blocks: 9000) - 0.8) < 0.004)
        #expect(measured(blocks: 9000) == measured(blocks: 17))
        let click = ReconstructedPeakMeter(channelCount: 1)
        let impulse: [Float] = [0, 0, 1, -1]
        impulse.withUnsafeBufferPointer { click.add(interleaved: $0.baseAddress!, frames: 4) }
        #expect(click.peak < 1, "the points around the last samples wait for the silence after them")
        click.finish()
        #expect(click.peak >= 1, "the last samples count once the silence after them is added")
    }

    @Test(arguments: [UInt64(1), 2, 3])
    func theMeterPassesOverOnlyFramesThatCannotBeatItsPeak(seed: UInt64) {
        // Noise at a steady level with louder bursts and a hot click near the end: the meter,
        // which skips frames, reads what the kernel reads over every frame.
        var state = seed, channels: [[Float]] = [[], []]
        let frames = 30_000
        for n in 0..<frames {
            for channel in 0..<2 {
                state = state &* 6364136223846793005 &+ 1442695040888963407
                let noise = Float(Double(state >> 11) / Double(1 << 53) * 2 - 1)
                let level: Float = (n / 3000) % 3 == 1 ? 0.7 : 0.2
                channels[channel].append(n == 27_123 + channel ? 0.95 : noise * level)
            }
        }
        var stages = filter.stages, everywhere: Float = 0
        for channel in channels {
            let padded = [Float](repeating: 0, count: 43) + channel + [Float](repeating: 0, count: 22)
            var peaks = [Float](repeating: 0, count: frames + 22)
            padded.withUnsafeBufferPointer { aurender_reconstructed_peaks($0.baseAddress! + 43, peaks.count, &stages, &peaks) }
            everywhere = max(everywhere, peaks.max()!)
        }
        let planar = ReconstructedPeakMeter(channelCount: 2), interleaved = ReconstructedPeakMeter(channelCount: 2)
        let both = zip(channels[0], channels[1]).flatMap { [$0, $1] }
        var start = 0
        for count in [1000, 4096, 777, 13_000, 11_127] {
            channels[0].withUnsafeBufferPointer { left in
                channels[1].withUnsafeBufferPointer { right in
                    let pointers: [UnsafePointer<Float>?] = [left.baseAddress! + start, right.baseAddress! + start]
                    pointers.withUnsafeBufferPointer { planar.add($0.baseAddress!, frames: count) }
                }
            }
            both.withUnsafeBufferPointer { interleaved.add(interleaved: $0.baseAddress! + 2 * start, frames: count) }
            start += count
        }
        #expect(start == frames)
        #expect(planar.peakThroughEnd == everywhere && interleaved.peakThroughEnd == everywhere, "\(planar.peakThroughEnd) \(everywhere)")
        planar.finish()
        #expect(planar.peak == everywhere)
    }
}
