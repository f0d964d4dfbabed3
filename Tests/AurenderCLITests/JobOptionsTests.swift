import Foundation
import TestSupport
import Testing

/// Every option applies to the job it is given to or is refused; hints name only the command's own flags.
@Suite struct JobOptionsTests {
    /// A graph file reading a 0.25 tone through a mixer into `out.wav`, with the mixer's volume.
    func graph(in folder: TemporaryFolder, volume: String = "0") throws -> String {
        try writeFloats([Float](repeating: 0.25, count: 8000), rate: 8000, to: folder.file("tone.wav"))
        let json = """
            {"nodes": [{"name": "in", "type": "file", "path": "tone.wav"},
                       {"name": "mix", "type": "mixer", "channels": 1, "volume": "\(volume)dB"},
                       {"name": "out", "type": "output", "path": "out.wav", "bits": "16"}],
             "connections": [{"from": "in", "to": "mix"}, {"from": "mix", "to": "out"}]}
            """
        try Data(json.utf8).write(to: URL(fileURLWithPath: folder.file("g.json")))
        return folder.file("g.json")
    }

    @Test(arguments: [["--eq", "rock"], ["--rate", "48000"], ["--bits", "float"], ["--type", "wav"], ["--channels", "1"],
                      ["--fade-in", "1s"], ["--channel-map", "0"]])
    func optionsAGraphStatesAreRefusedForGraphFiles(flags: [String]) throws {
        let folder = try TemporaryFolder()
        let result = try aurender([try graph(in: folder)] + flags)
        #expect(result.status == 64)
        #expect(result.standardError == "aurender: \(folder.file("g.json")): \(flags[0]) does not apply to a graph file, whose nodes and events state it; set it in the graph\n")
        #expect(!FileManager.default.fileExists(atPath: folder.file("out.wav")))
    }

    @Test func aGraphFileRendersWithVerboseJSONAndAReport() throws {
        let folder = try TemporaryFolder()
        let path = try graph(in: folder)
        let result = try aurender([path, "-v", "--json", "--report", folder.file("r.json")])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardError.contains("node    mix (1 buses, 8000 Hz, 1 ch, float32)"), "the plan, with --verbose")
        #expect(result.standardError.contains("rendered 1.0 s of audio in "), "the timing, with --verbose")
        let report = try #require(try JSONSerialization.jsonObject(with: result.standardOutput) as? [String: Any])
        #expect(report["output"] as? String == folder.file("out.wav"))
        #expect((report["inputs"] as? [String])?.first == folder.file("tone.wav"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: folder.file("r.json"))) == result.standardOutput)
    }

    @Test func eachCommandSuggestsItsOwnFlagForClipping() throws {
        let folder = try TemporaryFolder()
        let loudGraph = try graph(in: folder, volume: "18")
        let graphRun = try aurender([loudGraph, "--on-clip", "fail"])
        #expect(graphRun.status == 3)
        #expect(graphRun.standardError == "aurender: \(folder.file("out.wav")): 8000 samples would clip; not written (lower a gain in the graph by 6 dB)\n")
        let mix = try aurender(["mix", folder.file("tone.wav") + "@gain=18", "--channels", "1", "-o", folder.file("mix.wav"), "--bits", "16"])
        #expect(mix.status == 0)
        #expect(mix.standardError == "aurender: \(folder.file("mix.wav")): 8000 samples clipped; try --volume -6\n")
        #expect(!mix.standardError.contains("--preamp"))
    }

    @Test func anEQModeWithoutAnEQIsRefused() throws {
        let folder = try TemporaryFolder()
        let result = try aurender([fixture("speech.wav"), folder.file("out.wav"), "--eq-mode", "classic"])
        #expect(result.status == 64)
        #expect(result.standardError.contains("--eq-mode needs --eq"))
        #expect(!FileManager.default.fileExists(atPath: folder.file("out.wav")))
    }

    /// The loudness ceiling and its policy mean nothing without a normalization: refused, for
    /// files and graph files alike, never ignored.
    @Test(arguments: [["--true-peak", "-2"], ["--over-ceiling", "lower"]])
    func ceilingOptionsNeedANormalization(flags: [String]) throws {
        let folder = try TemporaryFolder()
        for target in [[fixture("speech.wav"), folder.file("out.wav")], [try graph(in: folder)]] {
            let result = try aurender(target + flags)
            #expect(result.status == 64)
            #expect(result.standardError.hasPrefix("Error: \(flags[0]) applies with --normalize or --normalize-peak\n"))
            #expect(!FileManager.default.fileExists(atPath: folder.file("out.wav")))
        }
    }
}
