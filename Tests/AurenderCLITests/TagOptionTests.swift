import Foundation
import TestSupport
import Testing

/// `--tag`, `--tags-from` and `--no-tags` on a render, a batch, a mix and a graph file.
@Suite struct TagOptionTests {
    /// A FLAC tagged TITLE, two ARTISTs, COMMENT and a cover, or nil without flac and metaflac.
    func taggedFLAC(in folder: TemporaryFolder) throws -> String? {
        try TaggedFiles.flac(tags: [("TITLE", "Song"), ("ARTIST", "First"), ("ARTIST", "Second"), ("COMMENT", "Old")], picture: "Cover", in: folder)
    }

    @Test func aTagReplacesTheInputsValuesAndAnEmptyOneRemovesTheKey() throws {
        let folder = try TemporaryFolder()
        guard let flac = try taggedFLAC(in: folder) else { return }
        let output = folder.file("out.flac")
        let result = try aurender([flac, output, "--tag", "title=New", "--tag", "COMMENT=", "--tag", "GENRE=Jazz", "--tag", "GENRE=Blues"])
        #expect(result.status == 0)
        #expect(result.standardError == "")
        let tags = try #require(try TaggedFiles.metaflacTags(output))
        // The input's keys in the order they are read, a replaced key in its place, a new one last.
        #expect(tags.map { "\($0.0)=\($0.1)" } == ["ARTIST=First", "ARTIST=Second", "TITLE=New", "GENRE=Jazz", "GENRE=Blues"])
    }

    @Test func noTagsWritesNoneAndSaysNothing() throws {
        let folder = try TemporaryFolder()
        guard let flac = try taggedFLAC(in: folder) else { return }
        for name in ["out.au", "out.mp3", "out.ogg"] {
            let result = try aurender([flac, folder.file(name), "--no-tags"])
            #expect(result.status == 0)
            #expect(result.standardError == "", "\(name)")
        }
        for name in ["out.mp3", "out.ogg"] {
            guard let listing = try MutagenListing.of(folder.file(name)) else { continue }
            #expect(listing.tags.isEmpty && listing.pictures.isEmpty, "\(name): \(listing.tags)")
        }
        let both = try aurender([flac, folder.file("x.mp3"), "--no-tags", "--tag", "TITLE=A"])
        #expect(both.status == 64)
        #expect(both.standardError.contains("--no-tags and --tag exclude each other"))
        #expect(!FileManager.default.fileExists(atPath: folder.file("x.mp3")))
        let malformed = try aurender([flac, folder.file("x.mp3"), "--tag", "TITLE"])
        #expect(malformed.status == 64)
    }

    @Test func tagsFromAnotherFileReplaceTheInputsAndAMissingOneFails() throws {
        let folder = try TemporaryFolder()
        guard let flac = try taggedFLAC(in: folder) else { return }
        let wav = folder.file("tone.wav"), output = folder.file("out.flac")
        try TaggedFiles.toneWAV(at: wav)
        let result = try aurender([wav, output, "--tags-from", flac])
        #expect(result.status == 0)
        #expect(result.standardError == "")
        let tags = try #require(try TaggedFiles.metaflacTags(output))
        #expect(tags.map { "\($0.0)=\($0.1)" } == ["ARTIST=First", "ARTIST=Second", "COMMENT=Old", "TITLE=Song"])
        let missing = try aurender([wav, folder.file("other.flac"), "--tags-from", folder.file("missing.flac")])
        #expect(missing.status == 66)
        #expect(missing.standardError == "aurender: \(folder.file("missing.flac")): tags not read: the file cannot be opened\n")
        #expect(!FileManager.default.fileExists(atPath: folder.file("other.flac")))
    }

    @Test func aMixCarriesNoTagsUnlessTakenFromAFile() throws {
        let folder = try TemporaryFolder()
        guard let flac = try taggedFLAC(in: folder) else { return }
        let plain = folder.file("plain.flac"), tagged = folder.file("tagged-mix.flac")
        #expect(try aurender(["mix", flac, flac, "-o", plain]).status == 0)
        #expect(try TaggedFiles.metaflacTags(plain)?.isEmpty == true)
        let result = try aurender(["mix", flac, flac, "-o", tagged, "--tags-from", flac, "--tag", "TITLE=Both"])
        #expect(result.status == 0)
        #expect(result.standardError == "")
        let tags = try #require(try TaggedFiles.metaflacTags(tagged))
        #expect(tags.map { "\($0.0)=\($0.1)" } == ["ARTIST=First", "ARTIST=Second", "COMMENT=Old", "TITLE=Both"])
    }

    @Test func aBatchTagsEveryFileAndAGraphFileRefusesTheFlags() throws {
        let folder = try TemporaryFolder()
        guard let flac = try taggedFLAC(in: folder) else { return }
        let outputs = folder.file("outputs")
        let result = try aurender(["-q", "-o", outputs, flac, "--tag", "ALBUM=Batch", "--type", "flac", "--suffix", "-tagged"])
        #expect(result.status == 0)
        let tags = try #require(try TaggedFiles.metaflacTags(outputs + "/tagged-tagged.flac"))
        #expect(tags.contains { $0 == ("ALBUM", "Batch") } && tags.contains { $0 == ("TITLE", "Song") })
        let graph = folder.file("graph.json")
        try Data(#"{"nodes": [{"name": "in", "type": "file", "path": "\#(flac)"}, {"name": "out", "type": "output", "path": "\#(folder.file("g.wav"))"}], "connections": [{"from": "in", "to": "out"}]}"#.utf8)
            .write(to: URL(fileURLWithPath: graph))
        let refused = try aurender([graph, "--tag", "TITLE=X"])
        #expect(refused.status == 64)
        #expect(refused.standardError == "aurender: \(graph): --tag does not apply to a graph file: its output carries no tags yet\n")
    }
}
