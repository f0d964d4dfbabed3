import Foundation
import TestSupport
import Testing

/// What aurender writes, read back by taggers users run: kid3-cli on every container that holds
/// tags, eyeD3 on MP3, AtomicParsley on M4A. The input is a FLAC tagged by metaflac with a front
/// cover; each output must give the same title, artist, album, date, track and cover to a tool
/// other than TagLib's own reading. `make deps` installs the three taggers.
@Suite struct TaggerReadbackTests {
    static let tags = [("TITLE", "Ünïcode Song"), ("ARTIST", "The Artist"), ("ALBUM", "The Album"), ("DATE", "2024"),
                       ("TRACKNUMBER", "3"), ("TRACKTOTAL", "12"), ("GENRE", "Jazz")]

    /// Runs `/usr/bin/<tool>`, which must be installed; its standard output (nil when it failed).
    func run(_ tool: String, _ arguments: [String]) throws -> String? {
        try #require(TaggedFiles.hasTool(tool), "\(tool) is missing: make deps installs it")
        return try TaggedFiles.run(tool, arguments)
    }

    /// The tagged FLAC and its renders to each container that holds tags.
    func renders(in folder: TemporaryFolder) throws -> [String: String] {
        let input = try #require(try TaggedFiles.flac(tags: Self.tags, picture: "Cover", in: folder), "flac and metaflac: make deps")
        var outputs = ["flac": input]
        for type in ["mp3", "m4a", "opus", "ogg", "wav", "aiff"] {
            let output = folder.file("out.\(type)")
            let result = try aurender([input, output])
            // MP4's covr holds no picture type or description, and says so; nothing else is lost.
            let expected = type == "m4a" ? "aurender: \(output): cover art kept without its kind and description: 1 picture\n" : ""
            #expect(result.status == 0 && result.standardError == expected, "\(type): \(result.standardError)")
            outputs[type] = output
        }
        return outputs
    }

    @Test func kid3ReadsEveryOutputsTagsAndCover() throws {
        let folder = try TemporaryFolder()
        for (type, path) in try renders(in: folder).sorted(by: { $0.key < $1.key }) {
            let listing = try #require(try run("kid3-cli", ["-c", "get title", "-c", "get artist", "-c", "get album", "-c", "get date",
                                                            "-c", "get tracknumber", "-c", "get genre", path]), "\(type)")
            let lines = listing.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            #expect(Array(lines.prefix(4)) == ["Ünïcode Song", "The Artist", "The Album", "2024"], "\(type): \(lines)")
            // ID3v2, MP4, RIFF INFO and AIFF's ID3 hold a track's total in one field; Vorbis comments in TRACKTOTAL.
            #expect(lines.count > 5 && ["3/12", "3"].contains(lines[4]) && lines[5] == "Jazz", "\(type): \(lines)")
            guard type != "wav" else { continue }  // RIFF INFO and the WAV's id3 chunk: covers are for the next test
            let exported = folder.file("cover-\(type).png")
            _ = try run("kid3-cli", ["-c", "get picture:'\(exported)'", path])
            #expect(FileManager.default.contents(atPath: exported).map([UInt8].init) == TaggedFiles.png, "\(type): the cover")
        }
    }

    @Test func eyeD3ReadsTheMP3() throws {
        let folder = try TemporaryFolder()
        let mp3 = try #require(try renders(in: folder)["mp3"])
        let listing = try #require(try run("eyeD3", ["--no-color", mp3]))
        for line in ["title: Ünïcode Song", "artist: The Artist", "album: The Album", "recording date: 2024", "track: 3/12",
                     "genre: Jazz", "FRONT_COVER Image: [Size: \(TaggedFiles.png.count) bytes] [Type: image/png]", "Description: Cover"] {
            #expect(listing.contains(line), "\(line) in \(listing)")
        }
    }

    @Test func atomicParsleyReadsTheM4A() throws {
        let folder = try TemporaryFolder()
        let m4a = try #require(try renders(in: folder)["m4a"])
        let listing = try #require(try run("AtomicParsley", [m4a, "-t"]))
        for line in ["Atom \"©nam\" contains: Ünïcode Song", "Atom \"©ART\" contains: The Artist", "Atom \"©alb\" contains: The Album",
                     "Atom \"©day\" contains: 2024", "Atom \"trkn\" contains: 3 of 12", "Atom \"©gen\" contains: Jazz",
                     "Atom \"covr\" contains: 1 piece of artwork"] {
            #expect(listing.contains(line), "\(line) in \(listing)")
        }
        #expect(!listing.contains("©too"), "no encoder stamp: \(listing)")
    }
}
