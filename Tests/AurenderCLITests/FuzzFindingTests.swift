import Foundation
import TestSupport
import Testing

/// The findings of `make fuzz`, through the built binary: each was a crash (signal, no message)
/// and is now a one-line error with exit status 64 that writes nothing.
@Suite struct FuzzFindingCommandTests {
    @Test(arguments: [["--start", "1e300s"], ["--duration", "99999999999"], ["--fade-in", "1e30"], ["--trim", "0,1e300"]])
    func anEnormousTimeIsAUsageError(arguments: [String]) throws {
        let folder = try TemporaryFolder()
        let result = try aurender([fixture("speech.wav"), folder.file("out.wav")] + arguments)
        #expect(result.status == 64, "\(arguments): \(result.standardError)")
        #expect(result.standardError.contains("is invalid for '\(arguments[0])"), "\(arguments): \(result.standardError)")
        #expect(!FileManager.default.fileExists(atPath: folder.file("out.wav")))
    }

    @Test func anEnormousTimeInAGraphFileIsAUsageError() throws {
        let folder = try TemporaryFolder()
        try FileManager.default.copyItem(atPath: fixture("speech.wav"), toPath: folder.file("in.wav"))
        let graph = """
            {"nodes": [{"name": "in", "type": "file", "path": "in.wav"},
                       {"name": "mix", "type": "mixer", "buses": [{"start": 1e300}]},
                       {"name": "out", "type": "output", "path": "out.wav"}],
             "connections": [{"from": "in", "to": "mix"}, {"from": "mix", "to": "out"}]}
            """
        try Data(graph.utf8).write(to: URL(fileURLWithPath: folder.file("graph.json")))
        let result = try aurender(["render", folder.file("graph.json")])
        #expect(result.status == 64)
        #expect(result.standardError == "aurender: graph: node 'mix' (mixer): field 'buses[0].start': "
                + "must be a time from 0 to 1000000000 s, not 1e+300\n")
        #expect(!FileManager.default.fileExists(atPath: folder.file("out.wav")))
    }

    /// FuzzDecoders' Ogg Vorbis header that libsndfile 1.2.0 refused, leaking libvorbis's
    /// `vorbis_info` as it did (a fault in the C library, suppressed in make fuzz); libvorbisfile
    /// reads Ogg Vorbis now: aurender gives one line naming the file, exit status 65 and no output.
    @Test func aMalformedVorbisHeaderIsRefusedByName() throws {
        let folder = try TemporaryFolder()
        let input = fixture("fuzz-findings/FuzzDecoders-vorbis-header-leak.ogg")
        let result = try aurender([input, folder.file("out.wav")])
        #expect(result.status == 65)
        #expect(result.standardError == "aurender: \(input): it is truncated or damaged: its Vorbis headers cannot be read\n")
        #expect(!FileManager.default.fileExists(atPath: folder.file("out.wav")))
    }

    /// FuzzGraphFiles' hang: a 4001 s ramp at 47 kHz scheduled 5.9 million changes one by one
    /// (10 s under the fuzzer, and memory in proportion); ramps beyond 2^22 steps are refused.
    @Test func aRampOfMillionsOfStepsIsRefused() throws {
        let folder = try TemporaryFolder()
        try FileManager.default.copyItem(atPath: fixture("speech.wav"), toPath: folder.file("in.wav"))
        try FileManager.default.copyItem(atPath: fixture("fuzz-findings/FuzzGraphFiles-ramp-of-millions-of-steps.json"),
                                         toPath: folder.file("graph.json"))
        let result = try aurender(["render", folder.file("graph.json"), "--dry-run"])
        #expect(result.status == 64)
        #expect(result.standardError == "aurender: graph: a ramp on node 'mixer' is too long: "
                + "a ramp takes at most 4194304 steps of 32 frames\n")
        let ramp = try String(contentsOfFile: folder.file("graph.json"), encoding: .utf8).replacingOccurrences(of: "\"4001\"", with: "\"1s\"")
        try Data(ramp.utf8).write(to: URL(fileURLWithPath: folder.file("graph.json")))
        let short = try aurender(["render", folder.file("graph.json"), "--dry-run"])
        #expect(short.status == 0, "\(short.standardError)")
    }
}
