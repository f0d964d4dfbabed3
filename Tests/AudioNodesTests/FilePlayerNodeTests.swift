import AudioFiles
import AudioGraph
import AudioNodes
import Foundation
import AudioFormats
import TestSupport
import Testing

/// Renders `graph` to its end in slices of `sliceSize`, each channel's samples.
private func renderAll(_ graph: Graph, sliceSize: Int = 1000) throws -> [[Float]] {
    let output = try #require(graph.output)
    var result = Array(repeating: [Float](), count: output.streamFormat(scope: .input)?.channelCount ?? 0)
    while case .rendered(let frames) = try graph.renderSlice(frameCount: sliceSize) {
        for channel in result.indices {
            result[channel].append(contentsOf: UnsafeBufferPointer(start: output.buffers[channel], count: frames))
        }
    }
    return result
}

/// music.wav (stereo, 44.1 kHz) and speech.wav (mono, 22.05 kHz, through a converter) into a
/// mixer, fed by file players or, with `players` false, by the same readers as render callbacks.
private func makeMix(players: Bool) throws -> Graph {
    let graph = Graph()
    let music = AudioFileReader(file: try FormatRegistry.standard.openDecoder(path: fixture("music.wav")))
    let speech = AudioFileReader(file: try FormatRegistry.standard.openDecoder(path: fixture("speech.wav")))
    let converter = try FormatConverterNode(name: "speech converter", output: .canonical(sampleRate: 44100, channelCount: 1))
    let mixer = try MixerNode(inputBusCount: 2, output: .canonical(sampleRate: 44100, channelCount: 2))
    for node in [converter, mixer, GenericOutput()] as [AudioNode] { try graph.addNode(node) }
    try mixer.setParameter(MixerNode.id(.gain, bus: 1), -6)
    try mixer.setParameter(MixerNode.id(.pan, bus: 1), -0.5)
    if players {
        let musicPlayer = FilePlayerNode(name: "music", source: music)
        let speechPlayer = FilePlayerNode(name: "speech", source: speech)
        try graph.addNode(musicPlayer)
        try graph.addNode(speechPlayer)
        try graph.connect(musicPlayer, to: mixer, inputBus: 0)
        try graph.connect(speechPlayer, to: converter)
    } else {
        try music.attach(to: mixer, bus: 0, in: graph)
        try speech.attach(to: converter, in: graph)
    }
    try graph.connect(converter, to: mixer, inputBus: 1)
    try graph.connect(mixer, to: try #require(graph.output))
    try graph.initialize()
    return graph
}

@Suite struct FilePlayerNodeTests {
    @Test func aPlayerHasNoInputAndTheFilesFormatOnItsOutput() throws {
        let player = FilePlayerNode(source: AudioFileReader(file: try FormatRegistry.standard.openDecoder(path: fixture("speech.wav"))))
        #expect(player.inputBusCount == 0)
        #expect(player.outputBusCount == 1)
        #expect(player.streamFormat(scope: .output) == .canonical(sampleRate: 22050, channelCount: 1))
    }

    @Test func playersFeedAMixerAsTheirCallbacksDo() throws {
        let fromPlayers = try renderAll(try makeMix(players: true))
        let fromCallbacks = try renderAll(try makeMix(players: false))
        #expect(fromPlayers[0].count == 117_884 * 2, "the longer input, speech (117884 frames at 22.05 kHz), sets the length")
        #expect(fromPlayers == fromCallbacks)
        #expect(Signal.rms(fromPlayers[1]) > 0.01)
    }

    @Test func resettingRewindsThePlayers() throws {
        let graph = try makeMix(players: true)
        let first = try renderAll(graph, sliceSize: 4096)
        try graph.reset()
        #expect(try renderAll(graph, sliceSize: 333) == first)
    }

    @Test func aPlayerWhoseSourceCannotRewindRefusesReset() throws {
        let graph = Graph()
        let player = FilePlayerNode(name: "ahead", source: ThreadedFileReader(file: try FormatRegistry.standard.openDecoder(path: fixture("speech.wav"))))
        let output = GenericOutput()
        try graph.addNode(player)
        try graph.addNode(output)
        try graph.connect(player, to: output)
        try graph.initialize()
        #expect(try renderAll(graph)[0].count > 100_000)
        let error = try #require(throws: GraphError.self) { try graph.reset() }
        #expect(error.description == "node 'ahead' cannot be reset: its source (ThreadedFileReader) cannot go back to the start of the file")
    }

    @Test func aPlayerRefusesAnotherOutputFormat() throws {
        let graph = Graph()
        let player = FilePlayerNode(name: "speech", source: AudioFileReader(file: try FormatRegistry.standard.openDecoder(path: fixture("speech.wav"))))
        try player.setStreamFormat(.canonical(sampleRate: 44100, channelCount: 1), scope: .output)
        let output = GenericOutput()
        try graph.addNode(player)
        try graph.addNode(output)
        try graph.connect(player, to: output)
        let error = try #require(throws: GraphError.self) { try graph.initialize() }
        #expect(error.description.contains("a file player gives its file's format"))
    }
}
