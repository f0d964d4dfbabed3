import FourierTransforms
import MallocCounter
import Foundation
import TestSupport
import Testing

/// The partitioned convolver against direct convolution computed here in double precision,
/// sample by sample: long random responses across many partitions, routes that cross and sum,
/// and the same bits however the input is cut.
@Suite struct PartitionedConvolverTests {
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
        let response = DirectConvolution.noise(responseFrames, seed: 7), input = DirectConvolution.noise(inputFrames, seed: 11)
        let convolver = PartitionedConvolver(partitionLength: partition, inputCount: 1, outputCount: 1, responses: [response],
                                             routes: [ConvolutionRoute(input: 0, output: 0, response: 0)])
        #expect(convolver.depth == (responseFrames + partition - 1) / partition)
        let got = Self.run(convolver, [input], extra: responseFrames + 3 * partition)
        let reference = DirectConvolution.convolve(input, response)
        #expect(DirectConvolution.errorLevel(got[0], reference) < -120)
        // After the convolution's end only rounding remains, until the last input leaves the
        // spectra kept: then exact zeros.
        let peak = reference.map(abs).max()!, silentFrom = ((inputFrames - 1) / partition + 1 + convolver.depth) * partition
        #expect(got[0][reference.count...].allSatisfy { Double(abs($0)) < 1e-6 * peak })
        #expect(silentFrom < got[0].count && got[0][silentFrom...].allSatisfy { $0 == 0 })
    }

    @Test func trueStereoRoutesCrossAndSum() {
        let responses = (0..<4).map { DirectConvolution.noise(3_000 + 500 * $0, seed: UInt64(20 + $0)) }
        let left = DirectConvolution.noise(6_000, seed: 1), right = DirectConvolution.noise(6_000, seed: 2)
        // Left in to left out, left to right, right to left, right to right.
        let routes = [ConvolutionRoute(input: 0, output: 0, response: 0), ConvolutionRoute(input: 0, output: 1, response: 1),
                      ConvolutionRoute(input: 1, output: 0, response: 2), ConvolutionRoute(input: 1, output: 1, response: 3)]
        let convolver = PartitionedConvolver(partitionLength: 512, inputCount: 2, outputCount: 2, responses: responses, routes: routes)
        let got = Self.run(convolver, [left, right], extra: 4_500)
        for output in 0..<2 {
            let fromLeft = DirectConvolution.convolve(left, responses[output]), fromRight = DirectConvolution.convolve(right, responses[2 + output])
            let reference = (0..<max(fromLeft.count, fromRight.count)).map {
                ($0 < fromLeft.count ? fromLeft[$0] : 0) + ($0 < fromRight.count ? fromRight[$0] : 0)
            }
            #expect(DirectConvolution.errorLevel(got[output], reference) < -120, "output \(output)")
        }
    }

    @Test func oneResponseSharedByTwoChannelsAndAnOutputWithNoRoute() {
        let response = DirectConvolution.noise(700, seed: 5), a = DirectConvolution.noise(2_000, seed: 6), b = DirectConvolution.noise(2_000, seed: 8)
        let convolver = PartitionedConvolver(partitionLength: 128, inputCount: 2, outputCount: 3, responses: [response],
                                             routes: [ConvolutionRoute(input: 0, output: 0, response: 0),
                                                      ConvolutionRoute(input: 1, output: 1, response: 0)])
        let got = Self.run(convolver, [a, b], extra: 700)
        #expect(DirectConvolution.errorLevel(got[0], DirectConvolution.convolve(a, response)) < -120)
        #expect(DirectConvolution.errorLevel(got[1], DirectConvolution.convolve(b, response)) < -120)
        #expect(got[2].allSatisfy { $0 == 0 })
    }

    @Test func theOutputDoesNotDependOnHowTheInputIsCut() {
        let response = DirectConvolution.noise(5_000, seed: 3), input = DirectConvolution.noise(9_000, seed: 4)
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
        let response = DirectConvolution.noise(300, seed: 9), input = DirectConvolution.noise(1_000, seed: 10)
        let convolver = PartitionedConvolver(partitionLength: 64, inputCount: 1, outputCount: 1, responses: [response],
                                             routes: [ConvolutionRoute(input: 0, output: 0, response: 0)])
        let first = Self.run(convolver, [input], extra: 300, pieces: [100])
        convolver.reset()
        #expect(Self.run(convolver, [input], extra: 300, pieces: [100]) == first)
    }

    @Test func processingAllocatesNothing() {
        let response = DirectConvolution.noise(20_000, seed: 12)
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
    /// A response replaced mid-stream: the block after the replacement fades linearly from the
    /// old response's output to the new one's, and from the next block on the output is the new
    /// response's convolution, each within rounding of direct convolution.
    @Test func aReplacedResponseFadesInOverOneBlock() {
        let partition = 256, first = DirectConvolution.noise(700, seed: 31), second = DirectConvolution.noise(600, seed: 32)
        let input = DirectConvolution.noise(8 * partition, seed: 33)
        let convolver = PartitionedConvolver(partitionLength: partition, inputCount: 1, outputCount: 1, responses: [first],
                                             routes: [ConvolutionRoute(input: 0, output: 0, response: 0)], crossfade: true)
        #expect(convolver.responseCapacity(0) == 768)
        let buffer = UnsafeMutablePointer<Float>.allocate(capacity: input.count), output = UnsafeMutablePointer<Float>.allocate(capacity: input.count)
        defer { buffer.deallocate(); output.deallocate() }
        buffer.initialize(from: input, count: input.count)
        var inputs = [buffer], outputs = [output]
        // Blocks 0-3 with the first response; the replacement before block 4 completes fades over output block 5.
        inputs.withUnsafeBufferPointer { i in outputs.withUnsafeBufferPointer { o in
            convolver.process(inputs: i.baseAddress!, outputs: o.baseAddress!, frames: 4 * partition + 10)
        } }
        second.withUnsafeBufferPointer { convolver.replaceResponse(0, with: $0.baseAddress!, count: $0.count) }
        inputs = [buffer + 4 * partition + 10]
        outputs = [output + 4 * partition + 10]
        inputs.withUnsafeBufferPointer { i in outputs.withUnsafeBufferPointer { o in
            convolver.process(inputs: i.baseAddress!, outputs: o.baseAddress!, frames: 4 * partition - 10)
        } }
        let got = Array(UnsafeBufferPointer(start: output, count: input.count))
        let old = DirectConvolution.convolve(input, first), new = DirectConvolution.convolve(input, second)
        // Output frame n is the convolution at input frame n - partition.
        let before = (partition..<(5 * partition)).map { old[$0 - partition] }
        let fading = (0..<partition).map { frame in
            old[4 * partition + frame] + Double(frame + 1) / Double(partition) * (new[4 * partition + frame] - old[4 * partition + frame])
        }
        let after = ((6 * partition)..<(8 * partition)).map { new[$0 - partition] }
        #expect(DirectConvolution.errorLevel(Array(got[partition..<(5 * partition)]), before) < -120)
        #expect(DirectConvolution.errorLevel(Array(got[(5 * partition)..<(6 * partition)]), fading) < -120)
        #expect(DirectConvolution.errorLevel(Array(got[(6 * partition)...]), after) < -120)
    }
}
