import AudioDSP
import CAudioKernels
import Foundation
import Testing

/// The 4x oversampler's half-band stages meet their band edges (their response computed here
/// from the coefficients), its kernels give the bits of plain allpass chains written here for
/// both channels of a pair in any slices, and the clipper gives the same bits on every
/// instruction set (SSE2, AVX2) and the mean of tanh (or of hard clipping) between samples as
/// computed independently in Double.
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

    /// A half-band's gain at `frequency` (of its rate) from its coefficients, in Double:
    /// ½(A₀(z²) + z⁻¹A₁(z²)), branch 0 taking the even-numbered sections.
    static func gain(_ coefficients: [Double], at frequency: Double) -> Double {
        let angle = -2 * Double.pi * frequency
        let (zr, zi) = (cos(angle), sin(angle)), (z2r, z2i) = (cos(2 * angle), sin(2 * angle))
        var branches = [(1.0, 0.0), (1.0, 0.0)]
        for (index, a) in coefficients.enumerated() {
            // (a + z⁻²) / (1 + a z⁻²)
            let (nr, ni) = (a + z2r, z2i), (dr, di) = (1 + a * z2r, a * z2i), d = dr * dr + di * di
            let (sr, si) = ((nr * dr + ni * di) / d, (ni * dr - nr * di) / d)
            let (br, bi) = branches[index % 2]
            branches[index % 2] = (br * sr - bi * si, br * si + bi * sr)
        }
        let (ar, ai) = branches[0], (br, bi) = branches[1]
        let real = 0.5 * (ar + zr * br - zi * bi), imaginary = 0.5 * (ai + zr * bi + zi * br)
        return (real * real + imaginary * imaginary).squareRoot()
    }

    @Test func theFirstStagePassesTo19kHzAndStopsImagesAndAliases90dBDown() {
        let first = OversamplerDesign.standard.first, edge = 19.0 / 88.2
        let passband = stride(from: 0.0, through: edge, by: edge / 2000).map { 20 * log10(Self.gain(first, at: $0)) }
        let stopband = stride(from: 0.5 - edge, through: 0.5, by: edge / 2000).map { 20 * log10(Self.gain(first, at: $0)) }
        #expect(passband.allSatisfy { abs($0) < 0.0001 }, "passband from \(passband.min()!) dB")
        #expect(stopband.max()! < -89, "stopband up to \(stopband.max()!) dB")
    }

    @Test func theSecondStageStopsWhatTheFirstPasses100dBDown() {
        let second = OversamplerDesign.standard.second
        // At twice the base rate the first stage's band ends at 25.1/176.4; its images start at 0.5 minus that.
        let passband = stride(from: 0.0, through: 25.1 / 176.4, by: 0.0001).map { 20 * log10(Self.gain(second, at: $0)) }
        let stopband = stride(from: 0.35, through: 0.5, by: 0.0001).map { 20 * log10(Self.gain(second, at: $0)) }
        #expect(passband.allSatisfy { abs($0) < 0.0001 }, "passband from \(passband.min()!) dB")
        #expect(stopband.max()! < -99, "stopband up to \(stopband.max()!) dB")
    }

    /// The allpass chain of one branch, as the kernels run it in Float.
    struct Chain {
        let coefficients: [Float]
        var inputs: [Float], outputs: [Float]
        init(_ coefficients: [Float]) {
            self.coefficients = coefficients
            inputs = [Float](repeating: 0, count: coefficients.count)
            outputs = inputs
        }
        mutating func run(_ value: Float) -> Float {
            var v = value
            for k in coefficients.indices {
                let out = coefficients[k] * (v - outputs[k]) + inputs[k]
                inputs[k] = v
                outputs[k] = out
                v = out
            }
            return v
        }
    }

    /// The 4x path up and down for one channel, written plainly: the high-rate samples between.
    static func reference(_ input: [Float], design: OversamplerDesign) -> (high: [Float], output: [Float]) {
        func branches(_ coefficients: [Double]) -> [Chain] {
            [0, 1].map { branch in Chain(stride(from: branch, to: coefficients.count, by: 2).map { Float(coefficients[$0]) }) }
        }
        var up1 = branches(design.first), up2 = branches(design.second)
        var high: [Float] = []
        for x in input {
            for half in [up1[0].run(x), up1[1].run(x)] { high += [up2[0].run(half), up2[1].run(half)] }
        }
        var down1 = branches(design.first), down2 = branches(design.second)
        var output: [Float] = [], last: Float = 0
        for frame in input.indices {
            let s = Array(high[(4 * frame)..<(4 * frame + 4)])
            let even = (down2[0].run(s[0]) + down2[1].run(last)) * 0.5
            let odd = (down2[0].run(s[2]) + down2[1].run(s[1])) * 0.5
            last = s[3]
            output.append((down1[0].run(odd) + down1[1].run(even)) * 0.5)
        }
        return (high, output)
    }

    @Test(arguments: [1, 7, 100, 256])
    func theHalfBandKernelsRunBothChannelsAsThePlainChainsDoInAnySlices(block: Int) {
        let design = OversamplerDesign.standard, frames = 1000
        let channels = [Self.noise(frames, seed: 21), Self.noise(frames, seed: 22, scale: 0.5)]
        let pair = OversamplerPair(design: design)
        defer { pair.release() }
        var highs = [[Float]](repeating: [], count: 2), outputs = [[Float]](repeating: [], count: 2)
        var start = 0
        while start < frames {
            let count = min(block, frames - start)
            for c in 0..<2 { pair.input(c).update(from: Array(channels[c][start..<(start + count)]), count: count) }
            pair.interpolate(frames: count)
            for c in 0..<2 {
                let phases = pair.phases(c)
                for i in 0..<count { for p in 0..<4 { highs[c].append(phases[p]![i]) } }
            }
            pair.decimate(frames: count)
            for c in 0..<2 { outputs[c] += Array(UnsafeBufferPointer(start: pair.output(c), count: count)) }
            start += count
        }
        for c in 0..<2 {
            let expected = Self.reference(channels[c], design: design)
            #expect(Self.bits(highs[c]) == Self.bits(expected.high))
            #expect(Self.bits(outputs[c]) == Self.bits(expected.output))
        }
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
