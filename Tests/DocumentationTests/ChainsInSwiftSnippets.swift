import Aurender
import Foundation
import TestSupport
import Testing

/// The snippets of ChainsInSwift.md.
@Suite struct ChainsInSwiftSnippets {
    @Test func aChainOfValuesRendersAndIsTheChainItsTextStates() throws {
        let folder = try TemporaryFolder()
        let inputPath = fixture("music.wav"), outputPath = folder.file("music-room.wav")
        // snippet: chain-values
        let chain = try Chain(.highpass(80), .eq("Rock"), .reverb(.largeHall, wet: 30))
        let summary = try chain.render(input: inputPath, output: outputPath)
        // snippet end
        // snippet: chain-text
        let typed = try Chain(parsing: #"highpass frequency=80 | eq preset=Rock | reverb preset="large hall" wet=30"#)
        // snippet end
        #expect(typed == chain)
        #expect(chain.stages.map(\.kind) == ["filter", "eq", "reverb"])
        #expect(summary.frames > 132_300, "the reverb's tail follows the music's 132300 frames: \(summary.frames)")
        #expect(folder.contents() == ["music-room.wav"])
    }

    @Test func aChainTakesTheJobsOptionsAndAKindTwice() throws {
        let folder = try TemporaryFolder()
        let inputPath = fixture("music.wav"), outputPath = folder.file("music-twice.wav")
        // snippet: chain-options
        var options = RenderJob.Options()
        options.format.sampleRate = 48000
        options.format.encoding = .pcm24
        let twice = try Chain(.eq("Rock"), .gain(-3), .eq("Pop"))
        try twice.render(input: inputPath, output: outputPath, options: options)
        // snippet end
        #expect(twice.stages.map(\.name) == ["eq", "gain", "eq 2"])
        let written = try FormatRegistry.standard.openDecoder(path: outputPath)
        #expect(written.format.sampleRate == 48000)
        #expect(written.encoding == .pcm24)
        #expect(written.length == .exact(144_000))
    }

    @Test func aChainIsItsGraphFile() throws {
        let folder = try TemporaryFolder()
        let inputPath = fixture("music.wav"), outputPath = folder.file("out.wav")
        // snippet: chain-graph
        let job = try Chain(.gate(threshold: -50), .compressor(threshold: -18, ratio: 3), .limiter(ceiling: -1))
            .job(input: inputPath, output: outputPath)
        let graph = try job.graphDescription()  // the graph file `--plan json` prints
        // snippet end
        #expect(graph.nodes.map(\.type) == ["file", "gate", "compressor", "limiter", "output"])
        #expect(graph.nodes[3].fields == ["ceiling": .number(-1)])
        #expect(folder.contents().isEmpty)
    }

    @Test func aValueOutOfRangeIsAChainErrorNamingTheStage() throws {
        let folder = try TemporaryFolder()
        let inputPath = fixture("music.wav"), outputPath = folder.file("out.wav")
        var message = ""
        // snippet: chain-error
        do {
            try Chain(.eq("Rock"), .gain(200)).render(input: inputPath, output: outputPath)
        } catch let error as ChainError {
            message = error.description  // "stage 2 (gain): field 'gain': must be from -96 to 96 dB, not 200"
        }
        // snippet end
        #expect(message == "stage 2 (gain): field 'gain': must be from -96 to 96 dB, not 200")
        #expect(folder.contents().isEmpty)
    }
}
