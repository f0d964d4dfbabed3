import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import TestSupport
import Testing

/// `aurender diff APPROVED/ RENDERED/`: folders paired by relative path, judged by the
/// tolerances given, reported as text, JSON, JUnit and a page, and approved on request.
@Suite struct FolderDiffTests {
    static let frames = 48000
    /// Two seconds of a stereo tone and noise, 48 kHz.
    static let music: [Float] = {
        let tone = Signal.sine(frequency: 440, sampleRate: 48000, frames: frames, amplitude: 0.4)
        let noise = Signal.noise(frames: frames, amplitude: 0.2, seed: 5)
        return zip(tone, noise).flatMap { [$0 + $1, $0 - $1] }
    }()
    /// The same, 0.05 dB quieter.
    static let quieter = music.map { $0 * Float(pow(10, -0.05 / 20)) }

    /// approved/ and rendered/ with an identical pair, a pair 0.05 dB apart (in a subfolder), a
    /// missing, an extra and an unreadable render.
    func makeFolders(_ folder: TemporaryFolder, unreadable: Bool = true) throws {
        for side in ["approved/sub", "rendered/sub"] {
            try FileManager.default.createDirectory(atPath: folder.file(side), withIntermediateDirectories: true)
        }
        try writeFloats(Self.music, channels: 2, rate: 48000, to: folder.file("approved/same.wav"))
        try writeFloats(Self.music, channels: 2, rate: 48000, to: folder.file("rendered/same.wav"))
        try writeFloats(Self.music, channels: 2, rate: 48000, to: folder.file("approved/sub/quieter.wav"))
        try writeFloats(Self.quieter, channels: 2, rate: 48000, to: folder.file("rendered/sub/quieter.wav"))
        try writeFloats(Self.music, channels: 2, rate: 48000, to: folder.file("approved/missing.wav"))
        try writeFloats(Self.quieter, channels: 2, rate: 48000, to: folder.file("rendered/extra.wav"))
        try Data("notes".utf8).write(to: URL(fileURLWithPath: folder.file("rendered/notes.txt")))
        if unreadable {
            try writeFloats(Self.music, channels: 2, rate: 48000, to: folder.file("approved/broken.wav"))
            try Data("not audio at all".utf8).write(to: URL(fileURLWithPath: folder.file("rendered/broken.wav")))
        }
    }

    /// The largest difference of the 0.05 dB pair, in dBFS, from the samples.
    static var quieterMaxDBFS: Double { 20 * log10(Double(zip(music, quieter).map { abs($0 - $1) }.max()!)) }

    @Test func pairsAreJudgedAndReportedAsTextInPathOrder() throws {
        let folder = try TemporaryFolder()
        try makeFolders(folder)
        let (approved, rendered) = (folder.file("approved"), folder.file("rendered/"))
        let result = try aurender(["diff", approved, rendered, "--loudness-tolerance", "0.1"])
        #expect(result.status == 1)
        #expect(result.standardError == "")
        let lines = result.output.split(separator: "\n").map(String.init)
        #expect(lines.count == 6, "\(result.output)")
        #expect(lines[0] == "unreadable broken.wav: \(rendered)broken.wav: not audio libsndfile can decode (unrecognised or damaged)", "\(lines[0])")
        #expect(lines[1] == "extra      extra.wav: rendered, but not approved")
        #expect(lines[2] == "missing    missing.wav: approved, but not rendered")
        #expect(lines[3] == "passed     same.wav")
        #expect(lines[4] == "passed     sub/quieter.wav", "0.05 LU is within 0.1")
        #expect(lines[5] == "result: 3 of 5 pairs failed")

        let strict = try aurender(["diff", approved, rendered, "--tolerance", "-90", "-j", "3"])
        let expected = String(format: "failed     sub/quieter.wav: max difference %.2f dBFS > -90.00 dBFS", Self.quieterMaxDBFS)
        #expect(strict.output.contains(expected + "\n"), "\(strict.output)")
        #expect(strict.output.contains("passed     same.wav\n"))
        #expect(strict.status == 1)
        let serial = try aurender(["diff", approved, rendered, "--tolerance", "-90", "-j", "1"])
        #expect(serial.output == strict.output, "the order does not depend on -j")
    }

