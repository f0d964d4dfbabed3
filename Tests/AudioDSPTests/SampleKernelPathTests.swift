import AudioDSP
import AudioGraph
import Foundation
import Testing

/// The kernels' instruction sets (SSE2 and AVX2 on x86-64) give the same bits as each other and
/// as a plain scalar reference, on data with every edge case: NaN, ±Inf, overs, exact halves.
@Suite(.serialized) struct SampleKernelPathTests {
    /// Samples from a fixed seed: mostly in range, with halves of an LSB, overs and non-finite values.
    static func awkwardSamples(_ count: Int, seed: UInt64, bits: Int) -> [Float] {
        var state = seed | 1
        let lsb = 1 / Float(1 << (min(bits, 24) - 1))
        return (0..<count).map { _ in
            state ^= state << 13; state ^= state >> 7; state ^= state << 17
            let unit = Float(state >> 40) / Float(1 << 24) * 2 - 1
            switch state % 16 {
            case 0: return .nan
            case 1: return state & 64 == 0 ? .infinity : -.infinity
            case 2: return unit * 3
            case 3: return (Float(Int(unit * 1000)) + 0.5) * lsb
            case 4: return state & 64 == 0 ? 1 : -1
            case 5: return state & 64 == 0 ? .greatestFiniteMagnitude : -1 - lsb / 2
            default: return unit
            }
        }
    }

    static func storage(_ channels: [[Float]]) -> AudioBufferStorage {
        let storage = AudioBufferStorage(channelCount: channels.count, capacity: channels[0].count)
        for (index, samples) in channels.enumerated() { storage.list[index].update(from: samples, count: samples.count) }
        return storage
    }

    /// What quantizing one sample must give, written as plainly as possible.
    static func reference(_ x: Float, bits: Int) -> (value: Int64, over: Bool) {
        guard x.isFinite else { return (0, false) }
        let scale = Double(Int64(1) << (bits - 1)), high = scale - 1, low = -scale
        let v = Double(x) * scale
        return (Int64(min(max(v, low), high).rounded(.toNearestOrEven)), v >= high + 0.5 || v < low - 0.5)
    }

    @Test(arguments: [(1, 16), (2, 16), (3, 16), (2, 8), (1, 24), (2, 24), (3, 24), (2, 32)])
    func quantizingMatchesTheReferenceOnEveryPath(channels: Int, bits: Int) {
        let frames = 4099
        let input = (0..<channels).map { Self.awkwardSamples(frames, seed: UInt64(31 * channels + bits + $0), bits: bits) }
        let buffers = Self.storage(input)
        var expected = [Int64](), overs = 0, nonFinite = 0, peak: Float = 0
        for frame in 0..<frames {
            for channel in 0..<channels {
                let x = input[channel][frame], (value, over) = Self.reference(x, bits: bits)
                expected.append(value)
                overs += over ? 1 : 0
                nonFinite += x.isFinite ? 0 : 1
                if x.isFinite { peak = max(peak, abs(x)) }
            }
        }
        let expectedCount = ClipCount(overs: overs, nonFinite: nonFinite, peak: peak)
        for baseline in [true, false] {
            var none: TPDFDither? = nil
            var integers = [Int32](repeating: 7, count: frames * channels)
            let count = run(baseline) { SampleConversion.quantize(buffers.list, frames: frames, bits: bits, into: &integers, dither: &none) }
            #expect(integers.map { Int64($0 >> (32 - bits)) } == expected, "32-bit form, baseline \(baseline)")
            #expect(count == expectedCount)
            guard bits <= 16 else { continue }
            var shorts = [Int16](repeating: 7, count: frames * channels)
            let shortCount = run(baseline) { SampleConversion.quantize(buffers.list, frames: frames, bits: bits, into: &shorts, dither: &none) }
            #expect(shorts.map { Int64($0 >> (16 - bits)) } == expected, "16-bit form, baseline \(baseline)")
            #expect(shortCount == expectedCount)
        }
    }

