import Aurender
import Foundation
import TestSupport
import Testing

/// The snippets of GraphsAsData.md.
@Suite struct GraphsAsDataSnippets {
    @Test func aDescriptionBuiltInSwiftIsPlannedAndRendered() throws {
        let temporary = try TemporaryFolder()
        let folder = temporary.path
        for name in ["music.wav", "speech.wav"] { try FileManager.default.copyItem(atPath: fixture(name), toPath: temporary.file(name)) }
        // snippet: graph-description
        let description = GraphDescription(
            nodes: [
                .init(name: "music", type: "file", fields: ["path": "music.wav"]),
                .init(name: "speech", type: "file", fields: ["path": "speech.wav"]),
                .init(name: "music eq", type: "eq", fields: ["preset": "Rock"]),
                .init(name: "mixer", type: "mixer", fields: ["buses": [["gain": "-6dB"], ["pan": -0.3, "start": "500ms"]]]),
                .init(name: "mix", type: "output", fields: ["path": "mix.wav", "bits": "24"]),
            ],
            connections: [
                .init(from: "music", to: "music eq"),
                .init(from: "music eq", to: "mixer", bus: 0),
                .init(from: "speech", to: "mixer", bus: 1),
                .init(from: "mixer", to: "mix"),
            ],
            events: [
                .init(at: "2s", node: "mixer", parameter: "gain[0]", value: "-20dB", ramp: "500ms"),
                .init(at: "2.5s", node: "music eq", preset: "Pop"),
            ])
        // snippet end
        // snippet: graph-job
        let job = GraphJob(description: description, folder: folder, presets: PresetLookup(environment: [:]))
        let plan = try job.describe(as: .text)  // what `--dry-run` prints: files, nodes, edges, events
        let summary = try job.run()             // mix.wav appears in folder, whole, or not at all
        // snippet end
        #expect(plan.contains("node    music eq (preset 'Rock', accurate)"))
        #expect(plan.contains("edge    speech converter -> mixer bus 1 [44100 Hz, 1 ch, float32]"),
                "the speech, at 22.05 kHz, gets a converter to the mixer's rate")
        #expect(plan.contains("event   frame 88200 (2.0 s): mixer gain[0] ramps -6 dB -> -20 dB over 22050 frames, in 689 steps of 32"))
        #expect(plan.contains("event   frame 110250 (2.5 s): music eq preset = 'Pop'"))
        #expect(summary.frames == 22050 + 235_768, "the speech starts 0.5 s in and lasts 235768 frames at 44.1 kHz")
        let written = try FormatRegistry.standard.openDecoder(path: temporary.file("mix.wav"))
        #expect(written.encoding == .pcm24)
        #expect(written.length == .exact(22050 + 235_768))
        #expect(temporary.contents() == ["mix.wav", "music.wav", "speech.wav"])

        let encoded = try JSONEncoder().encode(description)
        #expect(try JSONDecoder().decode(GraphDescription.self, from: encoded) == description, "a description is its graph file")
    }

    @Test func theCatalogueListsEveryKindWithItsFields() throws {
        // snippet: catalogue
        let kinds = NodeCatalogue.kinds.map(\.name)        // ["file", "converter", "eq", "mixer", "gain", "filter", "gate", "compressor", "distortion", "delay", "reverb", "limiter", "silence", "timepitch", "voice", "convolution", "spatial", "plugin", "output"]
        let mixer = MixerNode.kind
        let settings = mixer.settings.map(\.name)          // ["rate", "channels", "buses"]
        let parameters = mixer.parameters.map(\.name)      // ["volume", "gain[N]", "pan[N]", "enable[N]", "mute[N]"]
        // snippet end
        #expect(kinds == ["file", "converter", "eq", "mixer", "gain", "filter", "gate", "compressor", "distortion", "delay", "reverb", "limiter", "silence", "timepitch", "voice", "convolution", "spatial", "plugin", "output"])
        #expect(settings == ["rate", "channels", "buses"])
        #expect(parameters == ["volume", "gain[N]", "pan[N]", "enable[N]", "mute[N]"])
    }

    @Test func aWrongFieldIsAnErrorNamingTheNodeAndTheField() throws {
        let temporary = try TemporaryFolder()
        try FileManager.default.copyItem(atPath: fixture("music.wav"), toPath: temporary.file("music.wav"))
        let description = GraphDescription(
            nodes: [
                .init(name: "music", type: "file", fields: ["path": "music.wav"]),
                .init(name: "music eq", type: "eq", fields: ["preset": "Rock", "preamp": 40]),
                .init(name: "out", type: "output", fields: ["path": "out.wav"]),
            ],
            connections: [.init(from: "music", to: "music eq"), .init(from: "music eq", to: "out")])
        let job = GraphJob(description: description, folder: temporary.path, presets: PresetLookup(environment: [:]))
        let error = #expect(throws: RenderError.self) { try job.describe(as: .text) }
        #expect(error?.description == "graph: node 'music eq' (eq): field 'preamp': must be from -60 to 24, not 40")
        #expect(temporary.contents() == ["music.wav"])
    }
}
