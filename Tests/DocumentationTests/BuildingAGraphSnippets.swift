import Aurender
import TestSupport
import Testing

/// The snippets of BuildingAGraph.md.
@Suite struct BuildingAGraphSnippets {
    @Test func theGraphIsWrittenToAFile() throws {
        let folder = try TemporaryFolder()
        let outputPath = folder.file("mix.wav")
        let example = try ExampleGraph()
        let (graph, output) = (example.graph, example.output)
        #expect(output.streamFormat(scope: .input) == .canonical(sampleRate: 44100, channelCount: 2))
        // snippet: write-graph
        let writer = try AudioFileWriter(path: outputPath, container: .wav, encoding: .pcm24,
                                         format: try output.requiredStreamFormat(scope: .output))
        while case .rendered(let frames) = try graph.renderSlice(frameCount: 4096) {
            try writer.write(output.buffers, frames: frames)
        }
        try writer.finish()             // the file appears only now, whole
        // snippet end
        let written = try FormatRegistry.standard.openDecoder(path: outputPath)
        let frames = try #require(written.length.exactFrames)
        #expect(frames == 235_768, "speech, the longer input: 117884 frames at 22.05 kHz")
        #expect(written.format.channelCount == 2)
        #expect(written.encoding == .pcm24)
        #expect(writer.clipCount.peak > 0.05)
        #expect(folder.contents() == ["mix.wav"])
    }
}
