import Foundation
import TestSupport
import Testing

@Suite struct BatchTests {
    /// A folder with good files (one in a subfolder) and a bad one.
    func makeInputs() throws -> TemporaryFolder {
        let folder = try TemporaryFolder()
        try FileManager.default.createDirectory(atPath: folder.file("in/sub"), withIntermediateDirectories: true)
        for (name, target) in [("music.wav", "in/music.wav"), ("speech.flac", "in/speech.flac"), ("music.ogg", "in/sub/music.ogg")] {
            try FileManager.default.copyItem(atPath: fixture(name), toPath: folder.file(target))
        }
        try Data("not audio".utf8).write(to: URL(fileURLWithPath: folder.file("in/bad.wav")))
        return folder
    }

    func outputs(_ folder: String) -> [String] {
        (FileManager.default.enumerator(atPath: folder)?.allObjects as? [String] ?? []).sorted()
    }

    @Test func aBatchRendersTheGoodFilesAndReportsTheBadOnes() throws {
        let folder = try makeInputs()
        let result = try aurender(["--eq", "Pop", "--preamp", "auto", "-o", folder.file("out"), "-r", folder.file("in")])
        #expect(result.status == 65)
        #expect(result.standardError.contains("aurender: \(folder.file("in/bad.wav")): "))
        #expect(result.standardError.hasSuffix("aurender: 3 rendered, 0 skipped, 1 failed\n"))
        #expect(outputs(folder.file("out")) == ["music.wav", "speech.flac", "sub", "sub/music.ogg"])

        let again = try aurender(["-o", folder.file("out"), "-r", folder.file("in"), "--skip-existing"])
        #expect(again.standardError.hasSuffix("3 skipped, 1 failed\n"))
        let newer = try aurender(["-o", folder.file("out"), folder.file("in/music.wav"), "--newer"])
        #expect(newer.status == 0)
        #expect(newer.standardError == "", "off a terminal, a batch without failures prints nothing")
        let verbose = try aurender(["-o", folder.file("out"), folder.file("in/music.wav"), "--newer", "--verbose"])
        let verboseLines = verbose.standardError.split(separator: "\n")
        #expect(verboseLines.first == "aurender: \(folder.file("in/music.wav")): skipped: \(folder.file("out/music.wav")) is newer than it",
                "\(verbose.standardError)")
        #expect(verboseLines.dropFirst().first?.hasPrefix("aurender: 0 rendered, 1 skipped, 0 failed; 0:00 of audio in ") == true,
                "\(verbose.standardError)")
    }

    @Test func quietKeepsTheErrorsAndTheFailureSummary() throws {
        let folder = try makeInputs()
        let result = try aurender(["-q", "-o", folder.file("out"), folder.file("in/music.wav"), folder.file("in/bad.wav")])
        #expect(result.status == 65)
        let lines = result.standardError.split(separator: "\n")
        #expect(lines.count == 2 && lines[0].hasPrefix("aurender: \(folder.file("in/bad.wav")): "), "\(result.standardError)")
        #expect(lines.last == "aurender: 1 rendered, 0 skipped, 1 failed")
    }

    @Test func verbosePlansAndTimesEachFile() throws {
        let folder = try makeInputs()
        let result = try aurender(["-v", "-j", "2", "-o", folder.file("out"), folder.file("in/music.wav"), folder.file("in/speech.flac")])
        #expect(result.status == 0)
        let lines = result.standardError.split(separator: "\n")
        let timings = lines.filter { $0.hasSuffix("× realtime)") && $0.contains(" -> ") }
        #expect(timings.count == 2, "\(result.standardError)")
        #expect(timings.first?.hasPrefix("aurender: \(folder.file("in/music.wav")) -> \(folder.file("out/music.wav")): ") == true,
                "files are described in the order given, whatever finished first")
        #expect(lines.contains("aurender: input   \(folder.file("in/speech.flac")): FLAC (Free Lossless Audio Codec), Signed 16 bit PCM, 22050 Hz, 1 ch, float32, decoded by libsndfile"))
        #expect(lines.contains("output  \(folder.file("out/music.wav")): WAV (Microsoft), Signed 16 bit PCM"))
        #expect(lines.last?.hasPrefix("aurender: 2 rendered, 0 skipped, 0 failed; 0:09 of audio in ") == true, "3 s + 5.3 s of audio")
    }

    @Test func aBatchReportListsEveryFile() throws {
        let folder = try makeInputs()
        let result = try aurender(["--eq", "Pop", "--preamp", "auto", "-o", folder.file("out"), "-r", folder.file("in"),
                                   "--report", folder.file("report.json"), "--json"])
        #expect(result.status == 65)
        let printed = try #require(try JSONSerialization.jsonObject(with: result.standardOutput) as? [String: Any])
        let written = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: folder.file("report.json")))) as? [String: Any])
        #expect(Set(printed.keys) == ["aurender", "batch", "rendered", "skipped", "failed"])
        #expect(NSDictionary(dictionary: printed).isEqual(to: written) || printed.count == written.count)
        let rendered = try #require(printed["rendered"] as? [[String: Any]])
        #expect(rendered.map { $0["output"] as? String } == ["music.wav", "speech.flac", "sub/music.ogg"].map { folder.file("out/" + $0) })
        for report in rendered {
            #expect(Set(report.keys) == ReportTests.keys)
            #expect((report["options"] as? [String: Any])?["eqPreset"] as? String == "Pop")
        }
        let failed = try #require(printed["failed"] as? [[String: Any]])
        #expect(failed.count == 1)
        #expect(failed.first?["input"] as? String == folder.file("in/bad.wav"))
        #expect(failed.first?["exitStatus"] as? Int == 65)
        #expect((failed.first?["error"] as? String)?.hasPrefix(folder.file("in/bad.wav") + ": ") == true)
        #expect((printed["skipped"] as? [Any])?.isEmpty == true)
    }

    @Test func aFileThatFillsTheDiskFailsAloneAndLeavesNothing() throws {
        // A file-size limit stands in for a full disk: writes past it fail as they would on one.
        let folder = try TemporaryFolder()
        try FileManager.default.createDirectory(atPath: folder.file("out"), withIntermediateDirectories: false)
        let command = "trap '' XFSZ; ulimit -f 600; exec '\(aurenderPath)' -j 1 -o '\(folder.file("out"))' "
            + "'\(fixture("speech.flac"))' '\(fixture("music.wav"))' '\(fixture("speech.wav"))'"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command]
        let stderr = Pipe()
        process.standardError = stderr
        try process.run()
        let messages = String(decoding: stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 74, "\(messages)")
        let lines = messages.split(separator: "\n")
        #expect(lines.count == 2 && lines[0].hasPrefix("aurender: \(folder.file("out/music.wav")): ") && lines[0].hasSuffix(": File too large"),
                "\(messages)")
        #expect(lines.last == "aurender: 2 rendered, 0 skipped, 1 failed")
        #expect(outputs(folder.file("out")) == ["speech.flac", "speech.wav"], "the 529 kB output over the 307 kB limit was not left half-written")
        #expect(bytes(folder.file("out/speech.wav")) == bytes(fixture("speech.wav")), "the files after it are whole")
    }

    @Test func oneJobAndTwoJobsMakeTheSameBytes() throws {
        let folder = try makeInputs()
        try FileManager.default.removeItem(atPath: folder.file("in/bad.wav"))
        for jobs in ["1", "2"] {
            let result = try aurender(["--eq", "Rock", "--rate", "48000", "-j", jobs, "-o", folder.file("out\(jobs)"), "-r", folder.file("in")])
            #expect(result.status == 0, "\(result.standardError)")
        }
        for name in ["music.wav", "speech.flac", "sub/music.ogg"] {
            #expect(bytes(folder.file("out1/" + name)) != nil)
            #expect(bytes(folder.file("out1/" + name)) == bytes(folder.file("out2/" + name)), "\(name)")
        }
    }

    @Test func inputsOfTheSameNameFromTwoFoldersAreRefused() throws {
        let folder = try TemporaryFolder()
        for name in ["a", "b"] {
            try FileManager.default.createDirectory(atPath: folder.file(name), withIntermediateDirectories: false)
            try FileManager.default.copyItem(atPath: fixture("music.wav"), toPath: folder.file(name + "/x.wav"))
        }
        let result = try aurender(["-o", folder.file("out") + "/", folder.file("a/x.wav"), folder.file("b/x.wav")])
        #expect(result.status == 64)
        #expect(result.standardError == "aurender: \(folder.file("a/x.wav")) and \(folder.file("b/x.wav")) would both be rendered to "
                + "\(folder.file("out/x.wav")); rename them or render them separately\n")
        #expect(!FileManager.default.fileExists(atPath: folder.file("out")), "refused before any work")
    }

    @Test func inputsThatOneTypeGivesTheSameNameAreRefused() throws {
        let folder = try TemporaryFolder()
        try FileManager.default.createDirectory(atPath: folder.file("in"), withIntermediateDirectories: false)
        try FileManager.default.copyItem(atPath: fixture("music.wav"), toPath: folder.file("in/x.wav"))
        try FileManager.default.copyItem(atPath: fixture("speech.flac"), toPath: folder.file("in/x.flac"))
        for inputs in [[folder.file("in/x.wav"), folder.file("in/x.flac")], [folder.file("in")]] {
            let result = try aurender(["-o", folder.file("out"), "--type", "wav"] + inputs)
            #expect(result.status == 64)
            let (first, second) = inputs.count == 2 ? (inputs[0], inputs[1]) : (folder.file("in/x.flac"), folder.file("in/x.wav"))
            #expect(result.standardError == "aurender: \(first) and \(second) would both be rendered to \(folder.file("out/x.wav")); "
                    + "rename them or render them separately\n")
            #expect(!FileManager.default.fileExists(atPath: folder.file("out")), "refused before any work")
        }
        let apart = try aurender(["-o", folder.file("out"), folder.file("in")])
        #expect(apart.status == 0, "\(apart.standardError)")
        #expect(outputs(folder.file("out")) == ["x.flac", "x.wav"], "without --type the names differ")
    }

    @Test func suffixAndTypeNameTheOutputs() throws {
        let folder = try makeInputs()
        let result = try aurender(["-o", folder.file("out"), folder.file("in/music.wav"), folder.file("in/speech.flac"),
                                   "--suffix", "-master", "--type", "flac"])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(outputs(folder.file("out")) == ["music-master.flac", "speech-master.flac"])
    }

    @Test func aFolderBatchTakesFormatsOnlyFFmpegReads() throws {
        let folder = try TemporaryFolder()
        try touch(folder.file("in/x"))
        for name in ["aac.m4a", "wavpack.wv"] {
            try FileManager.default.copyItem(atPath: fixture("ffmpeg/" + name), toPath: folder.file("in/" + name))
        }
        let result = try aurender(["-o", folder.file("out"), folder.file("in"), "--type", "flac", "--quiet"])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(try samples(of: folder.file("out/aac.flac")).samples.count == 44_100)
        #expect(try aurender([fixture("ffmpeg/wavpack.wv"), folder.file("single.wav")]).status == 0)
        let single = try samples(of: folder.file("single.wav")).samples
        let batched = try samples(of: folder.file("out/wavpack.flac")).samples
        #expect(single.count > 0 && batched == single, "as a single render decodes it")
    }
}
