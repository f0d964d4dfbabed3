import AudioDSP
import AudioGraph
import Testing

@Suite struct ChannelMatrixTests {
    func mix(_ matrix: ChannelMatrix, _ channels: [[Float]]) -> [[Float]] {
        let input = AudioBufferStorage(channelCount: channels.count, capacity: channels[0].count)
        for (index, samples) in channels.enumerated() { input.list[index].update(from: samples, count: samples.count) }
        let output = AudioBufferStorage(channelCount: matrix.outputCount, capacity: channels[0].count)
        matrix.apply(input.list, into: output.list, frames: channels[0].count)
        return (0..<matrix.outputCount).map { Array(UnsafeBufferPointer(start: output.list[$0], count: channels[0].count)) }
    }

    @Test func standardMatrices() {
        #expect(mix(.standard(from: 1, to: 3), [[0.5, -0.25]]) == [[0.5, -0.25], [0.5, -0.25], [0.5, -0.25]])
        #expect(mix(.standard(from: 2, to: 1), [[1, 0.5], [0, 0.5]]) == [[0.5, 0.5]])
        let surround: [[Float]] = [[1, 0], [0, 1], [0.5, 0.5], [1, 1], [0.25, 0], [0, 0.25]]
        let stereo = mix(.standard(from: 6, to: 2), surround)
        #expect(abs(stereo[0][0] - (1 + 0.7071068 * 0.5 + 0.7071068 * 0.25)) < 1e-6, "L + 0.7071 C + 0.7071 Ls, no LFE")
        #expect(abs(stereo[1][1] - (1 + 0.7071068 * 0.5 + 0.7071068 * 0.25)) < 1e-6)
        #expect(mix(.standard(from: 4, to: 2), [[1], [0], [0.5], [1]]) == [[0.75], [0.5]])
        #expect(mix(.standard(from: 2, to: 3), [[1], [2]]) == [[1], [2], [0]])
        #expect(ChannelMatrix.standard(from: 2, to: 2).isIdentity)
        #expect(!ChannelMatrix.standard(from: 2, to: 1).isIdentity)
    }

    @Test func mapsAndParsedMatrices() throws {
        #expect(mix(try .selecting([1, 0], inputCount: 2), [[1, 2], [3, 4]]) == [[3, 4], [1, 2]])
        #expect(throws: ChannelMatrixError.noSuchInput(2, inputCount: 2)) { _ = try ChannelMatrix.selecting([2], inputCount: 2) }
        let parsed = try ChannelMatrix.parse("0.5, 0.5; 1,0")
        #expect(parsed.weights == [[0.5, 0.5], [1, 0]])
        #expect(parsed.description == "0.5,0.5;1.0,0.0")
        #expect(throws: ChannelMatrixError.ragged) { _ = try ChannelMatrix.parse("1,0;1") }
        #expect(throws: ChannelMatrixError.notANumber("x")) { _ = try ChannelMatrix.parse("1,x") }
        #expect(throws: ChannelMatrixError.notFinite) { _ = try ChannelMatrix(weights: [[.infinity]]) }
    }
}
