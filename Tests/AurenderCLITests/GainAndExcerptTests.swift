import Foundation
import TestSupport
import Testing

/// `--gain`, `--start`, `--duration`, `--trim` and the time and level syntax of every option,
/// run through the built binary.
@Suite struct GainAndExcerptTests {
    /// A float WAV whose every sample is distinct (frame i holds (i + 1) / 40000), 2 s at 8 kHz, mono.
    func writeRamp(to path: String) throws -> [Float] {
        let values = (0..<16000).map { Float($0 + 1) / 40000 }
        try writeFloats(values, rate: 8000, to: path)
        return values
    }

    @Test func startAndDurationTakeExactFramesAtTheInputRate() throws {
        let folder = try TemporaryFolder()
        let ramp = try writeRamp(to: folder.file("ramp.wav"))
        for arguments in [["--start", "0.5s", "--duration", "250ms"], ["--start", "4000f", "--duration", "2000f"],
                          ["--trim", "0:00.5,0.75"], ["--trim", "4000f,6000f"]] {
            let result = try aurender([folder.file("ramp.wav"), folder.file("cut.wav")] + arguments)
            #expect(result.status == 0, "\(arguments): \(result.standardError)")
            let cut = try samples(of: folder.file("cut.wav")).samples
            #expect(cut == Array(ramp[4000..<6000]), "\(arguments): frames 4000 to 5999, exactly")
        }
        let tail = try aurender([folder.file("ramp.wav"), folder.file("tail.wav"), "--start", "0:01.5"])
        #expect(tail.status == 0)
        #expect(try samples(of: folder.file("tail.wav")).samples == Array(ramp[12000...]), "a start alone reads to the end")
    }

