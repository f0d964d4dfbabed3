import Foundation
import TestSupport
import Testing

/// An output on a pipe carries the tags and pictures its format places before its audio: FLAC's
/// blocks, Vorbis and Opus comment headers, an MP3's ID3v2 tag; and names in a warning what it
/// cannot. Read back by mutagen and metaflac, not TagLib; each test needs its tools and passes without them.
@Suite struct StreamedTagsTests {
    /// Renders the tagged FLAC to standard output as `type`, and keeps what came out in `folder`.
    private func piped(_ input: String, type: String, extra: [String] = [], in folder: TemporaryFolder) throws -> (CommandResult, String) {
        let result = try aurender([input, "-", "--type", type] + extra)
        let output = folder.file("piped." + type)
        try result.standardOutput.write(to: URL(fileURLWithPath: output))
        return (result, output)
    }

    @Test(arguments: [("flac", [String]()), ("ogg", []), ("opus", ["--rate", "48000"]), ("mp3", [])])
    func aPipedOutputCarriesTheTagsAndCoverBeforeItsAudio(type: String, extra: [String]) throws {
        let folder = try TemporaryFolder()
        guard let flac = try TaggedFiles.flac(tags: TagCarryingTests.tags, picture: "Cover", in: folder) else { return }
        let (result, output) = try piped(flac, type: type, extra: extra, in: folder)
        #expect(result.status == 0)
        #expect(result.standardError == "")
        let decoded = folder.file("decoded.wav")
        #expect(try aurender([output, decoded]).status == 0)
        #expect(try samples(of: decoded).samples.count > 44_100 * 2 - 2_000, "the audio is whole")
        guard let listing = try MutagenListing.of(output) else { return }
        #expect(listing.pictures == [TagCarryingTests.cover])
        if type == "mp3" {
            #expect(listing.tags["TIT2"] == ["Song"])
            #expect(listing.tags["TPE1"] == ["First", "Second"])
            #expect(listing.tags["TRCK"] == ["3/12"])
            #expect(listing.tags["TMOO"] == ["Calm"])
        } else {
            #expect(listing.tags["title"] == ["Song"])
            #expect(listing.tags["artist"] == ["First", "Second"])
            #expect(listing.tags["tracknumber"] == ["3"] && listing.tags["tracktotal"] == ["12"])
            #expect(listing.tags["mood"] == ["Calm"])
            #expect(listing.tags["encoder"] == nil, "no stamp of libsndfile or aurender")
        }
    }

    @Test func aPipedFLACsBlocksAreReadByMetaflac() throws {
        let folder = try TemporaryFolder()
        guard let flac = try TaggedFiles.flac(tags: [("TITLE", "Song"), ("ARTIST", "First"), ("ARTIST", "Second")], picture: "Cover", in: folder)
        else { return }
        let (result, output) = try piped(flac, type: "flac", in: folder)
        #expect(result.status == 0)
        let tags = try #require(try TaggedFiles.metaflacTags(output))
        #expect(tags.map { "\($0.0)=\($0.1)" }.sorted() == ["ARTIST=First", "ARTIST=Second", "TITLE=Song"])
        let listing = try #require(try TaggedFiles.run("metaflac", ["--list", "--block-type=PICTURE", output]))
        #expect(listing.contains("description: Cover") && listing.contains("MIME type: image/png"))
        #expect(try TaggedFiles.run("flac", ["--test", "--silent", output]) != nil, "flac decodes the stream")
    }

    @Test func aPipedOggStreamIsTheSameEveryRunAndSpansItsCommentOverPages() throws {
        let folder = try TemporaryFolder()
        // A picture of 200,000 bytes: its comment packet takes four pages.
        let picture = folder.file("big.png")
        try Data(TaggedFiles.png + [UInt8](repeating: 7, count: 200_000 - TaggedFiles.png.count)).write(to: URL(fileURLWithPath: picture))
        let wav = folder.file("tone.wav"), tagged = folder.file("tagged.flac")
        try TaggedFiles.toneWAV(at: wav)
        let tagging = try aurender([wav, tagged, "--tag", "TITLE=Long"])
        try #require(tagging.status == 0)
        guard TaggedFiles.hasTool("metaflac"),
              try TaggedFiles.run("metaflac", ["--import-picture-from=3|image/png|Big||\(picture)", tagged]) != nil else { return }
        let first = try aurender([tagged, "-", "--type", "ogg"]), second = try aurender([tagged, "-", "--type", "ogg"])
        #expect(first.status == 0 && second.status == 0)
        #expect(first.standardOutput == second.standardOutput, "the serial number is aurender's, not the clock's")
        let pages = OggPage.pages(of: [UInt8](first.standardOutput))
        #expect(!pages.isEmpty && pages.allSatisfy { $0.serial == 0x6175_7265 })
        #expect(pages.enumerated().allSatisfy { $0.element.sequence == UInt32($0.offset) }, "the pages are numbered again after the longer header")
        #expect(pages.reduce(0) { $0 + $1.body.count + $1.lacing.count + 27 } == first.standardOutput.count, "every byte is in a whole page")
        let output = folder.file("piped.ogg")
        try first.standardOutput.write(to: URL(fileURLWithPath: output))
        guard let listing = try MutagenListing.of(output) else { return }
        #expect(listing.tags["title"] == ["Long"])
        #expect(listing.pictures == [.init(type: 3, mime: "image/png", description: "Big", size: 200_000)])
    }

