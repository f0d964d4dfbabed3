import Foundation
import TestSupport
import Testing

/// An input on a pipe carries the tags its format places before its audio: the tagged file is
/// written into aurender's standard input, and the output's tags read back by other tools
/// (metaflac, mutagen, vorbiscomment's and our own chunk parser). Each test needs its tools and
/// passes without them.
@Suite struct PipedTagTests {
    private func contents(_ path: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: path)) }

    /// Renders `input`, written into aurender's standard input, into `output`.
    private func renderPiped(_ input: String, to output: String, extra: [String] = []) throws -> CommandResult {
        try aurender(["-", output] + extra, input: try contents(input))
    }

    /// The samples of `input` decoded from a pipe (tags not asked for) and from its file, which must agree.
    private func expectSameSamplesPipedAndNot(_ input: String, in folder: TemporaryFolder, extra: [String] = []) throws {
        let piped = try aurender(["-", folder.file("piped.wav")] + extra, input: try contents(input))
        #expect(piped.status == 0, "\(piped.standardError)")
        #expect(try aurender(["-q", input, folder.file("file.wav")]).status == 0)
        #expect(try samples(of: folder.file("piped.wav")).samples == (try samples(of: folder.file("file.wav")).samples))
    }

    @Test func aPipedFLACsTagsAndCoverReachTheOutput() throws {
        let folder = try TemporaryFolder()
        guard let flac = try TaggedFiles.flac(tags: [("TITLE", "Piped song"), ("ARTIST", "One"), ("ARTIST", "Two")], picture: "Cover", in: folder)
        else { return }
        let output = folder.file("out.flac")
        let result = try renderPiped(flac, to: output)
        #expect(result.status == 0)
        #expect(result.standardError == "")
        let tags = try #require(try TaggedFiles.metaflacTags(output))
        #expect(tags.filter { $0.0 != "ENCODER" }.map { "\($0.0)=\($0.1)" }.sorted() == ["ARTIST=One", "ARTIST=Two", "TITLE=Piped song"])
        if let listing = try MutagenListing.of(output) {
            #expect(listing.pictures == [.init(type: 3, mime: "image/png", description: "Cover", size: TaggedFiles.png.count)])
        }
        #expect(try aurender([flac, folder.file("from-file.flac")]).status == 0)
        #expect(bytes(output) == bytes(folder.file("from-file.flac")), "the same output as from the file")
        try expectSameSamplesPipedAndNot(flac, in: folder)
    }

    @Test func aPipedMP3sID3v2TagWithAPictureReachesTheOutput() throws {
        let folder = try TemporaryFolder()
        guard TaggedFiles.hasTool("lame"), TaggedFiles.hasTool("mid3v2") else { return }
        let wav = folder.file("tone.wav"), mp3 = folder.file("tone.mp3"), png = folder.file("cover.png")
        try TaggedFiles.toneWAV(at: wav)
        try Data(TaggedFiles.png).write(to: URL(fileURLWithPath: png))
        try #require(try TaggedFiles.run("lame", ["--quiet", "-b", "128", wav, mp3]) != nil)
        try #require(try TaggedFiles.run("mid3v2", ["-t", "Piped MP3", "-a", "Singer", "--picture", "\(png):Front:3:image/png", mp3]) != nil)
        let output = folder.file("out.mp3")
        let result = try renderPiped(mp3, to: output)
        #expect(result.status == 0)
        #expect(result.standardError == "")
        let listing = try #require(try MutagenListing.of(output))
        #expect(listing.tags["TIT2"] == ["Piped MP3"])
        #expect(listing.tags["TPE1"] == ["Singer"])
        #expect(listing.pictures == [.init(type: 3, mime: "image/png", description: "Front", size: TaggedFiles.png.count)])
        try expectSameSamplesPipedAndNot(mp3, in: folder)
    }

    @Test func pipedOggVorbisAndOpusCommentsReachTheOutput() throws {
        let folder = try TemporaryFolder()
        guard TaggedFiles.hasTool("vorbiscomment"), TaggedFiles.hasTool("opusenc"), TaggedFiles.hasTool("metaflac") else { return }
        let wav = folder.file("tone.wav"), ogg = folder.file("tone.ogg"), opus = folder.file("tone.opus")
        try TaggedFiles.toneWAV(at: wav, rate: 48_000)
        #expect(try aurender(["-q", wav, ogg]).status == 0)
        try #require(try TaggedFiles.run("vorbiscomment", ["-w", "-t", "TITLE=Vorbis song", "-t", "ARTIST=One", ogg]) != nil)
        try #require(try TaggedFiles.run("opusenc", ["--quiet", "--comment", "TITLE=Opus song", "--artist", "Singer", wav, opus]) != nil)
        for (input, expected) in [(ogg, ["TITLE=Vorbis song", "ARTIST=One"]), (opus, ["TITLE=Opus song", "ARTIST=Singer"])] {
            let output = input + ".flac"
            let result = try renderPiped(input, to: output)
            #expect(result.status == 0)
            #expect(result.standardError == "")
            let tags = try #require(try TaggedFiles.metaflacTags(output))
            #expect(tags.filter { $0.0 == "TITLE" || $0.0 == "ARTIST" }.map { "\($0.0)=\($0.1)" }.sorted() == expected.sorted())
        }
        try expectSameSamplesPipedAndNot(ogg, in: folder)
    }

    /// A WAV with `LIST INFO` and `bext` before its `data`, and a `LIST INFO` after it.
    private func broadcastWave(after: [BroadcastWaveFiles.Chunk] = []) -> [UInt8] {
        func info(_ fields: [(String, String)]) -> [UInt8] {
            Array("INFO".utf8) + fields.flatMap { id, text in
                let body = Array(text.utf8) + [0]
                return Array(id.utf8) + BroadcastWaveFiles.little(UInt32(body.count)) + body + (body.count % 2 == 1 ? [0] : [])
            }
        }
        let bext = BroadcastWaveFiles.bext(description: "Piped take", originator: "Recorder", reference: "REF1", date: "2024-05-06",
                                           time: "07:08:09", timeReference: 4800, umid: [], loudness: [], codingHistory: "A=PCM,F=8000\r\n")
        let samples = (0..<8000).map { Int16(truncatingIfNeeded: $0 * 37 % 2000 - 1000) }
        return BroadcastWaveFiles.wave(samples: samples, sampleRate: 8000,
                                       before: [.init("bext", bext), .init("LIST", info([("INAM", "Piped wave"), ("IART", "Someone")]))],
                                       after: after)
    }

    @Test func aPipedWAVsInfoAndBextBeforeItsDataReachTheOutput() throws {
        let folder = try TemporaryFolder()
        let input = folder.file("take.wav"), output = folder.file("out.wav")
        try Data(broadcastWave()).write(to: URL(fileURLWithPath: input))
        let result = try renderPiped(input, to: output)
        #expect(result.status == 0)
        #expect(result.standardError == "")
        let chunks = try BroadcastWaveFiles.chunks(of: output)
        let bext = try #require(chunks.first { $0.id == "bext" }?.body)
        #expect(bext.starts(with: Array("Piped take".utf8)))
        #expect(BroadcastWaveFiles.timeReference(bext) == 4800)
        let info = try #require(chunks.first { $0.id == "LIST" && $0.body.starts(with: Array("INFO".utf8)) }?.body)
        #expect(info.windows(of: Array("Piped wave".utf8)))
        #expect(info.windows(of: Array("Someone".utf8)))
        try expectSameSamplesPipedAndNot(input, in: folder)
    }

    @Test func whatAPipedWAVHoldsAfterItsDataIsNotRead() throws {
        let folder = try TemporaryFolder()
        let input = folder.file("take.wav"), output = folder.file("out.wav")
        try Data(broadcastWave(after: BroadcastWaveFiles.cue([.init(frame: 100, label: "Later")]))).write(to: URL(fileURLWithPath: input))
        #expect(try aurender(["-q", input, folder.file("file.wav")]).status == 0)
        #expect(try BroadcastWaveFiles.chunks(of: folder.file("file.wav")).contains { $0.body.windows(of: Array("Later".utf8)) },
                "read from the file")
        let result = try renderPiped(input, to: output)
        #expect(result.status == 0)
        #expect(result.standardError == "")
        let chunks = try BroadcastWaveFiles.chunks(of: output)
        #expect(!chunks.contains { $0.body.windows(of: Array("Later".utf8)) }, "not from a pipe")
        #expect(chunks.contains { $0.body.windows(of: Array("Piped wave".utf8)) })
    }

    @Test func noTagsTakesNothingMoreFromThePipe() throws {
        let folder = try TemporaryFolder()
        guard let flac = try TaggedFiles.flac(tags: [("TITLE", "Piped song")], in: folder) else { return }
        let output = folder.file("out.flac")
        let result = try aurender(["-", output, "--no-tags"], input: try contents(flac))
        #expect(result.status == 0, "\(result.standardError)")
        #expect(try TaggedFiles.metaflacTags(output)?.contains { $0.0 == "TITLE" } == false)
    }

    @Test func aDamagedID3v2TagBeforeAPipedFLACWarnsOnceAndTheAudioRendersWhole() throws {
        let folder = try TemporaryFolder()
        guard let flac = try TaggedFiles.flac(tags: [("TITLE", "Behind a tag")], in: folder) else { return }
        // An ID3v2.4 tag of 20 bytes of padding whose size is no syncsafe integer.
        let tag: [UInt8] = Array("ID3".utf8) + [4, 0, 0, 0x80, 0, 0, 20] + [UInt8](repeating: 0, count: 20)
        let damaged = folder.file("damaged.flac")
        try (Data(tag) + (try contents(flac))).write(to: URL(fileURLWithPath: damaged))
        let result = try renderPiped(damaged, to: folder.file("piped.wav"))
        #expect(result.status == 0)
        #expect(result.standardError == "aurender: -: tags not read: the size of its ID3v2 tag is damaged\n")
        #expect(try aurender(["-q", "--no-tags", flac, folder.file("file.wav")]).status == 0)
        #expect(try samples(of: folder.file("piped.wav")).samples == (try samples(of: folder.file("file.wav")).samples))
    }

    @Test func infoShowsAPipedFilesTagsAndBext() throws {
        let folder = try TemporaryFolder()
        guard let flac = try TaggedFiles.flac(tags: [("TITLE", "Listed")], picture: "Cover", in: folder) else { return }
        let listed = try aurender(["info", "-"], input: try contents(flac))
        #expect(listed.status == 0)
        #expect(listed.standardError == "")
        #expect(listed.output.contains("Tags        : TITLE = Listed\n"))
        #expect(listed.output.contains("Pictures    : front cover, image/png, \(TaggedFiles.png.count) bytes, \"Cover\""))
        let wave = try aurender(["info", "-"], input: Data(broadcastWave()))
        #expect(wave.status == 0)
        #expect(wave.output.contains("TITLE = Piped wave") && wave.output.contains("Bext        : description: Piped take\n"))
    }

    /// A plan read first (`--verbose`) opens the decoder before the tags are read: both get the one input.
    @Test func aVerbosePlanBeforeTheRenderKeepsThePipedTags() throws {
        let folder = try TemporaryFolder()
        guard let flac = try TaggedFiles.flac(tags: [("TITLE", "Planned")], in: folder) else { return }
        let output = folder.file("out.flac")
        let result = try aurender(["-", output, "-v", "--channel-map", "0,1"], input: try contents(flac))
        #expect(result.status == 0, "\(result.standardError)")
        #expect(try TaggedFiles.metaflacTags(output)?.first { $0.0 == "TITLE" }?.1 == "Planned")
        #expect(result.standardError.contains(
            "tags: -: a pipe gives only what its format holds before the audio (no ID3v1, APEv2 or chunks after it)\n"))
        let unasked = try aurender(["-", folder.file("bare.flac"), "-v", "--no-tags"], input: try contents(flac))
        #expect(unasked.status == 0 && !unasked.standardError.contains("tags: -:"))
    }
}

private extension Array where Element == UInt8 {
    /// Whether `part` occurs in these bytes.
    func windows(of part: [UInt8]) -> Bool {
        guard part.count <= count else { return false }
        return (0...(count - part.count)).contains { self[$0..<($0 + part.count)].elementsEqual(part) }
    }
}
