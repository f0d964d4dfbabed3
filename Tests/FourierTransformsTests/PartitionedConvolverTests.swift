import FourierTransforms
import MallocCounter
import Foundation
import Testing

/// The partitioned convolver against direct convolution computed here in double precision,
/// sample by sample: long random responses across many partitions, routes that cross and sum,
/// and the same bits however the input is cut.
@Suite struct PartitionedConvolverTests {
    /// `count` samples in [-1, 1) from a fixed seed (xorshift).
    static func noise(_ count: Int, seed: UInt64) -> [Float] {
        var state = seed | 1
        return (0..<count).map { _ in
            state ^= state << 13; state ^= state >> 7; state ^= state << 17
            return Float(state >> 40) / Float(1 << 23) - 1
        }
    }

    /// y = x ∗ h in double precision, `x.count + h.count - 1` samples.
    static func direct(_ x: [Float], _ h: [Float]) -> [Double] {
        var y = [Double](repeating: 0, count: x.count + h.count - 1)
        let hd = h.map(Double.init)
        y.withUnsafeMutableBufferPointer { y in
            hd.withUnsafeBufferPointer { h in
                for (n, sample) in x.enumerated() where sample != 0 {
                    let xd = Double(sample)
                    for k in 0..<h.count { y[n + k] += xd * h[k] }
                }
            }
        }
        return y
    }

    /// The error's energy over the reference's, in dB.
    static func errorLevel(_ got: [Float], _ reference: [Double]) -> Double {
        var error = 0.0, signal = 0.0
        for (index, value) in reference.enumerated() {
            let difference = Double(got[index]) - value
            error += difference * difference
            signal += value * value
        }
        return 10 * log10(error / signal)
    }

    /// Runs `inputs` (one array per channel) followed by enough silence to flush the responses,
    /// in pieces of `pieces` frames in turn, and returns each output without the latency.
    static func run(_ convolver: PartitionedConvolver, _ inputs: [[Float]], extra: Int, pieces: [Int] = [4096]) -> [[Float]] {
        let total = inputs[0].count + extra + convolver.latency
        let padded = inputs.map { $0 + [Float](repeating: 0, count: total - $0.count) }
        let inputBuffers = padded.map { samples in
            let buffer = UnsafeMutablePointer<Float>.allocate(capacity: total)
            buffer.initialize(from: samples, count: total)
            return buffer
        }
        let outputBuffers = (0..<convolver.outputCount).map { _ in UnsafeMutablePointer<Float>.allocate(capacity: total) }
        defer { (inputBuffers + outputBuffers).forEach { $0.deallocate() } }
        var done = 0, piece = 0
        while done < total {
            let count = min(pieces[piece % pieces.count], total - done)
            let ins = inputBuffers.map { $0 + done }, outs = outputBuffers.map { $0 + done }
            ins.withUnsafeBufferPointer { i in outs.withUnsafeBufferPointer { o in
                convolver.process(inputs: i.baseAddress!, outputs: o.baseAddress!, frames: count)
            } }
            done += count
            piece += 1
        }
        return outputBuffers.map { Array(UnsafeBufferPointer(start: $0 + convolver.latency, count: total - convolver.latency)) }
    }

    @Test(arguments: [(1024, 24_000, 12_000), (64, 1_000, 5_000), (16, 17, 300), (256, 256, 2_000)])
    func monoMatchesDirectConvolution(partition: Int, responseFrames: Int, inputFrames: Int) {
        let response = Self.noise(responseFrames, seed: 7), input = Self.noise(inputFrames, seed: 11)
        let convolver = PartitionedConvolver(partitionLength: partition, inputCount: 1, outputCount: 1, responses: [response],
                                             routes: [ConvolutionRoute(input: 0, output: 0, response: 0)])
        #expect(convolver.depth == (responseFrames + partition - 1) / partition)
        let got = Self.run(convolver, [input], extra: responseFrames + 3 * partition)
        let reference = Self.direct(input, response)
        #expect(Self.errorLevel(got[0], reference) < -120)
        // After the convolution's end only rounding remains, until the last input leaves the
        // spectra kept: then exact zeros.
        let peak = reference.map(abs).max()!, silentFrom = ((inputFrames - 1) / partition + 1 + convolver.depth) * partition
        #expect(got[0][reference.count...].allSatisfy { Double(abs($0)) < 1e-6 * peak })
        #expect(silentFrom < got[0].count && got[0][silentFrom...].allSatisfy { $0 == 0 })
    }