    @Test func theLoudnessPairPassesAndTheStrictOneFailsOnTheirOwn() throws {
        let folder = try TemporaryFolder()
        try makeFolders(folder, unreadable: false)
        try FileManager.default.removeItem(atPath: folder.file("approved/missing.wav"))
        try FileManager.default.removeItem(atPath: folder.file("rendered/extra.wav"))
        let loose = try aurender(["diff", folder.file("approved"), folder.file("rendered"), "--loudness-tolerance", "0.1"])
        #expect(loose.status == 0)
        #expect(loose.output.hasSuffix("result: all 2 pairs passed\n"))
        let strict = try aurender(["diff", folder.file("approved"), folder.file("rendered"), "--tolerance", "-90"])
        #expect(strict.status == 1)
        let none = try aurender(["diff", folder.file("approved"), folder.file("rendered")])
        #expect(none.status == 1)
        #expect(none.output.contains("failed     sub/quieter.wav: samples differ from frame 0"), "with no tolerance, samples must be identical")
    }

    @Test func jsonGivesEveryPairsFigures() throws {
        let folder = try TemporaryFolder()
        try makeFolders(folder)
        let result = try aurender(["diff", "--json", folder.file("approved"), folder.file("rendered"),
                                   "--loudness-tolerance", "0.1", "--tolerance", "-90", "--spectrum-tolerance", "0.5"])
        #expect(result.status == 1)
        let json = try #require(try JSONSerialization.jsonObject(with: result.standardOutput) as? [String: Any], "\(result.output)")
        #expect(json["passed"] as? Int == 1 && json["failed"] as? Int == 4)
        let tolerances = try #require(json["tolerances"] as? [String: Any])
        #expect(tolerances["maxDifferenceDBFS"] as? Double == -90 && tolerances["loudnessLU"] as? Double == 0.1)
        #expect(tolerances["rmsDifferenceDBFS"] is NSNull && tolerances["lengthFrames"] as? Int == 0)
        let pairs = try #require(json["pairs"] as? [[String: Any]])
        #expect(pairs.map { $0["path"] as? String } == ["broken.wav", "extra.wav", "missing.wav", "same.wav", "sub/quieter.wav"])
        #expect(pairs.map { $0["status"] as? String } == ["unreadable", "extra", "missing", "passed", "failed"])
        #expect((pairs[0]["error"] as? String)?.hasSuffix("rendered/broken.wav: not audio libsndfile can decode (unrecognised or damaged)") == true)
        #expect(pairs[1]["framesA"] is NSNull && pairs[1]["maxDifferenceDBFS"] is NSNull)
        #expect(pairs[3]["maxDifferenceDBFS"] is NSNull, "no difference at all")
        #expect(pairs[3]["loudnessDifferenceLU"] as? Double == 0 && pairs[3]["spectrumDifferenceDB"] as? Double == 0)
        let quieter = pairs[4]
        #expect(quieter["framesA"] as? Int == Self.frames && quieter["framesB"] as? Int == Self.frames)
        #expect(quieter["formatA"] as? String == "48000 Hz, 2 ch, float32 non-interleaved")
        #expect(abs(try #require(quieter["maxDifferenceDBFS"] as? Double) - Self.quieterMaxDBFS) <= 0.005)
        #expect(abs(try #require(quieter["loudnessDifferenceLU"] as? Double) + 0.05) <= 0.01)
        #expect(abs(try #require(quieter["spectrumDifferenceDB"] as? Double) - 0.05) <= 0.01, "every band moves by the gain")
        let failures = try #require(quieter["failures"] as? [[String: Any]])
        #expect(failures.map { $0["figure"] as? String } == ["maxDifference"])
    }

    @Test func junitHasACasePerPairWithTheFiguresThatFailed() throws {
        let folder = try TemporaryFolder()
        try makeFolders(folder)
        let result = try aurender(["diff", folder.file("approved"), folder.file("rendered"), "--tolerance", "-90",
                                   "--junit", folder.file("diff.xml"), "--report", folder.file("diff.html")])
        #expect(result.status == 1)
        let root = try XMLElementNode.parse(folder.file("diff.xml"))
        let suite = try #require(root.children(named: "testsuite").first)
        #expect(suite.attributes["tests"] == "5" && suite.attributes["failures"] == "4")
        let cases = suite.children(named: "testcase")
        #expect(cases.map { $0.attributes["name"] } == ["broken.wav", "extra.wav", "missing.wav", "same.wav", "sub/quieter.wav"])
        #expect(cases[3].children(named: "failure").isEmpty)
        let failure = try #require(cases[4].children(named: "failure").first)
        #expect(failure.attributes["message"] == String(format: "max difference %.2f dBFS > -90.00 dBFS", Self.quieterMaxDBFS))
        #expect(cases[2].children(named: "failure").first?.attributes["message"] == "approved, but not rendered")
        #expect(cases[0].children(named: "failure").first?.attributes["type"] == "unreadable")

        let page = try String(contentsOfFile: folder.file("diff.html"), encoding: .utf8)
        #expect(page.contains("<h2>sub/quieter.wav</h2>"))
        #expect(page.components(separatedBy: "<section>").count - 1 == 1, "one plot: the one failing pair with both files read")
        #expect(page.contains("<svg"))
    }

