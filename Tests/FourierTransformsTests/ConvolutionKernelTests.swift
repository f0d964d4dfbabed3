import CAudioKernels
import Testing

/// The convolution kernels give the same bits on every instruction set (SSE2, AVX2) as a plain
/// scalar reference written here, on data with zeros, denormals, huge and non-finite values.
@Suite(.serialized) struct ConvolutionKernelTests {
    static func awkward(_ count: Int, seed: UInt64) -> [Float] {
        var state = seed | 1
        return (0..<count).map { _ in
            state ^= state << 13; state ^= state >> 7; state ^= state << 17
            let unit = Float(state >> 40) / Float(1 << 23) - 1
            switch state % 32 {
            case 0: return 0
            case 1: return .leastNonzeroMagnitude * unit * 1e6
            case 2: return unit * 1e30
            case 3: return .infinity
            case 4: return .nan
            default: return unit
            }
        }
    }

    /// The sum of products as the header states it, one bin at a time.
    static func reference(_ x: [[Float]], _ h: [[Float]], bins: Int) -> [Float] {
        var sum = [Float](repeating: 0, count: 2 * bins)
        for block in stride(from: 0, to: bins, by: 8) {
            for lane in 0..<8 {
                let re = 2 * block + lane, im = re + 8
                var sr: Float = 0, si: Float = 0
                for t in x.indices {
                    let real: Float = x[t][re] * h[t][re] - x[t][im] * h[t][im]
                    let imaginary: Float = x[t][re] * h[t][im] + x[t][im] * h[t][re]
                    sr += real
                    si += imaginary
                }
                sum[re] = sr
                sum[im] = si
            }
        }
        return sum
    }

    /// Equal bits, any NaN counting as any other (which operand's payload a NaN keeps is the
    /// instruction's business).
    static func same(_ a: [Float], _ b: [Float]) -> Bool {
        a.count == b.count && zip(a, b).allSatisfy { $0.isNaN ? $1.isNaN : $0.bitPattern == $1.bitPattern }
    }

    @Test(arguments: [(8, 1), (16, 3), (24, 5), (1032, 12)])
    func multiplySumMatchesTheReferenceOnEveryPath(bins: Int, terms: Int) {
        let x = (0..<terms).map { Self.awkward(2 * bins, seed: UInt64(100 + $0)) }
        let h = (0..<terms).map { Self.awkward(2 * bins, seed: UInt64(200 + $0)) }
        let expected = Self.reference(x, h, bins: bins)
        defer { aurender_kernels_use_baseline(0) }
        for baseline: Int32 in [1, 0] {
            aurender_kernels_use_baseline(baseline)
            let xPointers = x.map { samples in UnsafePointer<Float>?(UnsafeMutablePointer<Float>.allocate(capacity: samples.count)) }
            let hPointers = h.map { samples in UnsafePointer<Float>?(UnsafeMutablePointer<Float>.allocate(capacity: samples.count)) }
            defer { (xPointers + hPointers).forEach { UnsafeMutablePointer(mutating: $0!).deallocate() } }
            for t in 0..<terms {
                UnsafeMutablePointer(mutating: xPointers[t]!).initialize(from: x[t], count: x[t].count)
                UnsafeMutablePointer(mutating: hPointers[t]!).initialize(from: h[t], count: h[t].count)
            }
            var sum = [Float](repeating: 1, count: 2 * bins)
            aurender_spectra_multiply_sum(xPointers, hPointers, Int32(terms), bins, &sum)
            #expect(Self.same(sum, expected), "baseline \(baseline)")
        }
    }

    @Test func blocksRoundTripAndLayOutAsDocumented() {
        let bins = 24
        let interleaved = Self.awkward(2 * bins, seed: 3)
        defer { aurender_kernels_use_baseline(0) }
        for baseline: Int32 in [1, 0] {
            aurender_kernels_use_baseline(baseline)
            var blocked = [Float](repeating: 0, count: 2 * bins), back = [Float](repeating: 0, count: 2 * bins)
            aurender_spectrum_to_blocks(interleaved, bins, &blocked)
            for bin in 0..<bins {
                let re = bin / 8 * 16 + bin % 8
                #expect(Self.same([blocked[re], blocked[re + 8]], [interleaved[2 * bin], interleaved[2 * bin + 1]]))
            }
            aurender_spectrum_from_blocks(blocked, bins, &back)
            #expect(Self.same(back, interleaved), "baseline \(baseline)")
        }
    }
}
