import Foundation
import TestSupport
import Testing

/// Tags and pictures carried from input to output by every render, written by other tools
/// (metaflac, lame, vorbiscomment, opusenc) and read back by others (mutagen, metaflac, mid3v2)
/// than TagLib, which aurender writes them with. Each test needs its tools and passes without them.
@Suite struct TagCarryingTests {
    /// The tags the FLAC input carries: every key of the mapping table, a key with two values and a free key.
    static let tags: [(String, String)] = [
        ("TITLE", "Song"), ("ARTIST", "First"), ("ARTIST", "Second"), ("ALBUM", "Record"), ("ALBUMARTIST", "Band"),
        ("COMPOSER", "Writer"), ("DATE", "2021"), ("TRACKNUMBER", "3"), ("TRACKTOTAL", "12"), ("DISCNUMBER", "1"),
        ("DISCTOTAL", "2"), ("GENRE", "Jazz"), ("COMMENT", "Live take"), ("LYRICS", "La la"), ("ISRC", "USRC17607839"),
        ("COMPILATION", "1"), ("MUSICBRAINZ_TRACKID", "8f3471b5-7e6a-48da-86a9-c1c07a0f47ae"),
        ("REPLAYGAIN_TRACK_GAIN", "-6.50 dB"), ("MOOD", "Calm"),
    ]

    static let cover = MutagenListing.PictureListing(type: 3, mime: "image/png", description: "Cover", size: TaggedFiles.png.count)

    /// The tagged FLAC, or nil without flac and metaflac.
    func taggedFLAC(in folder: TemporaryFolder) throws -> String? {
        try TaggedFiles.flac(tags: Self.tags, picture: "Cover", in: folder)
    }

    @Test func aFLACsTagsAndCoverGoIntoAnMP3AsID3v2Frames() throws {
        let folder = try TemporaryFolder()
        guard let flac = try taggedFLAC(in: folder) else { return }
        let before = bytes(flac)
        let result = try aurender([flac, folder.file("out.mp3")])
        #expect(result.status == 0)
        #expect(result.standardError == "")
        #expect(bytes(flac) == before, "the input is never touched")
        guard let listing = try MutagenListing.of(folder.file("out.mp3")) else { return }
        #expect(listing.tags["TIT2"] == ["Song"])
        #expect(listing.tags["TPE1"] == ["First", "Second"])
        #expect(listing.tags["TALB"] == ["Record"])
        #expect(listing.tags["TPE2"] == ["Band"])
        #expect(listing.tags["TCOM"] == ["Writer"])
        #expect(listing.tags["TDRC"] == ["2021"])
        #expect(listing.tags["TRCK"] == ["3/12"])
        #expect(listing.tags["TPOS"] == ["1/2"])
        #expect(listing.tags["TCON"] == ["Jazz"])
        #expect(listing.tags["COMM"] == ["Live take"])
        #expect(listing.tags["USLT"] == ["La la"])
        #expect(listing.tags["TSRC"] == ["USRC17607839"])
        #expect(listing.tags["TCMP"] == ["1"])
        #expect(listing.tags["UFID:http://musicbrainz.org"] == ["8f3471b5-7e6a-48da-86a9-c1c07a0f47ae"])
        #expect(listing.tags["TXXX:REPLAYGAIN_TRACK_GAIN"] == ["-6.50 dB"])
        #expect(listing.tags["TMOO"] == ["Calm"])
        #expect(listing.pictures == [Self.cover])
        let frames = try #require(try TaggedFiles.mid3v2Frames(folder.file("out.mp3")))
        #expect(frames.contains { $0 == ("TPE1", "First / Second") })
    }

    @Test func aFLACsTagsGoIntoAnM4AAndTheCoversDescriptionIsNamedAsLost() throws {
        let folder = try TemporaryFolder()
        guard let flac = try taggedFLAC(in: folder) else { return }
        let output = folder.file("out.m4a")
        let result = try aurender([flac, output])
        #expect(result.status == 0)
        #expect(result.standardError == "aurender: \(output): cover art kept without its kind and description: 1 picture\n")
        guard let listing = try MutagenListing.of(output) else { return }
        #expect(listing.tags["©nam"] == ["Song"])
        #expect(listing.tags["©ART"] == ["First", "Second"])
        #expect(listing.tags["trkn"] == ["3/12"])
        #expect(listing.tags["disk"] == ["1/2"])
        #expect(listing.tags["©day"] == ["2021"])
        #expect(listing.tags["cpil"] == ["True"])
        #expect(listing.tags["©lyr"] == ["La la"])
        #expect(listing.tags["----:com.apple.iTunes:ISRC"] == ["USRC17607839"])
        #expect(listing.tags["----:com.apple.iTunes:MusicBrainz Track Id"] == ["8f3471b5-7e6a-48da-86a9-c1c07a0f47ae"])
        #expect(listing.tags["----:com.apple.iTunes:MOOD"] == ["Calm"])
        #expect(listing.tags["----:com.apple.iTunes:replaygain_track_gain"] == ["-6.50 dB"], "a key TagLib does not map goes into a freeform atom")
        #expect(listing.pictures == [.init(type: 3, mime: "image/png", description: "", size: TaggedFiles.png.count)])
        let ilst = try #require(Self.atomPath(["moov", "udta", "meta", "ilst"], in: [UInt8](try Data(contentsOf: URL(fileURLWithPath: output)))))
        #expect(ilst.last == "covr", "aurender's own covr atom goes after the text TagLib wrote: \(ilst)")
    }

