import Foundation
import TestSupport
import Testing

/// `aurender batch JOBS.jsonl` run through the binary: one result line per job, in order, and
/// outputs equal to the same renders made from the command line.
@Suite struct ManifestBatchTests {
    /// A folder with two 1-second inputs (long enough for an integrated loudness) (a tone and a quieter one) and a graph file with an EQ.
    func makeFolder() throws -> TemporaryFolder {
        let folder = try TemporaryFolder()
        try FileManager.default.createDirectory(atPath: folder.file("in"), withIntermediateDirectories: true)
        for (name, level) in [("tone", 0.5), ("quiet", 0.1)] {
            let samples = (0..<44100).map { Float(level * sin(2 * Double.pi * 440 * Double($0) / 44100)) }
            try writeFloats(samples, rate: 44100, to: folder.file("in/\(name).wav"))
        }
        try graph(input: "placeholder.wav", output: "placeholder.wav").write(toFile: folder.file("eq.json"), atomically: true, encoding: .utf8)
        return folder
    }

    func graph(input: String, output: String) -> String {
        """
        {"nodes": [{"name": "in", "type": "file", "path": "\(input)"}, {"name": "eq", "type": "eq", "preset": "Rock"},
                   {"name": "out", "type": "output", "path": "\(output)", "bits": "24"}],
         "connections": [{"from": "in", "to": "eq"}, {"from": "eq", "to": "out"}]}
        """
    }

