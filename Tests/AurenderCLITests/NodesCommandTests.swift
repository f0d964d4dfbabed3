import Aurender
import Foundation
import TestSupport
import Testing

/// `aurender nodes`: the catalogue's kinds and each kind's fields, printed from their descriptions,
/// so a kind registered in `NodeCatalogue.kinds` is listed with no other edit.
@Suite struct NodesCommandTests {
    @Test func everyRegisteredKindIsListedWithItsSummary() throws {
        let result = try aurender(["nodes"])
        #expect(result.status == 0, "\(result.standardError)")
        let lines = result.output.split(separator: "\n").map(String.init)
        #expect(lines.count == NodeCatalogue.kinds.count + 1, "\(result.output)")
        for (line, kind) in zip(lines, NodeCatalogue.kinds) {
            #expect(line.hasPrefix(kind.name + " ") && line.hasSuffix(kind.summary), "\(line) lists \(kind.name)")
        }
        #expect(lines.last == "See 'aurender nodes KIND' for a kind's fields.")
    }

    @Test func aKindsFieldsShowTheRangesItChecks() throws {
        let delay = try aurender(["nodes", "delay"])
        #expect(delay.status == 0, "\(delay.standardError)")
        let lines = delay.output.split(separator: "\n").map(String.init)
        #expect(lines.first == "delay: \(try #require(NodeCatalogue.kind(named: "delay")).summary)")
        #expect(lines.contains("  time      0 to 2 s (default 0.5 s)"), "\(delay.output)")
        #expect(lines.contains("  feedback  -100 to 100 (default 50)"), "\(delay.output)")

        let mixer = try aurender(["nodes", "mixer"]).output.split(separator: "\n").map(String.init)
        #expect(mixer.contains { $0.hasPrefix("  buses     a list of objects: ") && $0.hasSuffix("; each with:") }, "\(mixer)")
        #expect(mixer.contains("    gain     -96 to 24 dB: the bus's gain (default 0 dB)"), "a list's fields are indented: \(mixer)")
        #expect(mixer.contains("  enable[N]  true or false (default true)"), "\(mixer)")

        let filter = try aurender(["nodes", "filter"]).output
        #expect(filter.contains("    q          0.01 to 100: its width as Q"), "decimals as declared: \(filter)")
        #expect(filter.contains("    frequency  1 to 384000 Hz (required): its centre or corner frequency"), "\(filter)")
    }

    @Test func theListedRangeIsTheOneAGraphFileIsHeldTo() throws {
        let folder = try TemporaryFolder()
        let graph = folder.file("gain.json")
        try #"{"nodes": [{"name": "in", "type": "file", "path": "in.wav"}, {"name": "loud", "type": "gain", "gain": 120},"#
            .appending(#" {"name": "out", "type": "output", "path": "out.wav"}], "connections": [{"from": "in", "to": "loud"}, {"from": "loud", "to": "out"}]}"#)
            .write(toFile: graph, atomically: true, encoding: .utf8)
        try FileManager.default.copyItem(atPath: fixture("music.wav"), toPath: folder.file("in.wav"))
        let refused = try aurender([graph])
        #expect(refused.status == 64)
        #expect(refused.standardError.contains("must be from -96 to 96 dB, not 120"), "\(refused.standardError)")
        #expect(try aurender(["nodes", "gain"]).output.contains("  gain  -96 to 96 dB (required): the gain in dB"))
    }

    @Test func anUnknownKindIsAUsageErrorNamingTheKinds() throws {
        let result = try aurender(["nodes", "echo"])
        #expect(result.status == 64)
        #expect(result.standardOutput.isEmpty)
        #expect(result.standardError == "aurender: no node kind 'echo' (there are \(NodeCatalogue.kindNames.joined(separator: ", ")))\n")
    }
}
