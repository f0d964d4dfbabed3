import Aurender
import Testing

/// The snippets of Parameters.md.
@Suite struct ParameterSnippets {
    @Test func parametersAreDescribedAndSet() throws {
        let mixer = try ExampleGraph().mixer
        // snippet: parameters
        let names = mixer.parameterDescriptions.map(\.name)      // ["volume", "gain[0]", "pan[0]", …]
        try mixer.setParameter(MixerNode.masterVolume, -3)       // from the next slice, gliding over 64 frames
        // snippet end
        #expect(names.prefix(3) == ["volume", "gain[0]", "pan[0]"])
        #expect(mixer.parameter(MixerNode.masterVolume) == -3)
        #expect(throws: GraphError.self) { try mixer.setParameter(MixerNode.masterVolume, 40) }
    }

    @Test func scheduledChangesLandOnTheirFramesAndResetRendersAgain() throws {
        let example = try ExampleGraph()
        let (graph, mixer, eq) = (example.graph, example.mixer, example.eq)
        // snippet: schedule
        let second: Int64 = 44100
        try graph.scheduleParameterRamp(MixerNode.id(.gain, bus: 0), on: mixer, from: -6, to: -30,
                                        atFrame: 1 * second, overFrames: second / 2)
        try graph.scheduleParameter(GraphicEQNode.Parameter.preset, on: eq, value: 1, atFrame: 2 * second)  // Pop
        try graph.scheduleParameter(MixerNode.id(.mute, bus: 1), on: mixer, value: 1, atFrame: 4 * second)
        // snippet end
        #expect(graph.scheduledParameterChanges.count == 689 + 2)
        let first = try example.render(sliceSize: 4096)
        #expect(mixer.parameter(MixerNode.id(.gain, bus: 0)) == -30)
        #expect(eq.currentPreset.name == "Pop")
        // snippet: reset
        try graph.reset()       // players rewound, filters cleared, scheduled changes due again
        // snippet end
        #expect(mixer.parameter(MixerNode.id(.gain, bus: 0)) == -6)
        let again = try example.render(sliceSize: 4096)
        let identical = again == first
        #expect(identical, "a reset graph renders the same samples")
        try graph.reset()
        let bySlicesOf100 = try example.render(sliceSize: 100)
        let largestDifference = zip(first.joined(), bySlicesOf100.joined()).map { abs($0 - $1) }.max() ?? 1
        #expect(bySlicesOf100[0].count == first[0].count)
        #expect(largestDifference < 1e-5, "the changes land on the same frames for any slice size")
        let muted = first.allSatisfy { $0[(Int(4 * second) + MixerNode.rampFrames)...].allSatisfy { $0 == 0 } }
        #expect(muted, "the music has ended (3 s) and the speech is muted from 4 s, after the mixer's glide")
        let before = first[1][Int(4 * second) - 1000..<Int(4 * second)].map(abs).max() ?? 0
        #expect(before > 0.001, "the speech is heard until then")
    }
}