    @Test func aStreamThatHoldsNoLeadingTagsNamesThem() throws {
        let folder = try TemporaryFolder()
        guard let flac = try TaggedFiles.flac(tags: [("TITLE", "Song")], in: folder) else { return }
        let au = try aurender([flac, "-", "--type", "au"])
        #expect(au.status == 0)
        #expect(au.standardError == "aurender: -: tags not kept: AU holds no tags\n")
        let wav = try aurender([flac, "/dev/null", "--type", "wav"])
        #expect(wav.status == 0)
        #expect(wav.standardError == "aurender: /dev/null: tags not kept: an output to a pipe or device carries tags only where its encoder "
                + "writes them before the audio (FLAC, Ogg Vorbis, Opus, MP3)\n")
    }

    @Test func aKeyAVorbisCommentCannotNameIsNamedAsNotKept() throws {
        let folder = try TemporaryFolder()
        guard TaggedFiles.hasTool("lame"), TaggedFiles.hasTool("mid3v2") else { return }
        let wav = folder.file("tone.wav"), mp3 = folder.file("odd.mp3")
        try TaggedFiles.toneWAV(at: wav)
        try #require(try TaggedFiles.run("lame", ["--quiet", "--tt", "Song", wav, mp3]) != nil)
        try #require(try TaggedFiles.run("python3", ["-c", """
            from mutagen.id3 import ID3, TXXX
            tag = ID3('\(mp3)'); tag.add(TXXX(desc='A~B', text='odd')); tag.save()
            """]) != nil)
        let result = try aurender([mp3, "-", "--type", "flac"])
        #expect(result.status == 0)
        #expect(result.standardError == "aurender: -: tags not kept: A~B\n")
        let output = folder.file("piped.flac")
        try result.standardOutput.write(to: URL(fileURLWithPath: output))
        #expect(try TaggedFiles.metaflacTags(output)?.first { $0.0 == "TITLE" }?.1 == "Song")
    }
}

/// Tags in a format TagLib does not read come through FFmpeg's reading of them.
@Suite struct FFmpegReadTagsTests {
    /// A DSF file (Sony's DSD stream file) of one block of stereo DSD, with an ID3v2.3 tag at its end holding `title`.
    static func dsf(title: String) -> [UInt8] {
        func little(_ value: Int, _ count: Int) -> [UInt8] { (0..<count).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }
        let block = 4_096, channels = 2
        // An alternating pattern: DSD's idle tone, which decodes to silence.
        let data = [UInt8](repeating: 0x69, count: block * channels)
        let text = [3] + Array(title.utf8)
        let frame = Array("TIT2".utf8) + [0, 0, UInt8(text.count >> 7), UInt8(text.count & 0x7F)] + [0, 0] + text
        let id3 = Array("ID3".utf8) + [3, 0, 0] + [0, 0, UInt8(frame.count >> 7), UInt8(frame.count & 0x7F)] + frame
        let metadataOffset = 28 + 52 + 12 + data.count
        let total = metadataOffset + id3.count
        var file = Array("DSD ".utf8) + little(28, 8) + little(total, 8) + little(metadataOffset, 8)
        file += Array("fmt ".utf8) + little(52, 8) + little(1, 4) + little(0, 4) + little(2, 4) + little(channels, 4)
        file += little(2_822_400, 4) + little(1, 4) + little(block * 8, 8) + little(block, 4) + little(0, 4)
        file += Array("data".utf8) + little(12 + data.count, 8) + data
        return file + id3
    }

    @Test func aDSFsID3TagIsReadByFFmpegAndCarried() throws {
        let folder = try TemporaryFolder()
        let input = folder.file("tagged.dsf"), output = folder.file("out.flac")
        try Data(Self.dsf(title: "Idle")).write(to: URL(fileURLWithPath: input))
        let result = try aurender([input, output, "--rate", "44100"])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardError == "aurender: \(input): tags read by FFmpeg (TITLE), without pictures: TagLib reads no tags in DSF files\n")
        #expect(try TaggedFiles.metaflacTags(output)?.first { $0.0 == "TITLE" }?.1 == "Idle")
    }
}
