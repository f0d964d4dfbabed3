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

    @Test func parametersAreSetByNameWithTheirTypes() throws {
        let example = try ExampleGraph()
        let (mixer, eq) = (example.mixer, example.eq)
        // snippet: parameters-by-name
        try eq.setParameter(named: "preset", choice: "Pop")                 // a choice, by name
        try mixer.setParameter(named: "mute[1]", 1)                         // a switch: 0 or 1
        let gainRange = try mixer.parameterDescription(named: "gain[0]").range   // -96...24, in dB
        // snippet end
        #expect(eq.parameter(GraphicEQNode.Parameter.preset) == 1)
        #expect(mixer.parameter(MixerNode.id(.mute, bus: 1)) == 1)
        #expect(gainRange == -96...24)
        let notWhole = #expect(throws: GraphError.self) { try eq.setParameter(named: "preset", 0.5) }
        #expect(notWhole?.description == "parameter 'preset' of node 'music eq' takes a whole number (a switch or a choice), not 0.5")
        let notInTheBank = #expect(throws: GraphError.self) { try eq.setParameter(named: "preset", choice: "Jazz") }
        #expect(notInTheBank?.description == "parameter 'preset' of node 'music eq' has no choice 'Jazz' (it has 'Rock', 'Pop')")
        #expect(throws: GraphError.self) { try mixer.setParameter(named: "mute[1]", 0.5) }
        #expect(mixer.parameter(MixerNode.id(.mute, bus: 1)) == 1, "a refused value leaves the parameter as it was")
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