    @Test func aWMATaggedByFFmpegCarriesItsTagsIntoAFLAC() throws {
        guard TaggedFiles.hasTool("ffmpeg"), TaggedFiles.hasTool("metaflac") else { return }
        let folder = try TemporaryFolder()
        let wma = folder.file("in.wma")
        try #require(try TaggedFiles.run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "sine=frequency=440:duration=1", "-ac", "2", "-c:a", "wmav2",
                                                    "-metadata", "title=Windows Song", "-metadata", "artist=Somebody",
                                                    "-metadata", "album=Records", "-metadata", "track=4", wma]) != nil)
        let flac = folder.file("out.flac")
        #expect(try aurender([wma, flac]).status == 0)
        let tags = try #require(try TaggedFiles.metaflacTags(flac))
        #expect(tags.map { $0.0 + "=" + $0.1 }.sorted() == ["ALBUM=Records", "ARTIST=Somebody", "TITLE=Windows Song", "TRACKNUMBER=4"],
                "TagLib's ASF reader maps the content description and the WM/ attributes")
    }

    /// The types of the children of the atom at `path` in the MP4 `bytes`, each level's sizes
    /// adding up to its parent's (a `meta` atom's children after its version and flags); nil when
    /// an atom is missing or a size does not add up.
    static func atomPath(_ path: [String], in bytes: [UInt8]) -> [String]? {
        var (start, end) = (0, bytes.count)
        for (depth, name) in (path + [""]).enumerated() {
            var children: [(type: String, start: Int, size: Int)] = []
            var position = start + (depth > 0 && path[depth - 1] == "meta" ? 4 : 0)
            while position + 8 <= end {
                let size = bytes[position..<(position + 4)].reduce(0) { $0 << 8 | Int($1) }
                guard size >= 8, position + size <= end else { return nil }
                children.append((String(decoding: bytes[(position + 4)..<(position + 8)], as: UTF8.self), position, size))
                position += size
            }
            guard position == end else { return nil }
            guard depth < path.count else { return children.map(\.type) }
            guard let child = children.last(where: { $0.type == name }) else { return nil }
            (start, end) = (child.start + 8, child.start + child.size)
        }
        return nil
    }

    @Test(arguments: ["ogg", "flac"])
    func aFLACsTagsAndCoverGoIntoVorbisCommentsWithNothingAdded(_ extension: String) throws {
        let folder = try TemporaryFolder()
        guard let flac = try taggedFLAC(in: folder) else { return }
        let output = folder.file("out." + `extension`)
        let result = try aurender([flac, output])
        #expect(result.status == 0)
        #expect(result.standardError == "")
        guard let listing = try MutagenListing.of(output) else { return }
        var expected: [String: [String]] = [:]
        for (key, value) in Self.tags { expected[key.lowercased(), default: []].append(value) }
        #expect(listing.tags.mapKeys { $0.lowercased() } == expected, "every tag and nothing else (no ENCODER=libsndfile)")
        #expect(listing.pictures == [Self.cover])
        if `extension` == "flac", let blocks = try TaggedFiles.run("metaflac", ["--list", "--block-type=PICTURE", output]) {
            #expect(blocks.contains("  width: 1\n  height: 1\n  depth: 24\n"), "the picture's dimensions as metaflac stated them")
        }
    }

    @Test func anOpusOutputCarriesTagsAndCover() throws {
        let folder = try TemporaryFolder()
        guard let flac = try taggedFLAC(in: folder) else { return }
        let output = folder.file("out.opus")
        let result = try aurender([flac, "--rate", "48000", output])
        #expect(result.status == 0)
        #expect(result.standardError == "")
        guard let listing = try MutagenListing.of(output) else { return }
        #expect(listing.tags["artist"] == ["First", "Second"])
        #expect(listing.tags["tracktotal"] == ["12"])
        #expect(listing.pictures == [Self.cover])
    }

    @Test(arguments: ["wav", "aiff"])
    func aFLACsTagsAndCoverGoIntoAnID3v2Chunk(_ extension: String) throws {
        let folder = try TemporaryFolder()
        guard let flac = try taggedFLAC(in: folder) else { return }
        let output = folder.file("out." + `extension`)
        let result = try aurender([flac, output])
        #expect(result.status == 0)
        #expect(result.standardError == "")
        guard let listing = try MutagenListing.of(output) else { return }
        #expect(listing.tags["TPE1"] == ["First", "Second"])
        #expect(listing.tags["TRCK"] == ["3/12"])
        #expect(listing.pictures == [Self.cover])
        // The samples are the input's, bit for bit: the tags are a chunk after them.
        #expect(try samples(of: output).samples == samples(of: flac).samples)
    }

    @Test func lamesTagsComeBackOutOfAnMP3IntoAFLAC() throws {
        let folder = try TemporaryFolder()
        guard TaggedFiles.hasTool("lame"), TaggedFiles.hasTool("metaflac") else { return }
        let wav = folder.file("tone.wav"), mp3 = folder.file("lame.mp3"), output = folder.file("out.flac")
        try TaggedFiles.toneWAV(at: wav)
        try #require(try TaggedFiles.run("lame", ["--quiet", "--tt", "Song", "--ta", "Artist", "--tl", "Album", "--ty", "2020",
                                                  "--tn", "3/12", wav, mp3]) != nil)
        let result = try aurender([mp3, output])
        #expect(result.status == 0)
        #expect(result.standardError == "")
        let tags = try #require(try TaggedFiles.metaflacTags(output))
        #expect(tags.map { "\($0.0)=\($0.1)" } == ["ALBUM=Album", "ARTIST=Artist", "DATE=2020", "TITLE=Song", "TRACKNUMBER=3", "TRACKTOTAL=12"],
                "lame's encoder settings and length describe its encoding, not this file's, and are not carried")
    }

    @Test func vorbiscommentsAndOpusencsTagsComeThroughToAnMP3() throws {
        let folder = try TemporaryFolder()
        guard TaggedFiles.hasTool("vorbiscomment"), TaggedFiles.hasTool("opusenc") else { return }
        let wav = folder.file("tone.wav"), ogg = folder.file("tone.ogg"), opus = folder.file("tone.opus"), png = folder.file("cover.png")
        try TaggedFiles.toneWAV(at: wav, rate: 48_000)
        try Data(TaggedFiles.png).write(to: URL(fileURLWithPath: png))
        #expect(try aurender(["-q", wav, ogg]).status == 0)
        try #require(try TaggedFiles.run("vorbiscomment", ["-w", "-t", "TITLE=Vorbis song", "-t", "ARTIST=One", "-t", "ARTIST=Two", ogg]) != nil)
        try #require(try TaggedFiles.run("opusenc", ["--quiet", "--comment", "TITLE=Opus song", "--artist", "Singer",
                                                     "--picture", "3|image/png|Front||\(png)", wav, opus]) != nil)
        for (input, title, artists) in [(ogg, "Vorbis song", ["One", "Two"]), (opus, "Opus song", ["Singer"])] {
            let output = input + ".mp3"
            let result = try aurender([input, output])
            #expect(result.status == 0)
            #expect(result.standardError == "")
            guard let listing = try MutagenListing.of(output) else { continue }
            #expect(listing.tags["TIT2"] == [title])
            #expect(listing.tags["TPE1"] == artists)
            #expect(listing.tags["TSSE"] == nil && listing.tags["TXXX:ENCODER"] == nil, "the input's encoder is not carried")
            if input == opus { #expect(listing.pictures == [.init(type: 3, mime: "image/png", description: "Front", size: TaggedFiles.png.count)]) }
        }
    }

    @Test func anOutputThatHoldsNoTagsSaysSoAndStillRenders() throws {
        let folder = try TemporaryFolder()
        guard let flac = try taggedFLAC(in: folder) else { return }
        let output = folder.file("out.au")
        let result = try aurender([flac, output])
        #expect(result.status == 0)
        #expect(result.standardError == "aurender: \(output): tags and cover art not kept: AU holds no tags\n")
        #expect(try samples(of: output).samples.count == 44_100 * 2)
        let piped = try aurender(["-q", "--type", "au", flac, "-"])
        #expect(piped.status == 0)
        #expect(piped.standardError == "aurender: -: tags and cover art not kept: AU holds no tags\n")
    }

    @Test func aFrameNoKeyNamesIsNamedAsNotCarriedAndAW64HoldsNone() throws {
        let folder = try TemporaryFolder()
        guard TaggedFiles.hasTool("lame"), TaggedFiles.hasTool("mid3v2") else { return }
        let wav = folder.file("tone.wav"), mp3 = folder.file("private.mp3")
        try TaggedFiles.toneWAV(at: wav)
        try #require(try TaggedFiles.run("lame", ["--quiet", "--tt", "Song", wav, mp3]) != nil)
        try #require(try TaggedFiles.run("python3", ["-c", """
            from mutagen.id3 import ID3, PRIV
            tag = ID3('\(mp3)'); tag.add(PRIV(owner='com.example', data=b'secret')); tag.save()
            """]) != nil)
        let flac = folder.file("out.flac")
        let result = try aurender([mp3, flac])
        #expect(result.status == 0)
        #expect(result.standardError == "aurender: \(flac): frames not carried, as TagLib names no key for them: PRIV\n")
        #expect(try TaggedFiles.metaflacTags(flac)?.map(\.1) == ["Song"])
        let w64 = folder.file("out.w64")
        let held = try aurender([mp3, w64])
        #expect(held.status == 0)
        #expect(held.standardError == "aurender: \(w64): tags not kept: aurender writes no tags into W64 files\n")
    }

    @Test func anUntaggedInputGivesAnOutputWithoutTags() throws {
        let folder = try TemporaryFolder()
        let wav = folder.file("tone.wav")
        try TaggedFiles.toneWAV(at: wav)
        for name in ["out.mp3", "out.ogg", "out.flac", "out.m4a"] {
            let result = try aurender([wav, folder.file(name)])
            #expect(result.status == 0)
            #expect(result.standardError == "")
            guard let listing = try MutagenListing.of(folder.file(name)) else { continue }
            #expect(listing.tags.isEmpty, "\(name): \(listing.tags)")
        }
    }

    @Test func aDamagedTagWarnsAndTheAudioRendersWholeWithTheRestOfTheTags() throws {
        let folder = try TemporaryFolder()
        guard let flac = try taggedFLAC(in: folder) else { return }
        let m4a = folder.file("tagged.m4a")
        #expect(try aurender(["-q", flac, m4a]).status == 0)
        // Give the title atom inside `ilst` a size shorter than its header: TagLib refuses the file's tags, FFmpeg reads the rest.
        var data = try #require(bytes(m4a))
        let title = try #require(data.range(of: Data([0xA9] + Array("nam".utf8))))
        data.replaceSubrange((title.lowerBound - 4)..<title.lowerBound, with: [0, 0, 0, 3])
        let damaged = folder.file("damaged.m4a")
        try data.write(to: URL(fileURLWithPath: damaged))
        let output = folder.file("out.flac")
        let result = try aurender([damaged, output])
        #expect(result.status == 0)
        let warning = "aurender: \(damaged): tags partly read: TagLib finds them damaged, so what FFmpeg reads is kept ("
        #expect(result.standardError.hasPrefix(warning) && result.standardError.hasSuffix("), and no pictures\n"))
        #expect(result.standardError.split(separator: "\n").count == 1, "one warning: \(result.standardError)")
        let rendered = try samples(of: output)
        #expect(rendered.samples.count == 44_100 * 2)
        let carried = try #require(try TaggedFiles.metaflacTags(output))
        #expect(carried.contains { $0 == ("ALBUM", "Record") } && carried.contains { $0 == ("GENRE", "Jazz") }, "the rest of the tags is kept")
        #expect(!carried.contains { $0.0 == "TITLE" }, "the damaged title is not")
        let described = try aurender(["info", damaged])
        #expect(described.status == 0)
        #expect(described.standardError.hasPrefix(warning))
        #expect(described.output.contains("Frames      : 44100\n") && described.output.contains("ALBUM = Record"))
    }

    @Test func taggedRendersAreByteIdentical() throws {
        let folder = try TemporaryFolder()
        guard let flac = try taggedFLAC(in: folder) else { return }
        for name in ["a.mp3", "b.mp3", "a.ogg", "b.ogg"] { #expect(try aurender(["-q", flac, folder.file(name)]).status == 0) }
        #expect(bytes(folder.file("a.mp3")) == bytes(folder.file("b.mp3")))
        #expect(bytes(folder.file("a.ogg")) == bytes(folder.file("b.ogg")))
    }

    @Test func infoShowsEveryTagValueAndEachPicture() throws {
        let folder = try TemporaryFolder()
        guard let flac = try TaggedFiles.flac(tags: [("TITLE", "Song"), ("ARTIST", "First"), ("ARTIST", "Second")], picture: "Cover", in: folder)
        else { return }
        let lame = folder.file("lame.mp3")
        if TaggedFiles.hasTool("lame") {
            try #require(try TaggedFiles.run("lame", ["--quiet", "--tt", "Song", folder.file("tagged.flac.wav"), lame]) != nil)
            #expect(try aurender(["info", lame]).output.contains("ENCODING = LAME"), "info shows every key, even those a render leaves out")
        }
        let text = try aurender(["info", flac])
        #expect(text.status == 0)
        #expect(text.output.hasSuffix("""
            Tags        : ARTIST = First
                          ARTIST = Second
                          TITLE = Song
            Pictures    : front cover, image/png, 69 bytes, "Cover"

            """))
        let json = try aurender(["info", "--json", flac])
        let parsed = try #require(try JSONSerialization.jsonObject(with: json.standardOutput) as? [[String: Any]])
        let tags = try #require(parsed.first?["tags"] as? [[String: Any]])
        #expect(tags.map { $0["key"] as? String } == ["ARTIST", "TITLE"])
        #expect(tags.first?["values"] as? [String] == ["First", "Second"])
        let pictures = try #require(parsed.first?["pictures"] as? [[String: Any]])
        #expect(pictures.count == 1)
        #expect(pictures.first?["type"] as? String == "front cover")
        #expect(pictures.first?["typeNumber"] as? Int == 3)
        #expect(pictures.first?["mimeType"] as? String == "image/png")
        #expect(pictures.first?["description"] as? String == "Cover")
        #expect(pictures.first?["bytes"] as? Int == 69)
    }

    @Test func withoutTagLibsLibraryTheAudioRendersAndTheTagsAreNamedAsNotCarried() throws {
        let folder = try TemporaryFolder()
        let tagged = folder.file("tagged.flac")
        #expect(try aurender([fixture("music.wav"), tagged, "--tag", "TITLE=Kept"]).status == 0)
        let lone = folder.file("aurender")
        try FileManager.default.copyItem(atPath: aurenderPath, toPath: lone)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: lone)
        process.arguments = [tagged, folder.file("out.flac")]
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(message.hasPrefix("aurender: \(tagged): tags not read: aurender's TagLib library libAurenderTagLib.so is not installed beside the binary ("),
                "\(message)")
        #expect(try samples(of: folder.file("out.flac")).samples == samples(of: tagged).samples, "the audio renders whole")
    }

    @Test func aBatchsReportListsPerFileWhatWasCarriedAndWhatWasNot() throws {
        let folder = try TemporaryFolder()
        guard let flac = try taggedFLAC(in: folder) else { return }
        let report = folder.file("report.json")
        let mp3 = try aurender(["-q", "-o", folder.file("mp3"), flac, "--type", "mp3", "--report", report])
        #expect(mp3.status == 0)
        let au = try aurender(["-q", "--json", flac, folder.file("out.au")])
        #expect(au.status == 0)
        let batch = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: report))) as? [String: Any])
        let rendered = try #require(batch["rendered"] as? [[String: Any]])
        let metadata = try #require(rendered.first?["metadata"] as? [String: Any])
        let carried = try #require(metadata["carried"] as? [String: Any])
        // TagLib orders a FLAC's keys alphabetically; every key of the table comes through an MP3.
        #expect(carried["tags"] as? [String] == Self.tags.map(\.0).reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }.sorted())
        #expect(carried["pictures"] as? Int == 1)
        #expect(carried["markers"] as? Int == 0)
        #expect(carried["broadcastExtension"] as? Bool == false)
        #expect(metadata["warnings"] as? [String] == [])
        let single = try #require(try JSONSerialization.jsonObject(with: au.standardOutput) as? [String: Any])
        let lost = try #require(single["metadata"] as? [String: Any])
        #expect((lost["carried"] as? [String: Any])?["tags"] as? [String] == [])
        #expect((lost["carried"] as? [String: Any])?["pictures"] as? Int == 0)
        #expect(lost["warnings"] as? [String] == ["\(folder.file("out.au")): tags and cover art not kept: AU holds no tags"])
    }
}

extension Dictionary {
    /// The dictionary with its keys transformed; values of keys that meet are joined in order.
    func mapKeys(_ transform: (Key) -> Key) -> [Key: Value] where Value: RangeReplaceableCollection {
        var mapped: [Key: Value] = [:]
        for (key, value) in self { mapped[transform(key), default: Value()].append(contentsOf: value) }
        return mapped
    }
}
