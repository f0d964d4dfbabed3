import Foundation
import TestSupport
import Testing

/// A file cut inside its last frame or packet, as a download that broke off leaves it, often
/// with an ID3v1 tag a tagger wrote after it: every decoder tells it as a cut, in the words and
/// exit status (65) of every other truncated input, and `--salvage` renders the whole frames
/// before it, as `mpg123` does for MP3.
@Suite struct LastFrameCutTests {
    /// The byte offset and length of each MPEG-1 layer III frame of `bytes` (no ID3v2 tag before them).
    static func mp3Frames(_ bytes: [UInt8]) -> [(offset: Int, length: Int)] {
        let kilobits = [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320], rates = [44_100, 48_000, 32_000]
        var frames: [(offset: Int, length: Int)] = [], offset = 0
        while offset + 4 <= bytes.count, bytes[offset] == 0xFF, bytes[offset + 1] & 0xE0 == 0xE0 {
            let bitRate = kilobits[Int(bytes[offset + 2] >> 4)] * 1000, rate = rates[Int((bytes[offset + 2] >> 2) & 3)]
            let length = 144 * bitRate / rate + Int((bytes[offset + 2] >> 1) & 1)
            guard length > 0 else { break }
            frames.append((offset, length))
            offset += length
        }
        return frames
    }

    /// The frames that `mpg123` decodes of `path`; nil where it is not installed.
    static func mpg123Frames(_ path: String, in folder: TemporaryFolder) throws -> Int? {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/mpg123") else { return nil }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/mpg123")
        process.arguments = ["-q", "-e", "f32", "-w", folder.file("mpg123.wav"), path]
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        return try samples(of: folder.file("mpg123.wav")).samples.count / 2
    }

    /// `fixtures/music.wav` (132,300 frames) encoded by aurender into `container`.
    static func source(_ container: String, in folder: TemporaryFolder) throws -> Data {
        let encoded = folder.file("source.\(container)")
        #expect(try aurender([fixture("music.wav"), encoded]).status == 0)
        return try Data(contentsOf: URL(fileURLWithPath: encoded))
    }

    /// Renders `input` (its last frame or packet cut) and expects the cut told in one line
    /// stating `stated` frames (nil: an Ogg stream, which states none), nothing written; then
    /// salvages it and expects the frames that line names. Returns them.
    @discardableResult
    static func expectCutAndSalvage(_ input: String, stated: Int?, in folder: TemporaryFolder,
                                    sourceLocation: SourceLocation = #_sourceLocation) throws -> Int {
        let output = folder.file("out.wav")
        let failed = try aurender([input, output])
        #expect(failed.status == 65, "\(failed.standardError)", sourceLocation: sourceLocation)
        let line = try #require(failed.standardError.split(separator: "\n").first.map(String.init), sourceLocation: sourceLocation)
        #expect(failed.standardError == line + "\n", "one line", sourceLocation: sourceLocation)
        let told = stated.map { "aurender: \(input): the file states \($0) frames but holds only " }
            ?? "aurender: \(input): the file ends early, without the end of its stream, after "
        #expect(line.hasPrefix(told) && line.hasSuffix(" (truncated or damaged)"), "\(line)", sourceLocation: sourceLocation)
        #expect(!FileManager.default.fileExists(atPath: output), "nothing written", sourceLocation: sourceLocation)
        let found = try #require(DamagedInputTests.framesFound(line), sourceLocation: sourceLocation)
        #expect(found > 0 && found < (stated ?? .max), sourceLocation: sourceLocation)

        let salvaged = try aurender([input, output, "--salvage"])
        #expect(salvaged.status == 0, "\(salvaged.standardError)", sourceLocation: sourceLocation)
        #expect(salvaged.standardError == line + "; rendered the \(found) frames that decode\n", sourceLocation: sourceLocation)
        let written = try samples(of: output)
        #expect(written.samples.count == written.format.channels * found, "the whole frames", sourceLocation: sourceLocation)
        try FileManager.default.removeItem(atPath: output)
        return found
    }

    /// An MP3 whose last frame lost `cut` of its bytes, then had an ID3v1 tag appended: with 200
    /// bytes gone the file ends before the Xing header's stream size, with 100 it ends after
    /// it (the tag is longer), and only the frame tells. Both are cuts, salvaged to the whole
    /// frames: those `mpg123` decodes of the file cut without a tag, and of the tagged file cut
    /// by 200 (cut by 100, `mpg123` reads the tag's first bytes as the rest of the last frame,
    /// and decodes that frame too).
    @Test(arguments: [200, 100])
    func anMP3CutInItsLastFrameBeforeAnID3v1Tag(cut: Int) throws {
        let folder = try TemporaryFolder()
        let whole = [UInt8](try Self.source("mp3", in: folder))
        let last = try #require(Self.mp3Frames(whole).last)
        #expect(last.offset + last.length == whole.count, "the frames run to the end")
        #expect(last.length > 300)
        let input = folder.file("cut.mp3"), plain = folder.file("plain.mp3")
        try (Data(whole.dropLast(cut)) + MP3DecoderTests.id3v1).write(to: URL(fileURLWithPath: input))
        try Data(whole.dropLast(cut)).write(to: URL(fileURLWithPath: plain))

        let found = try Self.expectCutAndSalvage(input, stated: 132_300, in: folder)
        #expect(try Self.expectCutAndSalvage(plain, stated: 132_300, in: folder) == found, "the tag changes nothing")
        #expect(found > 132_300 - 2 * 1152, "only the last frame is lost")
        if let reference = try Self.mpg123Frames(plain, in: folder) {
            #expect(found == reference, "mpg123 decodes the same whole frames")
        }
        if cut == 200, let reference = try Self.mpg123Frames(input, in: folder) {
            #expect(found == reference, "mpg123 decodes the same whole frames of the tagged file")
        }
    }

    /// FLAC (libFLAC loses sync in the cut frame), Ogg Vorbis and Opus (the last page cut), WAV
    /// (the data chunk) and AAC in an MPEG-4 file whose index comes first (FFmpeg, the fixture
    /// `ffmpeg -movflags +faststart` wrote), each cut 20 bytes short, with and without an ID3v1
    /// tag after the cut (whose bytes, inside the WAV's stated data, are not samples).
    @Test(arguments: [("flac", false), ("flac", true), ("ogg", false), ("ogg", true), ("opus", false), ("opus", true),
                      ("wav", false), ("wav", true), ("m4a", false), ("m4a", true)])
    func everyDecoderTellsALastFrameCut(container: String, tagged: Bool) throws {
        let folder = try TemporaryFolder()
        let whole = container == "m4a" ? try Data(contentsOf: URL(fileURLWithPath: fixture("ffmpeg/aac.m4a"))) : try Self.source(container, in: folder)
        let stated: Int? = ["ogg", "opus"].contains(container) ? nil : container == "m4a" ? 44_100 : 132_300
        let input = folder.file("cut.\(container)")
        try (whole.dropLast(20) + (tagged ? MP3DecoderTests.id3v1 : Data())).write(to: URL(fileURLWithPath: input))
        try Self.expectCutAndSalvage(input, stated: stated, in: folder)
    }
}
