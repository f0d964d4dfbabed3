import AudioFiles
import AudioFormats
import AudioGraph
import AudioNodes
import GraphTestSupport
import SoundFile
import TestSupport
import Testing

/// Taps on real nodes: what they see is what the file player decoded and what the file got.
@Suite struct NodeTapTests {
    /// The samples of a Float32 file, one array per channel.
    func channels(of path: String) throws -> [[Float]] {
        let reader = try SoundFileReader(path: path)
        let channelCount = reader.format.channelCount
        var interleaved: [Float] = []
        var block = [Float](repeating: 0, count: 4096 * channelCount)
        while true {
            let frames = try block.withUnsafeMutableBufferPointer { try reader.read(into: $0.baseAddress!, frames: 4096) }
            interleaved += block.prefix(frames * channelCount)
            if frames < 4096 { break }
        }
        return (0..<channelCount).map { channel in stride(from: channel, to: interleaved.count, by: channelCount).map { interleaved[$0] } }
    }

    @Test(arguments: [1000, 4096])
    func tapsSeeThePlayersFramesAndTheLastNodesAreTheFileWritten(sliceSize: Int) throws {
        let folder = try TemporaryFolder()
        let graph = Graph()
        let player = try FilePlayerNode(path: fixture("music.wav"))
        let eq = try GraphicEQNode(presets: [EQPreset.named("Bass Booster")])
        let output = GenericOutput()
        for node in [player, eq, output] as [AudioNode] { try graph.addNode(node) }
        try graph.connect(player, to: eq)
        try graph.connect(eq, to: output)
        try graph.initialize()
        let played = TapRecording(channels: 2)
        let equalized = TapRecording(channels: 2)
        try graph.installTap(on: player, block: played.block)
        try graph.installTap(on: eq, block: equalized.block)

        let format = try output.requiredStreamFormat(scope: .output)
        let path = folder.file("out.wav")
        let writer = try AudioFileWriter(path: path, container: .wav, encoding: .float, format: format)
        while case .rendered(let frames) = try graph.renderSlice(frameCount: sliceSize) {
            try writer.write(output.buffers, frames: frames)
        }
        try writer.finish()

        let input = try channels(of: fixture("music.wav"))
        let written = try channels(of: path)
        #expect(written[0].count == 132_300)
        #expect(played.samples == input)
        #expect(equalized.samples == written)
        #expect(equalized.samples != played.samples, "the EQ changed the music")
        for recording in [played, equalized] {
            #expect(recording.timesAreContiguousFromZero)
            #expect(recording.frameCounts.count == (132_300 + sliceSize - 1) / sliceSize)
        }
    }
}
