import Foundation
import TestSupport
import Testing

/// A batch names every input it did not render and why, on standard error and in its report.
@Suite struct BatchSkipTests {
    func skipped(in reportPath: String) throws -> [[String: Any]] {
        let report = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: reportPath))) as? [String: Any])
        return try #require(report["skipped"] as? [[String: Any]])
    }

    @Test func filesLeftOutAndOutputsLeftAloneAreListedWithTheirReasons() throws {
        let folder = try TemporaryFolder()
        try FileManager.default.createDirectory(atPath: folder.file("in"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: fixture("speech.wav"), toPath: folder.file("in/speech.wav"))
        try Data("liner notes".utf8).write(to: URL(fileURLWithPath: folder.file("in/notes.txt")))

        let first = try aurender(["-o", folder.file("out"), folder.file("in"), "--report", folder.file("first.json")])
        #expect(first.status == 0, "\(first.standardError)")
        #expect(first.standardError == "aurender: \(folder.file("in/notes.txt")): skipped: its name is not that of an audio file\n",
                "off a terminal, a file the folder scan left out is still named")
        let leftOut = try skipped(in: folder.file("first.json"))
        #expect(leftOut.count == 1)
        #expect(leftOut.first?["input"] as? String == folder.file("in/notes.txt"))
        #expect(leftOut.first?["reason"] as? String == "its name is not that of an audio file")
        #expect(leftOut.first?["output"] == nil || leftOut.first?["output"] is NSNull)

        let again = try aurender(["-o", folder.file("out"), folder.file("in"), "--skip-existing", "-v", "--report", folder.file("again.json")])
        #expect(again.status == 0, "\(again.standardError)")
        #expect(again.standardError.contains("aurender: \(folder.file("in/speech.wav")): skipped: \(folder.file("out/speech.wav")) exists\n"),
                "\(again.standardError)")
        let skips = try skipped(in: folder.file("again.json"))
        #expect(skips.map { $0["reason"] as? String } == ["its name is not that of an audio file", "\(folder.file("out/speech.wav")) exists"])
        #expect(skips.last?["output"] as? String == folder.file("out/speech.wav"))
        #expect(again.standardError.contains("0 rendered, 2 skipped, 0 failed"))
    }
}
