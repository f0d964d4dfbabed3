import Aurender
@testable import AurenderCLI
import Foundation
import TestSupport
import Testing

/// `aurender report merge`: the reports of a real `--shard` run's shares made into the report
/// the batch rendered on one machine gives, and reports of different batches refused.
@Suite struct ReportMergeTests {
    /// A folder holding `in/`: seven short WAVs (two in a subfolder), a file that is not audio
    /// but is named as one, and a text file the folder scan passes over.
    func makeBatch() throws -> TemporaryFolder {
        let folder = try TemporaryFolder()
        try FileManager.default.createDirectory(atPath: folder.file("in/sub"), withIntermediateDirectories: true)
        for (index, name) in ["kick.wav", "snare.wav", "Hat.wav", "10 bass.wav", "pad.wav", "sub/lead.wav", "sub/fx.wav"].enumerated() {
            try writeFloats((0..<4410).map { sin(Float($0) * Float(index + 1) / 50) / 2 }, rate: 44100, to: folder.file("in/" + name))
        }
        try Data("not audio".utf8).write(to: URL(fileURLWithPath: folder.file("in/bad.wav")))
        try Data("notes".utf8).write(to: URL(fileURLWithPath: folder.file("in/notes.txt")))
        return folder
    }

    /// The command every share of the batch runs, as a job array gives it, with `extra` arguments.
    static let batch = ["-r", "--eq", "Rock", "-o", "out", "in"]

    /// Renders share `number` of `count` in `folder` with its report in `shareN.json`; its exit status.
    func renderShare(_ number: Int, of count: Int, in folder: TemporaryFolder, _ arguments: [String] = batch) throws -> Int32 {
        try aurender(["-q"] + arguments + ["--shard", "\(number)/\(count)", "--report", "share\(number).json"], in: folder.path).status
    }

    func report(_ path: String) throws -> BatchReport {
        try JSONDecoder().decode(BatchReport.self, from: Data(contentsOf: URL(fileURLWithPath: path)))
    }

    /// `report` with its timings, the one thing two renders of the same batch may differ in, zeroed.
    func withoutTimings(_ report: BatchReport) -> BatchReport {
        var report = report
        for index in report.rendered.indices {
            report.rendered[index].renderSeconds = 0
            report.rendered[index].realtimeFactor = nil
        }
        return report
    }

