import Foundation
import SoundFile
import TestSupport
import Testing

@Suite struct GraphFileTests {
    func write(_ json: String, to path: String) throws {
        try Data(json.utf8).write(to: URL(fileURLWithPath: path))
    }


    /// The seed's example: a guitar and a beats input, an EQ on the beats, a mixer, one output.
    static let seedExample = """
        {
          "nodes": [
            {"name": "guitar", "type": "file", "path": "guitar.wav"},
            {"name": "beats", "type": "file", "path": "beats.wav"},
            {"name": "beats eq", "type": "eq", "preset": "Rock"},
            {"name": "mixer", "type": "mixer", "buses": [{"gain": -3, "pan": -0.3}, {"start": 0.5}]},
            {"name": "song", "type": "output", "path": "song.wav"}
          ],
          "connections": [
            {"from": "guitar", "to": "mixer", "bus": 0},
            {"from": "beats", "to": "beats eq"},
            {"from": "beats eq", "to": "mixer", "bus": 1},
            {"from": "mixer", "to": "song"}
          ]
        }
        """

    @Test func aGraphFileAndTheMixCommandGiveTheSameBytes() throws {
        let folder = try TemporaryFolder()
        try FileManager.default.copyItem(atPath: fixture("music.wav"), toPath: folder.file("guitar.wav"))
        #expect(try aurender([fixture("speech.wav"), folder.file("beats.wav"), "--rate", "44100"]).status == 0)
        try write(Self.seedExample, to: folder.file("song.json"))
        let graph = try aurender(["render", folder.file("song.json")])
        #expect(graph.status == 0, "\(graph.standardError)")
        let cli = try aurender(["mix", folder.file("guitar.wav") + "@gain=-3,pan=-0.3", folder.file("beats.wav") + "@eq=Rock,start=0.5s",
                                "-o", folder.file("cli.wav")])
        #expect(cli.status == 0, "\(cli.standardError)")
        #expect(bytes(folder.file("song.wav")) != nil)
        #expect(bytes(folder.file("song.wav")) == bytes(folder.file("cli.wav")))

        let plan = try aurender([folder.file("song.json"), "--dry-run"])
        #expect(plan.status == 0)
        #expect(plan.output.contains("node    beats eq (preset 'Rock', accurate)"))
        #expect(plan.output.contains("edge    beats eq -> mixer bus 1 [44100 Hz, 1 ch, float32]"))
        let dot = try aurender([folder.file("song.json"), "--plan", "dot"])
        #expect(dot.output.hasPrefix("digraph aurender {"))
        #expect(dot.output.contains("\"beats eq\" -> \"mixer\" [label=\"bus 1: 44100 Hz, 1 ch, float32\"];"))
    }

    /// Events land on their exact frame whatever the slice size.
    @Test(arguments: ["1", "64", "4096"])
    func eventsLandOnTheirFrame(slice: String) throws {
        let folder = try TemporaryFolder()
        try writeFloats([Float](repeating: 0.25, count: 16000), rate: 8000, to: folder.file("tone.wav"))
        try write("""
            {"nodes": [{"name": "in", "type": "file", "path": "tone.wav"},
                       {"name": "mix", "type": "mixer", "channels": 1},
                       {"name": "out", "type": "output", "path": "out.wav", "bits": "float"}],
             "connections": [{"from": "in", "to": "mix"}, {"from": "mix", "to": "out"}],
             "events": [{"at": 0.5, "node": "mix", "parameter": "gain[0]", "value": -6.0206},
                        {"at": 1.0, "node": "mix", "parameter": "gain[0]", "value": 0, "ramp": 0.5},
                        {"at": 1.75, "node": "mix", "parameter": "enable[0]", "value": 0}]}
            """, to: folder.file("g.json"))
        let result = try aurender([folder.file("g.json"), "--frames-per-slice", slice])
        #expect(result.status == 0, "\(result.standardError)")
        let output = try samples(of: folder.file("out.wav")).samples
        #expect(output[3999] == 0.25 && output[4000] < 0.25, "the gain starts to change on frame 4000")
        #expect(abs(output[4000 + MixerRamp.frames] - 0.125) < 1e-5, "and glides there in \(MixerRamp.frames) frames, without a click")
        let steps = zip(output[3990..<4100], output[3991..<4101]).map { abs($0 - $1) }.max()!
        #expect(steps < 0.003, "no step larger than the glide's: \(steps)")
        #expect(output[7999] == output[7000] && output[8000] > output[7999], "the ramp starts on frame 8000")
        #expect(abs(output[12_000 + MixerRamp.frames] - 0.25) < 1e-5, "and ends 0.5 s later")
        #expect(output.count == 14_000, "disabling the only bus at 1.75 s ends the mix")
    }

