import Aurender
import Foundation
import Testing

/// The library's manifest of jobs: each line a job or one failure naming its line, never the end.
@Suite struct JobManifestTests {
    func job(_ entry: JobManifest.Entry) -> ManifestJob? { try? entry.job.get() }
    func failure(_ entry: JobManifest.Entry) -> String? {
        if case .failure(let error) = entry.job { return error.description }
        return nil
    }

    @Test func eachLineIsAJobOrAFailureNamingItsLine() {
        let manifest = JobManifest(text: """
            {"input": "a.wav", "output": "out/a.wav", "options": {"eq": "Rock", "rate": 48000}}

            {"input": "b.wav", "output": "out/b.wav", "chain": "gain gain=-3"}\r
            {"input": "c.wav",
            {"input": "d.wav", "output": "out/d.wav", "graph": "g.json"}
            {"input": "e.wav", "output": "out/e.wav", "eq": "Rock"}
            {"output": "out/f.wav"}
            {"input": "g.wav"}
            ["g.wav"]
            {"input": 3, "output": "out/h.wav"}
            {"input": "i.wav", "output": "out/a.wav"}
            {"input": "j.wav", "output": "out/j.wav", "graph": "g.json", "chain": "gain gain=-3"}
            {"input": "k.wav", "output": "out/k.wav", "options": {"shard": "1/2"}}
            {"input": "l.wav", "output": "out/l.wav", "options": "--eq Rock"}
            """)
        #expect(manifest.entries.map(\.line) == [1] + Array(3...14), "the blank line 2 is passed over")
        let entries = manifest.entries
        #expect(job(entries[0]) == ManifestJob(input: "a.wav", output: "out/a.wav", processing: .options(["eq": "Rock", "rate": 48000], chain: nil)))
        #expect(job(entries[1]) == ManifestJob(input: "b.wav", output: "out/b.wav", processing: .options([:], chain: "gain gain=-3")), "CRLF ends")
        #expect(failure(entries[2]) == "line 4: not valid JSON")
        #expect(job(entries[3]) == ManifestJob(input: "d.wav", output: "out/d.wav", processing: .graph("g.json")))
        #expect(failure(entries[4]) == "line 6: unknown key 'eq' (a job has chain, graph, input, options, output; render options go in \"options\")")
        #expect(failure(entries[5]) == "line 7: missing 'input'")
        #expect(failure(entries[6]) == "line 8: missing 'output'")
        #expect(failure(entries[7]) == "line 9: not a JSON object (a job is {\"input\": ..., \"output\": ...})")
        #expect(failure(entries[8]) == "line 10: 'input' must be a non-empty text, not a number")
        #expect(failure(entries[9]) == "line 11: output out/a.wav is also line 1's output")
        #expect(failure(entries[10]) == "line 12: 'graph' states the whole processing; give no 'options' or 'chain' beside it")
        #expect(failure(entries[11]) == "line 13: option 'shard' belongs to the batch, not to one job")
        #expect(failure(entries[12]) == "line 14: 'options' must be an object of render options, not a text")
    }

    @Test func sharesDealTheLinesOutInManifestOrder() throws {
        let manifest = JobManifest(text: (1...7).map { #"{"input": "\#($0).wav", "output": "out/\#($0).wav"}"# }.joined(separator: "\n"))
        let shares = try (1...3).map { try manifest.entries(in: BatchJob.Shard(number: $0, count: 3)).map(\.line) }
        #expect(shares == [[1, 4, 7], [2, 5], [3, 6]])
        #expect(manifest.entries(in: nil).count == 7)
    }

    @Test func aResultIsOneLineOfJSONWithSortedKeys() {
        let result = ManifestResult(line: 2, input: "a.wav", output: "out/a.wav", status: .failed, exitStatus: 66,
                                    error: "a.wav: cannot open", seconds: 0.5)
        #expect(result.jsonLine == #"{"error":"a.wav: cannot open","exitStatus":66,"input":"a.wav","line":2,"output":"out/a.wav","seconds":0.5,"status":"failed"}"#)
    }
}