    @Test func threeSharesMergeIntoTheWholeBatchsReport() throws {
        let folder = try makeBatch()
        // Byte order: "10 bass" Hat bad kick pad snare sub/fx sub/lead; share 1 of 3 takes the
        // 1st, 4th and 7th, share 2 the 2nd, 5th and 8th, share 3 bad.wav (which fails) and snare.wav.
        #expect(try (1...3).map { try renderShare($0, of: 3, in: folder) } == [0, 0, 65])
        for number in 1...3 {
            #expect(try report(folder.file("share\(number).json")).shard == "\(number)/3")
        }
        let merged = try aurender(["report", "merge", "share3.json", "share1.json", "share2.json", "-o", "merged.json"], in: folder.path)
        #expect(merged.status == 0, "\(merged.standardError)")
        #expect(merged.standardError == "" && merged.output == "")

        try FileManager.default.removeItem(atPath: folder.file("out"))
        let whole = try aurender(["-q"] + Self.batch + ["--report", "whole.json"], in: folder.path)
        #expect(whole.status == 65)
        let expected = try report(folder.file("whole.json")), found = try report(folder.file("merged.json"))
        #expect(withoutTimings(found) == withoutTimings(expected))
        #expect(found.shard == nil && found.batch?.arguments == Self.batch)
        #expect(found.rendered.map(\.output) == ["10 bass", "Hat", "kick", "pad", "snare", "sub/fx", "sub/lead"].map { "out/\($0).wav" },
                "in the whole batch's input order (the folder scan's)")
        #expect(found.failed.map(\.input) == ["in/bad.wav"] && found.failed.first?.exitStatus == 65)
        #expect(found.skipped == [BatchReport.NotRendered(input: "in/notes.txt", output: nil, reason: "its name is not that of an audio file")],
                "every share lists the file it passed over; the merged report once")

        let printed = try aurender(["report", "merge", "share1.json", "share2.json", "share3.json"], in: folder.path)
        #expect(printed.status == 0)
        #expect(printed.standardOutput == (try Data(contentsOf: URL(fileURLWithPath: folder.file("merged.json")))),
                "without -o the report is printed, the same whatever the order of the shares")
    }

    @Test func anEmptyShareMergesWithTheOthers() throws {
        let folder = try TemporaryFolder()
        try FileManager.default.createDirectory(atPath: folder.file("in"), withIntermediateDirectories: true)
        try writeFloats([0.25, 0.5], rate: 8000, to: folder.file("in/one.wav"))
        for number in 1...2 {
            #expect(try renderShare(number, of: 2, in: folder) == 0)
        }
        let merged = try aurender(["report", "merge", "share2.json", "share1.json"], in: folder.path)
        #expect(merged.status == 0, "\(merged.standardError)")
        let found = try JSONDecoder().decode(BatchReport.self, from: merged.standardOutput)
        #expect(found.rendered.map(\.output) == ["out/one.wav"] && found.skipped.isEmpty && found.failed.isEmpty)
    }

    @Test func reportsOfDifferentBatchesAreRefusedAndNothingIsWritten() throws {
        let folder = try makeBatch()
        for number in 1...3 { _ = try renderShare(number, of: 3, in: folder) }
        try FileManager.default.moveItem(atPath: folder.file("share2.json"), toPath: folder.file("rock2.json"))
        _ = try renderShare(2, of: 3, in: folder, ["-r", "--eq", "Pop", "-o", "out", "in"])
        try FileManager.default.moveItem(atPath: folder.file("share2.json"), toPath: folder.file("pop2.json"))
        _ = try renderShare(2, of: 4, in: folder)
        try FileManager.default.moveItem(atPath: folder.file("share2.json"), toPath: folder.file("quarter2.json"))
        try FileManager.default.removeItem(atPath: folder.file("in/sub/fx.wav"))
        _ = try renderShare(2, of: 3, in: folder)
        try FileManager.default.moveItem(atPath: folder.file("share2.json"), toPath: folder.file("fewer2.json"))
        _ = try aurender(Self.batch + ["--report", "whole.json"], in: folder.path)
        try Data("{\"aurender\": \"0.1.0\"}".utf8).write(to: URL(fileURLWithPath: folder.file("other.json")))

        let refusals: [([String], Int32, String)] = [
            (["share1.json", "pop2.json", "share3.json"], 65, "pop2.json: not a share of the same batch as share1.json: its options differ"),
            (["share1.json", "fewer2.json", "share3.json"], 65, "fewer2.json: not a share of the same batch as share1.json: its inputs differ"),
            (["share1.json", "quarter2.json", "share3.json"], 65, "quarter2.json: not a share of the same batch as share1.json: a share of 4, not of 3"),
            (["share1.json", "share3.json"], 65, "share1.json, share3.json: no report of share 2/3 among them"),
            (["share1.json", "rock2.json", "share3.json", "share1.json"], 65, "share1.json: share 1/3 again (share1.json is of it too)"),
            (["whole.json"], 65, "whole.json: the report of a whole batch, not of one share of it"),
            (["other.json"], 65, "other.json: not a batch's report: no 'rendered' field"),
            (["share1.json", "missing.json"], 66, "missing.json: No such file or directory"),
            (["share1.json", "in"], 66, "in: is a directory, not a report"),
        ]
        for (reports, status, message) in refusals {
            let result = try aurender(["report", "merge"] + reports + ["-o", "merged.json"], in: folder.path)
            #expect(result.status == status, "\(reports)")
            #expect(result.standardError == "aurender: \(message)\n")
            #expect(!FileManager.default.fileExists(atPath: folder.file("merged.json")), "a refused merge writes nothing")
        }
        let good = try aurender(["report", "merge", "share1.json", "rock2.json", "share3.json", "-o", "merged.json"], in: folder.path)
        #expect(good.status == 0, "the three shares of the one batch still merge: \(good.standardError)")
    }

    @Test func aBatchIsNamedByItsArgumentsLessThoseASharePicksForItself() {
        #expect(BatchArguments.identifying(["render", "-q", "-r", "--eq", "Rock", "-o", "out", "in", "--shard", "2/4", "--report", "r2.json",
                                            "-j", "3", "--json", "-v", "--report=x.json", "--shard=1/4", "--", "--shard", "-q"])
                == ["-r", "--eq", "Rock", "-o", "out", "in", "--", "--shard", "-q"])
        #expect(BatchArguments.identifying(["--verbose", "--quiet", "in", "-o", "render"]) == ["in", "-o", "render"],
                "render is the subcommand's name only in first place")
    }
}