    @Test(arguments: [
        (#"{"nodes": [{"name": "a", "type": "synth"}], "connections": []}"#, "field 'nodes[0].type'"),
        (#"{"nodes": [{"name": "o", "type": "output", "path": "o.wav"}], "connections": [{"from": "x", "to": "o"}]}"#,
         "graph: connection 1 (x -> o) names no node 'x'"),
        (#"{"nodes": [{"name": "f", "type": "file", "path": "in.wav"}, {"name": "o", "type": "output", "path": "o.wav"}, {"name": "p", "type": "output", "path": "p.wav"}], "connections": []}"#,
         "graph: 2 output nodes (o, p); it needs exactly one"),
        (#"{"nodes": [{"name": "f", "type": "file", "path": "missing.wav"}, {"name": "o", "type": "output", "path": "o.wav"}], "connections": [{"from": "f", "to": "o"}]}"#,
         "missing.wav: No such file or directory"),
        (#"{"nodes": [{"name": "f", "type": "file", "path": "in.wav"}, {"name": "a", "type": "eq", "preset": "Rock"}, {"name": "b", "type": "eq", "preset": "Pop"}, {"name": "m", "type": "mixer"}, {"name": "o", "type": "output", "path": "o.wav"}], "connections": [{"from": "f", "to": "m", "bus": 0}, {"from": "a", "to": "b"}, {"from": "b", "to": "a"}, {"from": "m", "to": "o"}]}"#,
         "graph: the connections form a cycle"),
        (#"{"nodes": [{"name": "f", "type": "file", "path": "in.wav"}, {"name": "g", "type": "file", "path": "in.wav"}, {"name": "o", "type": "output", "path": "o.wav"}], "connections": [{"from": "f", "to": "o"}, {"from": "g", "to": "o"}]}"#,
         "graph: input bus 0 of node 'o' is already fed"),
        (#"{"nodes": [{"name": "f", "type": "file", "path": "in.wav"}, {"name": "m", "type": "mixer"}, {"name": "o", "type": "output", "path": "o.wav"}], "connections": [{"from": "f", "to": "m"}, {"from": "m", "to": "o"}], "events": [{"at": 1, "node": "m", "parameter": "pan[0]", "value": 3}]}"#,
         "graph: event 1: pan[0] must be from -1.0 to 1.0, not 3.0"),
        (#"{"nodes": [{"name": "f", "type": "file", "path": "in.wav"}, {"name": "e", "type": "eq", "preset": "Rock"}, {"name": "o", "type": "output", "path": "o.wav"}], "connections": [{"from": "f", "to": "e"}, {"from": "e", "to": "o"}], "events": [{"at": 1, "node": "e", "parameter": "preset", "value": 2.5}]}"#,
         "graph: event 1: preset takes one of 'Rock' by name, not 2.5"),
        (#"{"nodes": [{"name": "f", "type": "file", "path": "in.wav"}, {"name": "m", "type": "mixer"}, {"name": "o", "type": "output", "path": "o.wav"}], "connections": [{"from": "f", "to": "m"}, {"from": "m", "to": "o"}], "events": [{"at": 1, "node": "m", "parameter": "mute[0]", "value": 1, "ramp": "1s"}]}"#,
         "graph: event 1: mute[0] is a switch or a choice, which changes at once; it cannot ramp"),
    ])
    func malformedGraphsGetOneClearError(json: String, message: String) throws {
        let folder = try TemporaryFolder()
        try FileManager.default.copyItem(atPath: fixture("speech.wav"), toPath: folder.file("in.wav"))
        try write(json, to: folder.file("g.json"))
        let result = try aurender([folder.file("g.json")])
        #expect(result.status == 64 || result.status == 66, "\(result.standardError)")
        #expect(result.standardError.contains(message), "\(result.standardError)")
        #expect(result.standardError.filter { $0 == "\n" }.count == 1)
        #expect(!FileManager.default.fileExists(atPath: folder.file("o.wav")))
    }

    /// Fields are checked against the node kind: units accepted, misspellings and bad values refused.
    @Test(arguments: [
        (#"{"name": "e", "type": "eq", "presett": "Rock"}"#, "graph: node 'e' (eq): field 'presett': unknown field (eq takes preset, mode or preamp)"),
        (#"{"name": "e", "type": "eq", "preset": "Rock", "preamp": "loud"}"#, "graph: node 'e' (eq): field 'preamp': must be a number, not 'loud'"),
        (#"{"name": "e", "type": "eq", "preset": 3}"#, "graph: node 'e' (eq): field 'preset': must be a text, not a number"),
        (#"{"name": "e", "type": "eq", "preset": "Rock", "mode": "exact"}"#, "graph: node 'e' (eq): field 'mode': must be classic or accurate, not 'exact'"),
    ])
    func nodeFieldsAreCheckedByKind(node: String, message: String) throws {
        let folder = try TemporaryFolder()
        try FileManager.default.copyItem(atPath: fixture("speech.wav"), toPath: folder.file("in.wav"))
        try write(#"{"nodes": [{"name": "f", "type": "file", "path": "in.wav"}, "# + node + #", {"name": "o", "type": "output", "path": "o.wav"}], "connections": [{"from": "f", "to": "e"}, {"from": "e", "to": "o"}]}"#,
                  to: folder.file("g.json"))
        let result = try aurender([folder.file("g.json")])
        #expect(result.status == 64)
        #expect(result.standardError == "aurender: \(message)\n", "\(result.standardError)")
        #expect(!FileManager.default.fileExists(atPath: folder.file("o.wav")))
    }

    /// Times and levels take units; events name parameters and choices; a ramp is one plan line.
    @Test func unitsAndNamedEventsInAGraphFile() throws {
        let folder = try TemporaryFolder()
        try writeFloats([Float](repeating: 0.25, count: 16000), rate: 8000, to: folder.file("tone.wav"))
        try write("""
            {"nodes": [{"name": "in", "type": "file", "path": "tone.wav"},
                       {"name": "eq", "type": "eq", "preset": "Flat"},
                       {"name": "mix", "type": "mixer", "channels": 1, "volume": "-6.0206dB"},
                       {"name": "out", "type": "output", "path": "out.wav", "bits": "float"}],
             "connections": [{"from": "in", "to": "eq"}, {"from": "eq", "to": "mix"}, {"from": "mix", "to": "out"}],
             "events": [{"at": "500ms", "node": "mix", "parameter": "volume", "value": "0dB", "ramp": "4000f"},
                        {"at": "0:01.5", "node": "eq", "parameter": "preset", "value": "bass-booster"}]}
            """, to: folder.file("g.json"))
        let plan = try aurender([folder.file("g.json"), "--dry-run"])
        #expect(plan.status == 0, "\(plan.standardError)")
        #expect(plan.output.contains("event   frame 4000 (0.5 s): mix volume ramps -6.021 dB -> 0 dB over 4000 frames, in 125 steps of 32\n"))
        #expect(plan.output.contains("event   frame 12000 (1.5 s): eq preset = 'Bass Booster'"))
        #expect(plan.output.components(separatedBy: "event ").count == 3, "one line per event, not per ramp step")
        let result = try aurender([folder.file("g.json")])
        #expect(result.status == 0, "\(result.standardError)")
        let output = try samples(of: folder.file("out.wav")).samples
        #expect(output.count == 16000)
        #expect(abs(output[3999] - 0.125) < 1e-4, "the volume starts at -6 dB")
        #expect(abs(output[8100] - 0.25) < 1e-4, "and reaches 0 dB 4000 frames after frame 4000")
        #expect(abs(output[11_000] - 0.25) < 1e-4, "a flat EQ passes the tone")
    }
}

/// The mixer's glide, as documented.
enum MixerRamp {
    static let frames = 64
}
