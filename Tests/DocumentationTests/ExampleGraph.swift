import Aurender
import TestSupport
import Testing

/// The graph of BuildingAGraph.md: music through an EQ and speech through a converter into a
/// mixer, with its nodes, for the tests of that article and of the parameters article.
struct ExampleGraph {
    let graph: Graph
    let music: FilePlayerNode
    let speech: FilePlayerNode
    let eq: GraphicEQNode
    let mixer: MixerNode
    let output: GenericOutput

    init() throws {
        let musicPath = fixture("music.wav"), speechPath = fixture("speech.wav")
        // snippet: build-graph
        let graph = Graph()
        let music = try FilePlayerNode(name: "music", path: musicPath)
        let speech = try FilePlayerNode(name: "speech", path: speechPath)
        let converter = try FormatConverterNode(name: "speech converter", output: .canonical(sampleRate: 44100, channelCount: 1))
        let rock = try EQPreset.named("Rock")
        let pop = try EQPreset.named("Pop")
        let eq = try GraphicEQNode(name: "music eq", presets: [rock, pop])
        let mixer = try MixerNode(inputBusCount: 2, output: .canonical(sampleRate: 44100, channelCount: 2))
        let output = GenericOutput()
        for node in [music, speech, converter, eq, mixer, output] as [AudioNode] { try graph.addNode(node) }

        try graph.connect(music, to: eq)
        try graph.connect(eq, to: mixer, inputBus: 0)
        try graph.connect(speech, to: converter)
        try graph.connect(converter, to: mixer, inputBus: 1)
        try graph.connect(mixer, to: output)

        try mixer.setParameter(named: "gain[0]", -6)     // music 6 dB down
        try mixer.setParameter(named: "pan[1]", -0.3)    // speech a little to the left
        try graph.initialize()
        // snippet end
        self.graph = graph
        self.music = music
        self.speech = speech
        self.eq = eq
        self.mixer = mixer
        self.output = output
    }

    /// Renders to the end in slices of `sliceSize`, each channel's samples.
    func render(sliceSize: Int = 4096) throws -> [[Float]] {
        var samples: [[Float]] = [[], []]
        while case .rendered(let frames) = try graph.renderSlice(frameCount: sliceSize) {
            for channel in samples.indices {
                samples[channel] += UnsafeBufferPointer(start: output.buffers[channel], count: frames)
            }
        }
        return samples
    }
}