    @Test(arguments: [(1, 16), (2, 16), (3, 16), (2, 24), (6, 24)])
    func ditheringGivesTheSameBitsOnEveryPath(channels: Int, bits: Int) {
        let frames = 5000
        let buffers = Self.storage((0..<channels).map { Self.awkwardSamples(frames, seed: UInt64(7 + $0), bits: bits) })
        func dithered(_ baseline: Bool) -> ([Int32], [Int16], ClipCount) {
            var dither: TPDFDither? = TPDFDither(seed: 99)
            var integers = [Int32](repeating: 0, count: frames * channels), shorts = [Int16](repeating: 0, count: frames * channels)
            // Two calls of odd lengths: the second starts with the noise lanes mid-round.
            let first = 1237
            var count = run(baseline) { SampleConversion.quantize(buffers.list, frames: first, bits: bits, into: &integers, dither: &dither) }
            let rest = AudioBufferStorage(channelCount: channels, capacity: frames - first)
            for channel in 0..<channels { rest.list[channel].update(from: buffers.list[channel] + first, count: frames - first) }
            count += integers.withUnsafeMutableBufferPointer { out in
                run(baseline) { SampleConversion.quantize(rest.list, frames: frames - first, bits: bits,
                                                          into: out.baseAddress! + first * channels, dither: &dither) }
            }
            if bits <= 16 {
                var again: TPDFDither? = TPDFDither(seed: 99)
                count += run(baseline) { SampleConversion.quantize(buffers.list, frames: frames, bits: bits, into: &shorts, dither: &again) }
            }
            return (integers, shorts, count)
        }
        let (narrow, wide) = (dithered(true), dithered(false))
        #expect(narrow.0 == wide.0)
        #expect(narrow.1 == wide.1)
        #expect(narrow.2 == wide.2)
        #expect(narrow.2.overs > 0 && narrow.2.nonFinite > 0, "the data has overs and non-finite samples")
    }

