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
        #expect(newer.standardError == "aurender: 0 rendered, 1 skipped, 0 failed\n")
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

    @Test func suffixAndTypeNameTheOutputs() throws {
        let folder = try makeInputs()
        let result = try aurender(["-o", folder.file("out"), folder.file("in/music.wav"), folder.file("in/speech.flac"),
                                   "--suffix", "-master", "--type", "flac"])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(outputs(folder.file("out")) == ["music-master.flac", "speech-master.flac"])
    }
}