    func rows(_ text: String) throws -> [[String: Any]] {
        try text.split(separator: "\n").map { try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
    }

    func write(_ lines: [String], to path: String) throws {
        try (lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
    }

    @Test func goodJobsABadInputAndAMalformedLineGiveOneResultLineEachInOrder() throws {
        let folder = try makeFolder()
        try write([
            #"{"input": "in/tone.wav", "output": "out/options.wav", "options": {"eq": "Rock", "rate": 48000, "gain": -3, "no-tags": true, "fsync": false}}"#,
            #"{"input": "in/quiet.wav", "output": "out/chain.flac", "chain": "highpass frequency=200 | gain gain=6"}"#,
            #"{"input": "in/tone.wav", "output": "out/graph.wav", "graph": "eq.json"}"#,
            #"{"input": "in/missing.wav", "output": "out/missing.wav"}"#,
            #"{"input": "in/tone.wav", "output": "#,
            #"{"input": "in/tone.wav", "output": "out/unknown.wav", "options": {"frobnicate": 3}}"#,
        ], to: folder.file("jobs.jsonl"))
        let result = try aurender(["batch", "jobs.jsonl", "-j", "2"], in: folder.path)
        let missing = try aurender(["in/missing.wav", "cli/missing.wav"], in: folder.path)
        #expect(missing.status == 66)
        #expect(result.status == 66, "the first failure's status: \(result.standardError)")
        let found = try rows(result.output)
        #expect(found.map { $0["line"] as? Int } == [1, 2, 3, 4, 5, 6])
        #expect(found.map { $0["status"] as? String } == ["rendered", "rendered", "rendered", "failed", "failed", "failed"])
        #expect(found.map { $0["exitStatus"] as? Int } == [0, 0, 0, 66, 64, 64])
        #expect(found[3]["error"] as? String == String(missing.standardError.dropFirst("aurender: ".count).dropLast()),
                "the render command's own message")
        #expect(found[4]["error"] as? String == "line 5: not valid JSON")
        #expect(found[5]["error"] as? String == "Unknown option '--frobnicate'")
        #expect(found[0]["frames"] as? Int == 48000 && found[0]["durationSeconds"] as? Double == 1, "1 s at 48 kHz: \(found[0])")
        #expect(found[1]["frames"] as? Int == 44100)
        #expect(found.allSatisfy { ($0["seconds"] as? Double).map { $0 >= 0 } ?? false })
        #expect(found[0]["integratedLUFS"] == nil, "loudness only when asked")
        #expect(result.standardError.contains("aurender: jobs.jsonl: line 5: not valid JSON\n"))
        #expect(result.standardError.contains("aurender: jobs.jsonl: line 4: "))

        try FileManager.default.createDirectory(atPath: folder.file("cli"), withIntermediateDirectories: true)
        for arguments in [["--eq", "Rock", "--rate", "48000", "--gain=-3", "--no-tags", "in/tone.wav", "cli/options.wav"],
                          ["--chain", "highpass frequency=200 | gain gain=6", "in/quiet.wav", "cli/chain.flac"]] {
            #expect(try aurender(arguments, in: folder.path).status == 0)
        }
        try graph(input: "in/tone.wav", output: "cli/graph.wav").write(toFile: folder.file("cli.json"), atomically: true, encoding: .utf8)
        #expect(try aurender(["cli.json"], in: folder.path).status == 0)
        for name in ["options.wav", "chain.flac", "graph.wav"] {
            let made = try #require(bytes(folder.file("out/" + name)), "\(name) written")
            #expect(made == bytes(folder.file("cli/" + name)), "\(name): the same bytes as the command line's render")
        }
        #expect(!FileManager.default.fileExists(atPath: folder.file("out/missing.wav")))
        #expect(!FileManager.default.fileExists(atPath: folder.file("out/unknown.wav")))
    }

    @Test func sharesAndSkippingWorkAsInFolderBatches() throws {
        let folder = try makeFolder()
        try write((1...5).map { #"{"input": "in/tone.wav", "output": "out/\#($0).wav", "options": {"gain": -\#($0)}}"# },
                  to: folder.file("jobs.jsonl"))
        let first = try aurender(["batch", "jobs.jsonl", "--shard", "2/2"], in: folder.path)
        #expect(first.status == 0, "\(first.standardError)")
        #expect(try rows(first.output).map { $0["line"] as? Int } == [2, 4])
        #expect(folder.contents() == ["eq.json", "in", "jobs.jsonl", "out"])
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: folder.file("out"))) ?? []).sorted() == ["2.wav", "4.wav"])

        try Data("kept".utf8).write(to: URL(fileURLWithPath: folder.file("out/2.wav")))
        let second = try aurender(["batch", "jobs.jsonl", "--skip-existing", "--results", "results.jsonl", "--loudness"], in: folder.path)
        #expect(second.status == 0, "\(second.standardError)")
        #expect(second.output == "", "the results went to the file")
        let found = try rows(try String(contentsOfFile: folder.file("results.jsonl"), encoding: .utf8))
        #expect(found.map { $0["status"] as? String } == ["rendered", "skipped", "rendered", "skipped", "rendered"])
        #expect(found[1]["skipReason"] as? String == "out/2.wav exists")
        #expect(bytes(folder.file("out/2.wav")) == Data("kept".utf8), "a skipped output is left alone")
        let loudness = try #require(found[0]["integratedLUFS"] as? Double), peak = try #require(found[0]["truePeakDBTP"] as? Double)
        // A 440 Hz sine at 0.5 (-6 dBFS) less 1 dB: about -7 dBTP, and K-weighted loudness near -10 LUFS.
        #expect(abs(peak - -7.02) < 0.1, "true peak \(peak)")
        #expect(loudness < -8 && loudness > -12, "loudness \(loudness)")
        let quieter = try #require(found[4]["integratedLUFS"] as? Double)
        #expect(abs(quieter - (loudness - 4)) <= 0.011, "4 dB quieter, measured alike: \(quieter)")
    }

    @Test func aManifestThatCannotBeReadIsOneErrorAndABadShardIsRefused() throws {
        let folder = try makeFolder()
        let missing = try aurender(["batch", "nowhere.jsonl"], in: folder.path)
        #expect(missing.status == 66)
        #expect(missing.standardError == "aurender: nowhere.jsonl: cannot read the manifest\n")
        let shard = try aurender(["batch", "nowhere.jsonl", "--shard", "3/2"], in: folder.path)
        #expect(shard.status == 64)
        #expect(shard.standardError.hasPrefix("Error: --shard: '3/2' is not a shard"))
    }
}