    @Test func trueStereoRoutesCrossAndSum() {
        let responses = (0..<4).map { Self.noise(3_000 + 500 * $0, seed: UInt64(20 + $0)) }
        let left = Self.noise(6_000, seed: 1), right = Self.noise(6_000, seed: 2)
        // Left in to left out, left to right, right to left, right to right.
        let routes = [ConvolutionRoute(input: 0, output: 0, response: 0), ConvolutionRoute(input: 0, output: 1, response: 1),
                      ConvolutionRoute(input: 1, output: 0, response: 2), ConvolutionRoute(input: 1, output: 1, response: 3)]
        let convolver = PartitionedConvolver(partitionLength: 512, inputCount: 2, outputCount: 2, responses: responses, routes: routes)
        let got = Self.run(convolver, [left, right], extra: 4_500)
        for output in 0..<2 {
            let fromLeft = Self.direct(left, responses[output]), fromRight = Self.direct(right, responses[2 + output])
            let reference = (0..<max(fromLeft.count, fromRight.count)).map {
                ($0 < fromLeft.count ? fromLeft[$0] : 0) + ($0 < fromRight.count ? fromRight[$0] : 0)
            }
            #expect(Self.errorLevel(got[output], reference) < -120, "output \(output)")
        }
    }

    @Test func oneResponseSharedByTwoChannelsAndAnOutputWithNoRoute() {
        let response = Self.noise(700, seed: 5), a = Self.noise(2_000, seed: 6), b = Self.noise(2_000, seed: 8)
        let convolver = PartitionedConvolver(partitionLength: 128, inputCount: 2, outputCount: 3, responses: [response],
                                             routes: [ConvolutionRoute(input: 0, output: 0, response: 0),
                                                      ConvolutionRoute(input: 1, output: 1, response: 0)])
        let got = Self.run(convolver, [a, b], extra: 700)
        #expect(Self.errorLevel(got[0], Self.direct(a, response)) < -120)
        #expect(Self.errorLevel(got[1], Self.direct(b, response)) < -120)
        #expect(got[2].allSatisfy { $0 == 0 })
    }

    @Test func theOutputDoesNotDependOnHowTheInputIsCut() {
        let response = Self.noise(5_000, seed: 3), input = Self.noise(9_000, seed: 4)
        func make() -> PartitionedConvolver {
            PartitionedConvolver(partitionLength: 1024, inputCount: 1, outputCount: 1, responses: [response],
                                 routes: [ConvolutionRoute(input: 0, output: 0, response: 0)])
        }
        let whole = Self.run(make(), [input], extra: 5_000, pieces: [1 << 20])
        for pieces in [[1], [64, 65], [1023, 1], [1025], [4096, 7, 333]] {
            #expect(Self.run(make(), [input], extra: 5_000, pieces: pieces) == whole, "pieces \(pieces)")
        }
    }

    @Test func resetForgetsTheInput() {
        let response = Self.noise(300, seed: 9), input = Self.noise(1_000, seed: 10)
        let convolver = PartitionedConvolver(partitionLength: 64, inputCount: 1, outputCount: 1, responses: [response],
                                             routes: [ConvolutionRoute(input: 0, output: 0, response: 0)])
        let first = Self.run(convolver, [input], extra: 300, pieces: [100])
        convolver.reset()
        #expect(Self.run(convolver, [input], extra: 300, pieces: [100]) == first)
    }

    @Test func processingAllocatesNothing() {
        let response = Self.noise(20_000, seed: 12)
        let routes = (0..<2).map { ConvolutionRoute(input: $0, output: $0, response: 0) }
        let convolver = PartitionedConvolver(partitionLength: 2048, inputCount: 2, outputCount: 2, responses: [response], routes: routes)
        let buffers = (0..<2).map { _ in UnsafeMutablePointer<Float>.allocate(capacity: 3000) }
        defer { buffers.forEach { $0.deallocate() } }
        for buffer in buffers { buffer.initialize(repeating: 0.25, count: 3000) }
        buffers.withUnsafeBufferPointer { pointers in
            convolver.process(inputs: pointers.baseAddress!, outputs: pointers.baseAddress!, frames: 3000)
            let before = malloc_counter_thread_allocations()
            for _ in 0..<20 { convolver.process(inputs: pointers.baseAddress!, outputs: pointers.baseAddress!, frames: 3000) }
            let allocations = malloc_counter_thread_allocations() - before
            #expect(allocations == 0)
        }
    }
}
