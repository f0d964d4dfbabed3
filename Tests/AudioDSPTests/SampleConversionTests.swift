import AudioDSP
import Foundation
import AudioGraph
import Testing

@Suite struct SampleConversionTests {
    var noDither: TPDFDither? = nil

    /// Buffers holding the given channels.
    func buffers(_ channels: [[Float]]) -> AudioBufferStorage {
        let storage = AudioBufferStorage(channelCount: channels.count, capacity: channels.first?.count ?? 0)
        for (index, samples) in channels.enumerated() {
            storage.list[index].update(from: samples, count: samples.count)
        }
        return storage
    }

    @Test(arguments: [1, 2, 3, 6])
    func deinterleaveThenInterleaveIsIdentity(channels: Int) {
        let frames = 37
        let interleaved = (0..<(frames * channels)).map { Float($0) / 1000 - 0.5 }
        let storage = AudioBufferStorage(channelCount: channels, capacity: frames)
        SampleConversion.deinterleave(interleaved, frames: frames, into: storage.list)
        for channel in 0..<channels {
            #expect(storage.list[channel][5] == interleaved[5 * channels + channel])
        }
        var back = [Float](repeating: 9, count: frames * channels)
        let count = SampleConversion.interleave(storage.list, frames: frames, into: &back)
        #expect(back == interleaved)
        #expect(count == ClipCount(overs: 0, nonFinite: 0, peak: 0.5))
    }

    @Test func deinterleavesAtAnOffset() {
        let storage = AudioBufferStorage(channelCount: 2, capacity: 4)
        SampleConversion.deinterleave([1, 2, 3, 4] as [Float], frames: 2, into: storage.list, at: 2)
        #expect(Array(UnsafeBufferPointer(start: storage.list[0], count: 4)) == [0, 0, 1, 3])
        #expect(Array(UnsafeBufferPointer(start: storage.list[1], count: 4)) == [0, 0, 2, 4])
    }

    @Test(arguments: [1, 2, 5])
    func shortsScaleByFullScale(channels: Int) {
        let shorts: [Int16] = (0..<(4 * channels)).map { [Int16.min, -1, 1, Int16.max][$0 % 4] }
        let storage = AudioBufferStorage(channelCount: channels, capacity: 4)
        SampleConversion.deinterleave(shorts, frames: 4, into: storage.list)
        for index in shorts.indices {
            #expect(storage.list[index % channels][index / channels] == Float(shorts[index]) / 32768)
        }
    }

    @Test(arguments: [8, 16, 24, 32])
    mutating func quantizeRoundsClipsAndCounts(bits: Int) {
        let step = 1 / Float(1 << (bits - 1))
        let input: [Float] = [0, 0.5, -0.5, 1, -1, 1.5, -1.5, .nan, .infinity, -.infinity, step * 0.4, step * 0.6, -step * 0.6]
        let storage = buffers([input])
        var output = [Int32](repeating: 7, count: input.count)
        let count = SampleConversion.quantize(storage.list, frames: input.count, bits: bits, into: &output, dither: &noDither)
        let top = Int32(truncatingIfNeeded: (Int64(1) << (bits - 1)) - 1) << (32 - bits)
        let one = Int32(1) << (32 - bits)
        let half = Int32(1) << 30
        #expect(output == [0, half, -half, top, .min, top, .min, 0, 0, 0, 0, one, -one])
        #expect(count == ClipCount(overs: 3, nonFinite: 3, peak: 1.5))
    }

    @Test mutating func quantizeToShortsMatchesTheIntegerForm() {
        let input = (0..<1000).map { Float(sin(Double($0) * 0.37)) * 1.2 }
        let stereo = buffers([input, input.map { -$0 }])
        var shorts = [Int16](repeating: 0, count: 2000)
        var integers = [Int32](repeating: 0, count: 2000)
        let shortCount = SampleConversion.quantize(stereo.list, frames: 1000, bits: 16, into: &shorts, dither: &noDither)
        let integerCount = SampleConversion.quantize(stereo.list, frames: 1000, bits: 16, into: &integers, dither: &noDither)
        #expect(shorts.map { Int32($0) << 16 } == integers)
        #expect(shortCount == integerCount)
        #expect(shortCount.overs > 0)
    }