    @Test func approvingLeavesTheApprovedFolderEqualToTheRenders() throws {
        let folder = try TemporaryFolder()
        try makeFolders(folder, unreadable: false)
        let (approved, rendered) = (folder.file("approved"), folder.file("rendered"))
        let sameBefore = try FileManager.default.attributesOfItem(atPath: folder.file("approved/same.wav"))[.modificationDate] as? Date
        Thread.sleep(forTimeInterval: 0.02)
        let kept = try aurender(["diff", approved, rendered, "--approve"])
        #expect(kept.status == 0, "\(kept.output)\(kept.standardError)")
        #expect(kept.output.contains("approve: replaced sub/quieter.wav\n"))
        #expect(kept.output.contains("approve: added extra.wav\n"))
        #expect(kept.output.contains("approve: kept missing.wav: it has no render (--prune removes it)\n"))
        #expect(FileManager.default.fileExists(atPath: folder.file("approved/missing.wav")))

        let pruned = try aurender(["diff", approved, rendered, "--approve", "--prune"])
        #expect(pruned.status == 0)
        #expect(pruned.output.contains("approve: removed missing.wav\n") && !pruned.output.contains("replaced"))
        for name in ["same.wav", "extra.wav", "sub/quieter.wav"] {
            #expect(bytes(folder.file("approved/" + name)) == bytes(folder.file("rendered/" + name)), "\(name)")
        }
        #expect(try FileManager.default.subpathsOfDirectory(atPath: approved).sorted() == ["extra.wav", "same.wav", "sub", "sub/quieter.wav"])
        #expect(try FileManager.default.attributesOfItem(atPath: folder.file("approved/same.wav"))[.modificationDate] as? Date == sameBefore,
                "a pair that passed is not touched")
        #expect(!FileManager.default.fileExists(atPath: folder.file("approved/notes.txt")), "only audio is approved")
        let after = try aurender(["diff", approved, rendered])
        #expect(after.status == 0 && after.output.hasSuffix("result: all 3 pairs passed\n"))
    }

    @Test func anUnreadableRenderIsNotApproved() throws {
        let folder = try TemporaryFolder()
        try makeFolders(folder)
        let before = bytes(folder.file("approved/broken.wav"))
        let result = try aurender(["diff", folder.file("approved"), folder.file("rendered"), "--approve"])
        #expect(result.status == 1)
        #expect(result.output.contains("approve: kept broken.wav: its render cannot be read\n"))
        #expect(bytes(folder.file("approved/broken.wav")) == before)
    }

    @Test func optionsThatDoNotApplyAreRefused() throws {
        let folder = try TemporaryFolder()
        try makeFolders(folder, unreadable: false)
        let files = [folder.file("approved/same.wav"), folder.file("rendered/same.wav")]
        for (option, arguments) in [("--approve", ["--approve"]), ("-j", ["-j", "2"]), ("--junit", ["--junit", "x.xml"])] {
            let result = try aurender(["diff"] + files + arguments)
            #expect(result.status == 64)
            #expect(result.standardError == "aurender: \(option) applies to folders: give two folders (APPROVED/ RENDERED/)\n")
        }
        let mixed = try aurender(["diff", folder.file("approved"), files[1]])
        #expect(mixed.status == 64 && mixed.standardError == "aurender: \(files[1]): not a folder: give two folders, or two files\n")
        let prune = try aurender(["diff", folder.file("approved"), folder.file("rendered"), "--prune"])
        #expect(prune.status == 64 && prune.standardError.contains("--prune removes approved files only with --approve"))
        let plot = try aurender(["diff", folder.file("approved"), folder.file("rendered"), "--plot", folder.file("p.svg")])
        #expect(plot.status == 64 && !FileManager.default.fileExists(atPath: folder.file("p.svg")))
    }
}
