import AudioDSP
import Foundation
import Testing

@Suite struct FastLogarithmTests {
    @Test func log2IsWithinAMillionthOfTheLibrarysBeyondFloatRounding() {
        var worst: Float = 0
        var x: Float = 1e-30
        while x < 1e30 {
            let exact = Foundation.log2(x)
            worst = max(worst, abs(FastLogarithm.log2(x) - exact) - exact.ulp)
            x *= 1.0137
        }
        #expect(worst < 1e-6)
    }

    @Test func exp2IsWithinFloatsOwnPrecisionAndUnderflowsToZero() {
        var worst: Float = 0
        var y: Float = -120
        while y < 120 {
            worst = max(worst, abs(FastLogarithm.exp2(y) / Foundation.exp2(y) - 1))
            y += 0.0173
        }
        #expect(worst < 5e-7)
        #expect(FastLogarithm.exp2(-200) == 0)
        #expect(FastLogarithm.exp2(0) == 1 && FastLogarithm.exp2(3) == 8)
    }
}

@Suite struct TruePeakInterpolatorTests {
    @Test func theRateSetsTheOversamplingAsLibebur128Does() {
        #expect(TruePeakInterpolator(sampleRate: 44100).factor == 4)
        #expect(TruePeakInterpolator(sampleRate: 96000).factor == 2)
        #expect(TruePeakInterpolator(sampleRate: 192_000).factor == 1)
        let four = TruePeakInterpolator(sampleRate: 48000)
        #expect(four.tapsPerPhase == 12 && four.delay == 6 && four.phases.count == 3)
    }

    @Test func itFindsTheTruePeakOfAQuarterRateSineBetweenItsSamples() {
        let interpolator = TruePeakInterpolator(sampleRate: 48000)
        let samples = (0..<64).map { Float(sin(Double.pi / 2 * Double($0) + .pi / 4)) }
        var largest: Float = 0
        for newest in interpolator.tapsPerPhase..<samples.count {
            for phase in interpolator.phases {
                let window = samples[(newest - interpolator.tapsPerPhase + 1)...newest]
                largest = max(largest, abs(zip(phase, window).map(*).reduce(0, +)))
            }
        }
        #expect(samples.map(abs).max()! < 0.7072)
        #expect(abs(largest - 1) < 0.01, "the point halfway between two samples at 0.707 is the sine's crest: \(largest)")
    }
}