    @Test mutating func sixteenBitRoundTripIsExact() {
        let all = (Int(Int16.min)...Int(Int16.max)).map { Int16($0) }
        let storage = AudioBufferStorage(channelCount: 1, capacity: all.count)
        SampleConversion.deinterleave(all, frames: all.count, into: storage.list)
        var back = [Int16](repeating: 0, count: all.count)
        let count = SampleConversion.quantize(storage.list, frames: all.count, bits: 16, into: &back, dither: &noDither)
        #expect(back == all)
        #expect(count == ClipCount(overs: 0, nonFinite: 0, peak: 1))
    }

    @Test func interleaveKeepsOversAndZeroesNonFinite() {
        let storage = buffers([[1.5, .nan, -0.25, -.infinity]])
        var output = [Float](repeating: 7, count: 4)
        let count = SampleConversion.interleave(storage.list, frames: 4, into: &output)
        #expect(output == [1.5, 0, -0.25, 0])
        #expect(count == ClipCount(overs: 1, nonFinite: 2, peak: 1.5))
    }

    @Test(arguments: [16, 24])
    func tpdfDitherIsTriangularAndCentred(bits: Int) {
        let frames = 100_000
        // Far below one step, but not zero: exact zeros get no dither (the test after this).
        let silence = buffers([[Float](repeating: 1e-12, count: frames), [Float](repeating: -1e-12, count: frames)])
        var dither: TPDFDither? = TPDFDither(seed: 42)
        var output = [Int32](repeating: 0, count: 2 * frames)
        _ = SampleConversion.quantize(silence.list, frames: frames, bits: bits, into: &output, dither: &dither)
        let values = output.map { Int($0 >> (32 - bits)) }
        #expect(Set(values).isSubset(of: [-1, 0, 1]), "TPDF dither spans ±1 LSB")
        let mean = Double(values.reduce(0, +)) / Double(values.count)
        #expect(abs(mean) < 0.01, "zero mean: \(mean)")
        let nonZero = Double(values.filter { $0 != 0 }.count) / Double(values.count)
        #expect(abs(nonZero - 0.25) < 0.01, "a triangular ±1 LSB noise rounds to ±1 a quarter of the time: \(nonZero)")

        var again: TPDFDither? = TPDFDither(seed: 42)
        var second = [Int32](repeating: 0, count: 2 * frames)
        _ = SampleConversion.quantize(silence.list, frames: frames, bits: bits, into: &second, dither: &again)
        #expect(second == output, "the same seed gives the same noise")
        var other: TPDFDither? = TPDFDither(seed: 43)
        _ = SampleConversion.quantize(silence.list, frames: frames, bits: bits, into: &second, dither: &other)
        #expect(second != output)
    }

    @Test(arguments: [16, 24])
    func exactZerosGetNoDither(bits: Int) {
        let frames = 10_000
        let tone = (0..<frames).map { Float(sin(Double($0) * 0.05)) * 0.5 }
        let silentThenTone = [Float](repeating: 0, count: frames) + tone
        let input = buffers([silentThenTone, silentThenTone.map { -$0 }])
        var dither: TPDFDither? = TPDFDither(seed: 7)
        var output = [Int32](repeating: 0, count: 4 * frames)
        _ = SampleConversion.quantize(input.list, frames: 2 * frames, bits: bits, into: &output, dither: &dither)
        #expect(output[..<(2 * frames)].allSatisfy { $0 == 0 }, "digital silence stays exact zeros")
        var plain: TPDFDither? = nil
        var rounded = [Int32](repeating: 0, count: 4 * frames)
        _ = SampleConversion.quantize(input.list, frames: 2 * frames, bits: bits, into: &rounded, dither: &plain)
        let moved = zip(output[(2 * frames)...], rounded[(2 * frames)...]).filter { $0 != $1 }.count
        #expect(moved > frames / 4, "the tone after it is still dithered: \(moved) samples moved")
    }
}
