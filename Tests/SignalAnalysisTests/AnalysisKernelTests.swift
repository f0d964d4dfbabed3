import Foundation
import CAudioKernels
import Testing

/// The analysis kernels against plain Swift, on both instruction-set paths, bit for bit.
@Suite struct AnalysisKernelTests {
    static func channels(_ count: Int, frames: Int) -> [[Float]] {
        var state: UInt32 = 0x1234_5678
        return (0..<count).map { _ in
            (0..<frames).map { _ in
                state ^= state << 13
                state ^= state >> 17
                state ^= state << 5
                return Float(Int32(bitPattern: state)) / 2_147_483_648 * 1.5
            }
        }
    }

    static func withPointers<R>(_ channels: [[Float]], offset: Int, _ body: (UnsafePointer<UnsafePointer<Float>?>) -> R) -> R {
        var copies = channels
        let pointers = (0..<copies.count).map { index in
            copies[index].withUnsafeMutableBufferPointer { Optional(UnsafePointer($0.baseAddress! + offset)) }
        }
        return withExtendedLifetime(copies) { pointers.withUnsafeBufferPointer { body($0.baseAddress!) } }
    }

    static func onBothPaths(_ body: () -> Void) {
        for baseline: Int32 in [1, 0] {
            aurender_kernels_use_baseline(baseline)
            body()
        }
        aurender_kernels_use_baseline(0)
    }

    @Test(arguments: [1, 2, 3])
    func theOutlineMatchesAPlainLoop(channelCount: Int) {
        let data = Self.channels(channelCount, frames: 1000)
        Self.onBothPaths {
            for (offset, frames, phase) in [(0, 1000, 0), (3, 500, 5), (11, 7, 2), (0, 0, 1)] {
                var low = Float.infinity, high = -Float.infinity
                var sums = [Float](repeating: 0.25, count: 8)
                Self.withPointers(data, offset: offset) { pointers in
                    aurender_outline_accumulate(pointers, Int32(channelCount), frames, phase, &low, &high, &sums)
                }
                var expectedLow = Float.infinity, expectedHigh = -Float.infinity
                var expectedSums = [Float](repeating: 0.25, count: 8)
                for frame in 0..<frames {
                    for channel in 0..<channelCount {
                        let x = data[channel][offset + frame]
                        expectedLow = min(expectedLow, x)
                        expectedHigh = max(expectedHigh, x)
                        expectedSums[(phase + frame) % 8] += x * x
                    }
                }
                #expect(low == expectedLow && high == expectedHigh)
                #expect(sums == expectedSums)
            }
        }
    }

    /// Quiet noise with a loud frame now and then, so most groups can be skipped once one has passed.
    static func spiky(frames: Int) -> [Float] {
        var samples = channels(1, frames: frames)[0].map { $0 * 0.05 }
        for index in stride(from: 150, to: frames, by: 431) { samples[index] = index % 2 == 0 ? 0.95 : -0.9 }
        return samples
    }

    @Test(arguments: [(phases: 3, taps: 12), (phases: 1, taps: 24), (phases: 2, taps: 5)])
    func theTruePeakScanMatchesAPlainLoop(phases: Int, taps: Int) {
        let frames = 1500, reach = taps - 1
        let samples = Self.spiky(frames: reach + frames)
        let coefficients = (0..<(phases * taps)).map { index in Float(sin(Double(index) * 1.7 + 0.3)) / Float(taps) * 4 }
        let sums = (0..<phases).map { phase in coefficients[(phase * taps)..<((phase + 1) * taps)].reduce(0) { $0 + abs($1) } }
        let bound = max(1, sums.max()!) * (1 + 1e-5)
        var expectedSamples: Float = 0, expectedPoints: Float = 0
        for frame in 0..<frames {
            expectedSamples = max(expectedSamples, abs(samples[reach + frame]))
            for phase in 0..<phases {
                var sum: Float = 0
                for k in 0..<taps { sum += coefficients[phase * taps + k] * samples[frame + k] }
                expectedPoints = max(expectedPoints, abs(sum))
            }
        }
        Self.onBothPaths {
            for cuts in [[1500], [1, 16, 300, 7, 1176], [33, 1467]] {
                for skips: Int32 in [1, 0] {
                    var samplePeak: Float = 0, pointPeak: Float = 0
                    var skipped = 0, done = 0
                    samples.withUnsafeBufferPointer { buffer in
                        for count in cuts {
                            skipped += aurender_true_peak_scan(buffer.baseAddress! + reach + done, count, coefficients, Int32(phases),
                                                               Int32(taps), bound, skips, &samplePeak, &pointPeak)
                            done += count
                        }
                    }
                    #expect(samplePeak == expectedSamples && pointPeak == expectedPoints, "cut \(cuts), skips \(skips)")
                    #expect(skips == 1 ? skipped > 20 : skipped == 0, "\(skipped) groups skipped")
                }
            }
        }
    }

    /// The kernel's section layout: seven pairs per section.
    static func sections(_ coefficients: [(b0: Double, b1: Double, b2: Double, a1: Double, a2: Double)]) -> [SIMD2<Double>] {
        coefficients.flatMap { c in
            [c.b0, c.b1 - c.a1 * c.b0, c.b2 - c.a2 * c.b0, c.a1, c.a2, 0, 0].map { SIMD2(repeating: $0) }
        }
    }

    @Test func theTwoBiquadEnergyMatchesAPlainLoopHoweverTheStreamIsCut() {
        let data = Self.channels(2, frames: 2000)
        let coefficients = [(b0: 1.53, b1: -2.69, b2: 1.19, a1: -1.69, a2: 0.73), (b0: 1.0, b1: -2.0, b2: 1.0, a1: -1.99, a2: 0.99)]
        var z = [[Double]](repeating: [0, 0, 0, 0], count: 2)
        var expected = [0.0, 0.0]
        for frame in 0..<2000 {
            for channel in 0..<2 {
                var x = Double(data[channel][frame])
                for (index, c) in coefficients.enumerated() {
                    let state = z[channel][2 * index]
                    let y = c.b0 * x + state
                    z[channel][2 * index] = (c.b1 - c.a1 * c.b0) * x + z[channel][2 * index + 1] - c.a1 * state
                    z[channel][2 * index + 1] = (c.b2 - c.a2 * c.b0) * x - c.a2 * state
                    x = y
                }
                expected[channel] += x * x
            }
        }
        Self.onBothPaths {
            for cuts in [[2000], [1, 1, 998, 1000], [7, 1993]] {
                var sections = Self.sections(coefficients)
                var energy = [0.0, 0.0]
                var done = 0
                for count in cuts {
                    Self.withPointers(data, offset: done) { pointers in
                        sections.withUnsafeMutableBytes { aurender_two_biquad_energy(pointers[0], pointers[1], count, $0.baseAddress, &energy) }
                    }
                    done += count
                }
                #expect(energy == expected, "cut \(cuts)")
            }
        }
    }
}
