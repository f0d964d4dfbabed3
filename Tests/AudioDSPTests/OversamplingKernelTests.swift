import AudioDSP
import CAudioKernels
import Foundation
import Testing

/// The 4x oversampler's kernels give the same bits on every instruction set (SSE2, AVX2), the
/// FIRs the bits of a plain scalar reference written here, the clipper the mean of tanh (or of
/// hard clipping) between samples as computed independently in Double.
@Suite(.serialized) struct OversamplingKernelTests {
    static func noise(_ count: Int, seed: UInt64, scale: Float = 1) -> [Float] {
        var state = seed | 1
        return (0..<count).map { _ in
            state ^= state << 13; state ^= state >> 7; state ^= state << 17
            return scale * (Float(state >> 40) / Float(1 << 23) - 1)
        }
    }

    static func bits(_ values: [Float]) -> [UInt32] { values.map(\.bitPattern) }

    /// Runs `body` on the baseline path and then on the widest, giving both results.
    static func onEveryPath<T>(_ body: () -> T) -> [T] {
        defer { aurender_kernels_use_baseline(0) }
        return [Int32(1), 0].map { baseline in
            aurender_kernels_use_baseline(baseline)
            return body()
        }
    }

    @Test(arguments: [1, 7, 8, 13, 256])
    func theInterpolatorSumsEachPhasesTapsInOrderOnEveryPath(frames: Int) {
        let count = 37
        let input = Self.noise(count - 1 + frames, seed: 3), taps = Self.noise(4 * count, seed: 4, scale: 0.3)
        var expected = [[Float]](repeating: [Float](repeating: 0, count: frames), count: 4)
        for phase in 0..<4 {
            for frame in 0..<frames {
                var sum: Float = 0
                for k in 0..<count { sum += taps[phase * count + k] * input[frame + k] }
                expected[phase][frame] = sum
            }
        }
        let results = Self.onEveryPath { () -> [[Float]] in
            let phases = (0..<4).map { _ in UnsafeMutablePointer<Float>.allocate(capacity: frames) }
            defer { phases.forEach { $0.deallocate() } }
            let pointers: [UnsafeMutablePointer<Float>?] = phases
            aurender_polyphase_up(input, frames, taps, Int32(count), pointers)
            return phases.map { Array(UnsafeBufferPointer(start: $0, count: frames)) }
        }
        for result in results { #expect(result.map(Self.bits) == expected.map(Self.bits)) }
    }

    @Test(arguments: [1, 7, 8, 13, 256])
    func theDecimatorSumsPhaseByPhaseTapByTapOnEveryPath(frames: Int) {
        let count = 38
        let phases = (0..<4).map { Self.noise(count - 1 + frames, seed: UInt64(10 + $0)) }
        let taps = Self.noise(4 * count, seed: 5, scale: 0.3)
        let expected = (0..<frames).map { frame in
            var sum: Float = 0
            for phase in 0..<4 { for k in 0..<count { sum += taps[phase * count + k] * phases[phase][frame + k] } }
            return sum
        }
        let results = Self.onEveryPath { () -> [Float] in
            var output = [Float](repeating: 0, count: frames)
            phases[0].withUnsafeBufferPointer { p0 in phases[1].withUnsafeBufferPointer { p1 in
                phases[2].withUnsafeBufferPointer { p2 in phases[3].withUnsafeBufferPointer { p3 in
                    let pointers: [UnsafePointer<Float>?] = [p0.baseAddress, p1.baseAddress, p2.baseAddress, p3.baseAddress]
                    aurender_polyphase_down(pointers, frames, taps, Int32(count), &output)
                } }
            } }
            return output
        }
        for result in results { #expect(Self.bits(result) == Self.bits(expected)) }
    }

    @Test func theSoftClipAntiderivativeIsLogCosh() {
        var worst = 0.0
        for step in -9000...9000 {
            let x = Double(step) / 1000
            worst = max(worst, abs(aurender_clip_integral(x, 0) - log(cosh(x))))
        }
        #expect(worst < 1e-9, "worst \(worst)")
        #expect(aurender_clip_integral(0.5, 1) == 0.125)
        #expect(aurender_clip_integral(-3, 1) == 2.5)
    }

    /// Clips `frames` frames of four phases with gain `gain`, in `split`-frame calls.
    static func clip(_ high: [Float], gain: Double, hard: Bool, split: Int) -> [Float] {
        let frames = high.count / 4
        let phases = (0..<4).map { phase in UnsafeMutablePointer<Float>.allocate(capacity: frames) }
        defer { phases.forEach { $0.deallocate() } }
        for frame in 0..<frames { for phase in 0..<4 { phases[phase][frame] = high[4 * frame + phase] } }
        var clipper = aurender_clipper(gain: gain, hard: hard ? 1 : 0, last: 0, last_integral: aurender_clip_integral(0, hard ? 1 : 0))
        var start = 0
        while start < frames {
            let count = min(split, frames - start)
            let pointers: [UnsafeMutablePointer<Float>?] = phases.map { $0 + start }
            aurender_clip_antiderivative(pointers, count, &clipper)
            start += count
        }
        return (0..<(4 * frames)).map { phases[$0 % 4][$0 / 4] }
    }

    @Test(arguments: [false, true])
    func theClipperGivesTheCurvesMeanBetweenSamplesOnEveryPath(hard: Bool) {
        let high = Self.noise(4 * 1000, seed: 7).enumerated().map { $0.offset % 8 < 3 ? $0.element * 0.001 : $0.element }
        let gain = 5.0
        let results = Self.onEveryPath { Self.clip(high, gain: gain, hard: hard, split: 1000) }
        #expect(Self.bits(results[0]) == Self.bits(results[1]))
        #expect(Self.bits(Self.clip(high, gain: gain, hard: hard, split: 37)) == Self.bits(results[1]))
        // Independently: the mean of the curve over the step, by Simpson's rule on 512 pieces for
        // tanh, exactly for hard clipping's straight pieces.
        func curve(_ x: Double) -> Double { hard ? min(1, max(-1, x)) : tanh(x) }
        func hardIntegral(_ x: Double) -> Double { abs(x) <= 1 ? x * x / 2 : abs(x) - 0.5 }
        var previous = 0.0, worst = 0.0
        for (index, sample) in high.enumerated() {
            let x = gain * Double(sample)
            let pieces = 512, width = (x - previous) / Double(pieces)
            var mean: Double
            if abs(x - previous) < 0.01 { mean = curve((x + previous) / 2) } else if hard {
                mean = (hardIntegral(x) - hardIntegral(previous)) / (x - previous)
            } else {
                var sum = curve(previous) + curve(x)
                for piece in 1..<pieces { sum += Double(piece % 2 == 0 ? 2 : 4) * curve(previous + Double(piece) * width) }
                mean = sum * width / 3 / (x - previous)
            }
            worst = max(worst, abs(Double(results[1][index]) - mean))
            previous = x
        }
        #expect(worst < 1e-5, "worst \(worst)")
    }
}