    @Test func anExcerptPastTheEndIsRefusedAndWritesNothing() throws {
        let folder = try TemporaryFolder()
        _ = try writeRamp(to: folder.file("ramp.wav"))
        let late = try aurender([folder.file("ramp.wav"), folder.file("out.wav"), "--start", "1:30"])
        #expect(late.status == 64)
        #expect(late.standardError == "aurender: \(folder.file("ramp.wav")): the excerpt starts at 90.0 s (720000 frames), "
                + "at or past the input's end at 2.0 s (16000 frames)\n")
        let long = try aurender([folder.file("ramp.wav"), folder.file("out.wav"), "--start", "1s", "--duration", "1.5s"])
        #expect(long.status == 64)
        #expect(long.standardError == "aurender: \(folder.file("ramp.wav")): the excerpt ends at 2.5 s (20000 frames), past the input's "
                + "end at 2.0 s (16000 frames); it has 1.0 s (8000 frames) after the start\n")
        let backwards = try aurender([folder.file("ramp.wav"), folder.file("out.wav"), "--trim", "1.5,1"])
        #expect(backwards.status == 64)
        #expect(backwards.standardError.contains("the excerpt ends at 1.0 s (8000 frames), which is not after its start at 1.5 s (12000 frames)"))
        let both = try aurender([folder.file("ramp.wav"), folder.file("out.wav"), "--trim", "0,1", "--start", "1"])
        #expect(both.status == 64)
        #expect(both.standardError.contains("give --trim, or --start and --duration, not both"))
        #expect(!FileManager.default.fileExists(atPath: folder.file("out.wav")))
    }

    @Test func aStreamOfUnknownLengthEndingBeforeTheExcerptFails() throws {
        let folder = try TemporaryFolder()
        let ramp = try writeRamp(to: folder.file("ramp.wav"))
        let stream = try aurender([folder.file("ramp.wav"), "-", "--type", "au"])
        #expect(stream.status == 0)
        let short = try aurender(["-", folder.file("out.wav"), "--start", "1s", "--duration", "2s"], input: stream.standardOutput)
        #expect(short.status == 65)
        #expect(short.standardError == "aurender: -: the input ended at 2.0 s (16000 frames), before the excerpt's end at 3.0 s (24000 frames)\n")
        #expect(!FileManager.default.fileExists(atPath: folder.file("out.wav")))
        let fits = try aurender(["-", folder.file("out.wav"), "--start", "1s", "--duration", "0.5s"], input: stream.standardOutput)
        #expect(fits.status == 0, "\(fits.standardError)")
        #expect(try samples(of: folder.file("out.wav")).samples == Array(ramp[8000..<12000]))
    }

    @Test func gainScalesTheOutputByItsDecibels() throws {
        let folder = try TemporaryFolder()
        let ramp = try writeRamp(to: folder.file("ramp.wav"))
        for gain in ["-6", "-6dB", "-6.0db"] {
            let result = try aurender([folder.file("ramp.wav"), folder.file("quiet.wav"), "--gain", gain])
            #expect(result.status == 0, "\(result.standardError)")
            let quiet = try samples(of: folder.file("quiet.wav")).samples
            #expect(quiet.count == ramp.count)
            let factor = Float(pow(10, -6.0 / 20))
            #expect(zip(quiet, ramp).allSatisfy { abs($0 - $1 * factor) <= 1e-7 }, "\(gain)")
        }
        let plan = try aurender([folder.file("ramp.wav"), folder.file("x.wav"), "--gain", "-6", "--eq", "Rock", "--dry-run"])
        let lines = plan.output.split(separator: "\n").map(String.init)
        let eq = try #require(lines.firstIndex { $0.contains("--> eq (preset 'Rock'") })
        let gainLine = try #require(lines.firstIndex { $0.hasSuffix("--> gain (-6 dB)") })
        #expect(eq < gainLine, "the gain comes after the EQ: \(plan.output)")
        let loud = try aurender([folder.file("ramp.wav"), folder.file("loud.wav"), "--gain", "30", "--bits", "16"])
        #expect(loud.status == 0)
        #expect(loud.standardError.hasSuffix("samples clipped; try --gain -23\n"), "\(loud.standardError)")
        let wrongUnit = try aurender([folder.file("ramp.wav"), folder.file("x.wav"), "--gain", "-6LUFS"])
        #expect(wrongUnit.status == 64)
        #expect(wrongUnit.standardError.contains("The value '-6LUFS' is invalid for '--gain <dB>'"))
    }

    @Test func levelsTakeTheirUnitsInMixesAndDiffs() throws {
        let folder = try TemporaryFolder()
        _ = try writeRamp(to: folder.file("ramp.wav"))
        let plain = try aurender(["mix", folder.file("ramp.wav") + "@gain=-3,start=0:00.5", "--volume", "-6", "-o", folder.file("a.wav")])
        let suffixed = try aurender(["mix", folder.file("ramp.wav") + "@gain=-3dB,start=500ms", "--volume", "-6dB", "-o", folder.file("b.wav")])
        #expect(plain.status == 0 && suffixed.status == 0, "\(plain.standardError) \(suffixed.standardError)")
        #expect(bytes(folder.file("a.wav")) == bytes(folder.file("b.wav")))
        let gained = try aurender([folder.file("ramp.wav"), folder.file("g.wav"), "--gain", "-0.00001"])
        #expect(gained.status == 0)
        let within = try aurender(["diff", folder.file("ramp.wav"), folder.file("g.wav"), "--tolerance", "-90dB"])
        #expect(within.status == 0, "\(within.output)")
        #expect(within.output.contains("result: within -90.0 dBFS"))
        let strict = try aurender(["diff", folder.file("ramp.wav"), folder.file("g.wav"), "--tolerance", "-160dBFS"])
        #expect(strict.status == 1)
    }

    @Test func aGraphFileRefusesGainAndExcerpts() throws {
        let folder = try TemporaryFolder()
        let graph = folder.file("g.json")
        try Data(#"{"nodes": [], "connections": []}"#.utf8).write(to: URL(fileURLWithPath: graph))
        let result = try aurender([graph, "--gain", "-3"])
        #expect(result.status == 64)
        #expect(result.standardError == "aurender: \(graph): --gain does not apply to a graph file, whose nodes and events state it; set it in the graph\n")
    }
}
