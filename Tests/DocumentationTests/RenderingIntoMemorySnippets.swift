import Aurender
import TestSupport
import Testing

/// The snippets of RenderingIntoMemory.md.
@Suite struct RenderingIntoMemorySnippets {
    @Test func aGraphRendersIntoArraysAndIntoTheCallersBuffers() throws {
        let musicPath = fixture("music.wav")
        // snippet: memory-graph
        let graph = Graph()
        let player = FilePlayerNode(source: AudioFileReader(file: try FormatRegistry.standard.openDecoder(path: musicPath)))
        let eq = try GraphicEQNode(presets: [EQPreset.named("Bass Booster")])
        let output = GenericOutput()
        for node in [player, eq, output] as [AudioNode] { try graph.addNode(node) }
        try graph.connect(player, to: eq)
        try graph.connect(eq, to: output)
        try graph.initialize()
        // snippet end
        // snippet: memory-arrays
        var samples: [[Float]] = [[], []]
        while case .rendered(let frames) = try graph.renderSlice(frameCount: 4096) {
            for channel in samples.indices {
                samples[channel] += UnsafeBufferPointer(start: output.buffers[channel], count: frames)
            }
        }
        // snippet end
        #expect(samples[0].count == 132_300)
        #expect(samples[1].count == 132_300)
        let arrayPeak = samples.flatMap { $0 }.map(abs).max() ?? 0
        try graph.reset()
        // snippet: memory-blocks
        let block = AudioBufferStorage(channelCount: 2, capacity: 4096)
        var peak: Float = 0
        while case .rendered(let frames) = try output.renderSlice(frameCount: 4096, into: block.list) {
            for channel in 0..<2 {
                for frame in 0..<frames { peak = max(peak, abs(block.list[channel][frame])) }
            }
        }
        // snippet end
        #expect(peak == arrayPeak)
        #expect(peak > 0.1)
    }
}