    @Test(arguments: [1, 2, 3])
    func floatsAndSquaresMatchOnEveryPath(channels: Int) {
        let frames = 9001
        let input = (0..<channels).map { Self.awkwardSamples(frames, seed: UInt64(100 + $0), bits: 24) }
        let buffers = Self.storage(input)
        var expected = [Float](), overs = 0, nonFinite = 0, peak: Float = 0
        for frame in 0..<frames {
            for channel in 0..<channels {
                let x = input[channel][frame]
                expected.append(x.isFinite ? x : 0)
                overs += x.isFinite && abs(x) > 1 ? 1 : 0
                nonFinite += x.isFinite ? 0 : 1
                if x.isFinite { peak = max(peak, abs(x)) }
            }
        }
        var sums: [Double] = []
        for baseline in [true, false] {
            var floats = [Float](repeating: 7, count: frames * channels)
            let count = run(baseline) { SampleConversion.interleave(buffers.list, frames: frames, into: &floats) }
            #expect(floats == expected)
            #expect(count == ClipCount(overs: overs, nonFinite: nonFinite, peak: peak))

            let back = AudioBufferStorage(channelCount: channels, capacity: frames)
            run(baseline) { SampleConversion.deinterleave(floats, frames: frames, into: back.list) }
            let shorts = floats.map { Int16(clamping: Int(min(max($0 * 32768, -40000), 40000).rounded(.down))) }
            let fromShorts = AudioBufferStorage(channelCount: channels, capacity: frames)
            run(baseline) { SampleConversion.deinterleave(shorts, frames: frames, into: fromShorts.list) }
            for channel in 0..<channels {
                #expect(Array(UnsafeBufferPointer(start: back.list[channel], count: frames)) == input[channel].map { $0.isFinite ? $0 : 0 })
                #expect(Array(UnsafeBufferPointer(start: fromShorts.list[channel], count: frames))
                        == (0..<frames).map { Float(shorts[$0 * channels + channel]) / 32768 })
            }
            let finite = Self.storage(input.map { $0.map { $0.isFinite && abs($0) < 4 ? $0 : 0.5 } })
            sums.append(run(baseline) { SampleConversion.sumOfSquares(finite.list, frames: frames) })
        }
        #expect(sums[0] == sums[1], "the sum of squares adds in the same order on every path")
        let plain = input.joined().reduce(0.0) { $0 + ($1.isFinite && abs($1) < 4 ? Double($1 * $1) : 0.25) }
        #expect(abs(sums[0] - plain) < plain * 1e-5)
    }

    /// Peaking sections from a fixed seed: centres from 20 Hz to 20 kHz, gains of ±12 dB.
    static func peakingSections(_ count: Int, seed: UInt64) -> [BiquadCoefficients] {
        var state = seed | 1
        func unit() -> Double {
            state ^= state << 13; state ^= state >> 7; state ^= state << 17
            return Double(state >> 11) / Double(1 << 53)
        }
        return (0..<count).map { _ in
            try! BiquadCoefficients.peaking(frequency: 20 * pow(1000, unit()), gain: unit() * 24 - 12, q: 0.5 + 2 * unit(),
                                            sampleRate: 44100)
        }
    }

    /// `input` through a cascade of `sections` processed in `chunks`, on one path.
    func filtered(_ input: [[Float]], _ sections: [BiquadCoefficients], chunks: [Int], baseline: Bool) -> [[Float]] {
        let cascade = BiquadCascade(sectionCapacity: sections.count, channelCount: input.count)
        for (index, section) in sections.enumerated() { cascade.setCoefficients(section, section: index) }
        cascade.setActiveSections { _ in true }
        let buffers = Self.storage(input)
        var offset = 0
        for chunk in chunks {
            run(baseline) { cascade.process(buffers.list, frames: chunk, offset: offset) }
            offset += chunk
        }
        return input.indices.map { Array(UnsafeBufferPointer(start: buffers.list[$0], count: offset)) }
    }

    /// The recurrence `BiquadCascade` documents, one sample at a time in Double, rounded to Float
    /// once at the end of the cascade: what every path must give, bit for bit.
    static func recurrence(_ input: [Float], _ sections: [BiquadCoefficients]) -> [Float] {
        var z1 = [Double](repeating: 0, count: sections.count), z2 = z1
        return input.map { sample in
            var x = Double(sample)
            for (index, c) in sections.enumerated() {
                let (c1, c2) = (c.b1 - c.a1 * c.b0, c.b2 - c.a2 * c.b0)
                let state = z1[index]
                let y = c.b0 * x + state
                z1[index] = c1 * x + z2[index] - c.a1 * state
                z2[index] = c2 * x - c.a2 * state
                x = y
            }
            return Float(x)
        }
    }

    /// The first (channel, frame) whose bits differ between `a` and `b`, if any.
    static func firstDifference(_ a: [[Float]], _ b: [[Float]]) -> (channel: Int, frame: Int)? {
        for channel in a.indices {
            if let frame = a[channel].indices.first(where: { a[channel][$0].bitPattern != b[channel][$0].bitPattern }) {
                return (channel, frame)
            }
        }
        return nil
    }

    @Test(arguments: [1, 2, 3, 5, 6, 7, 10])
    func theCascadeGivesTheRecurrencesBitsOnEveryPath(sectionCount: Int) {
        let frames = 6001
        let sections = Self.peakingSections(sectionCount, seed: UInt64(40 + sectionCount))
        let input = (0..<3).map { Self.awkwardSamples(frames, seed: UInt64(200 + $0), bits: 16).map { $0.isFinite ? min(max($0, -2), 2) : 0.25 } }
        let expected = input.map { Self.recurrence($0, sections) }
        for baseline in [true, false] {
            for chunks in [[frames], [1, 2, 3, 4095, 1900], Array(repeating: 1, count: 40) + [frames - 40]] {
                let output = filtered(input, sections, chunks: chunks, baseline: baseline)
                #expect(Self.firstDifference(output, expected) == nil,
                        "\(sectionCount) sections, baseline \(baseline), chunks \(chunks.prefix(5))")
            }
        }
    }

    @Test(arguments: [1, 2, 3], [4, 11, 13])
    func longCascadesAndNonFiniteSamplesGiveTheSameBitsOnEveryPath(channels: Int, sectionCount: Int) {
        let frames = 5003
        let sections = Self.peakingSections(sectionCount, seed: UInt64(60 + sectionCount))
        var input = (0..<channels).map { Self.awkwardSamples(frames, seed: UInt64(300 + $0), bits: 16).map { $0.isFinite ? min(max($0, -3), 3) : 0 } }
        input[0][4500] = .nan
        input[channels - 1][4800] = channels == 1 ? .infinity : -.infinity
        let chunks = [2, 1, 4096, 904]
        let (narrow, wide) = (filtered(input, sections, chunks: chunks, baseline: true), filtered(input, sections, chunks: chunks, baseline: false))
        #expect(Self.firstDifference(narrow, wide) == nil)
        #expect(!narrow[0][..<4500].contains { $0.isNaN } && narrow[0][4500].isNaN, "NaN reaches the cascade after 4,500 frames without")
    }

    private func run<T>(_ baseline: Bool, _ body: () -> T) -> T {
        baseline ? SampleConversion.withBaselineInstructions(body) : body()
    }
}
