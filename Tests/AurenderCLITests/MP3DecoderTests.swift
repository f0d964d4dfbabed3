import Foundation
import TestSupport
import Testing

/// MP3 goes to libmpg123 directly, which gives the reference decode's samples (`mpg123 -w`,
/// installed by `make deps`) exactly; FFmpeg, forced, gives the same lengths with samples off
/// by float rounding. Inputs are written by aurender (libsndfile's LAME encoder, with a
/// Xing/LAME header), with tags added here.
@Suite struct MP3DecoderTests {
    static let id3v1 = Data("TAG".utf8) + Data(repeating: 0x41, count: 124) + Data([12])

    /// An ID3v2.3 tag of one title frame and padding, `size` bytes of body; with `footer`, an
    /// ID3v2.4 tag ending in a footer (its header again, spelt `3DI`).
    static func id3v2(size: Int, footer: Bool = false) -> Data {
        let title = Data("TIT2".utf8) + Data([0, 0, 0, 6, 0, 0, 0]) + Data("Hello".utf8)
        let sizeBytes = [21, 14, 7, 0].map { UInt8((size >> $0) & 0x7F) }
        let header = Data(footer ? [4, 0, 0x10] : [3, 0, 0]) + Data(sizeBytes)
        return Data("ID3".utf8) + header + title + Data(repeating: 0, count: size - title.count) + (footer ? Data("3DI".utf8) + header : Data())
    }

    /// An APEv2 tag (header, one item, footer), as taggers put before an ID3v1 tag.
    static var ape: Data {
        let item = Data([5, 0, 0, 0, 0, 0, 0, 0]) + Data("Title\0Hello".utf8)
        func block(_ flags: UInt32) -> Data {
            var data = Data("APETAGEX".utf8)
            for value in [UInt32(2000), UInt32(item.count + 32), 1, flags] { withUnsafeBytes(of: value.littleEndian) { data.append(contentsOf: $0) } }
            return data + Data(repeating: 0, count: 8)
        }
        return block(0xA000_0000) + item + block(0x8000_0000)
    }

    /// The samples of `path` as `mpg123 -e f32 -w` decodes them.
    static func reference(_ path: String, in folder: TemporaryFolder) throws -> [Float] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/mpg123")
        process.arguments = ["-q", "-e", "f32", "-w", folder.file("reference.wav"), path]
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        return try samples(of: folder.file("reference.wav")).samples
    }

    @Test(arguments: ["gapless", "id3v1", "id3v2", "ape+id3v1", "no Xing header", "id3v2 of 100 KB (cover art)", "id3v2.4 with footer"])
    func theChosenDecoderMatchesMpg123(variant: String) throws {
        let folder = try TemporaryFolder()
        let input = folder.file("in.mp3")
        if variant == "no Xing header" {
            try FileManager.default.copyItem(atPath: fixture("speech.mp3"), toPath: input)
        } else {
            let tone = Signal.sine(frequency: 440, sampleRate: 44_100, frames: 44_100)
            try writeFloats(zip(tone, tone.reversed()).flatMap { [$0, $1] }, channels: 2, rate: 44_100, to: folder.file("source.wav"))
            #expect(try aurender([folder.file("source.wav"), folder.file("lame.mp3")]).status == 0)
            let lame = try Data(contentsOf: URL(fileURLWithPath: folder.file("lame.mp3")))
            let tagged: Data = switch variant {
            case "id3v1": lame + Self.id3v1
            case "id3v2": Self.id3v2(size: 1000) + lame
            case "id3v2 of 100 KB (cover art)": Self.id3v2(size: 100_000) + lame
            case "id3v2.4 with footer": Self.id3v2(size: 20_000, footer: true) + lame
            case "ape+id3v1": lame + Self.ape + Self.id3v1
            default: lame
            }
            try tagged.write(to: URL(fileURLWithPath: input))
        }
        let reference = try Self.reference(input, in: folder)
        let info = try aurender(["info", input])
        #expect(info.output.contains("Decoder     : mpg123\n"), "\(info.output)")
        if variant != "no Xing header" {
            #expect(reference.count == 2 * 44_100, "mpg123 trims the LAME tag's delay and padding")
            #expect(info.output.contains("Frames      : 44100\n"), "the Xing header states the length: \(info.output)")
        }

        let chosen = try aurender([input, folder.file("chosen.wav"), "--bits", "float"])
        #expect(chosen.status == 0, "\(chosen.standardError)")
        #expect(try samples(of: folder.file("chosen.wav")).samples == reference, "\(variant): libmpg123 gives mpg123's samples exactly")

        let ffmpeg = try aurender([input, folder.file("ffmpeg.wav"), "--bits", "float", "--decoder", "ffmpeg"])
        #expect(ffmpeg.status == 0, "\(ffmpeg.standardError)")
        let other = try samples(of: folder.file("ffmpeg.wav")).samples
        #expect(other.count == reference.count, "FFmpeg gives the same length")
        let worst = zip(other, reference).map { abs($0 - $1) }.max() ?? 0
        #expect(worst > 0 && worst < 2e-6, "FFmpeg's samples differ by float rounding only: \(worst)")
    }

    /// Zeros between the tag and the first frame: libmpg123 finds the Xing header
    /// past them and trims as mpg123 does, and aurender reads the length there. (FFmpeg 5.1
    /// does not: it decodes the Xing frame as audio and trims nothing, 47,232 frames.)
    @Test func paddingBeforeTheFirstFrameKeepsTheStatedLength() throws {
        let folder = try TemporaryFolder()
        let tone = Signal.sine(frequency: 440, sampleRate: 44_100, frames: 44_100)
        try writeFloats(zip(tone, tone.reversed()).flatMap { [$0, $1] }, channels: 2, rate: 44_100, to: folder.file("source.wav"))
        #expect(try aurender([folder.file("source.wav"), folder.file("lame.mp3")]).status == 0)
        let input = folder.file("in.mp3")
        let lame = try Data(contentsOf: URL(fileURLWithPath: folder.file("lame.mp3")))
        try (Self.id3v2(size: 1000) + Data(repeating: 0, count: 700) + lame).write(to: URL(fileURLWithPath: input))
        let reference = try Self.reference(input, in: folder)
        #expect(reference.count == 2 * 44_100)
        let info = try aurender(["info", input])
        #expect(info.output.contains("Frames      : 44100\n"), "\(info.output)")
        let chosen = try aurender([input, folder.file("chosen.wav"), "--bits", "float"])
        #expect(chosen.status == 0, "\(chosen.standardError)")
        #expect(try samples(of: folder.file("chosen.wav")).samples == reference)
    }

    /// An MP3 led by Fraunhofer's VBRI header in a 320 kb/s frame, then 128 kb/s frames: the
    /// issue's case, where libsndfile stopped at libmpg123's estimate from the first frame's bit
    /// rate (19,599 frames of 47,232 here). No encoder here writes VBRI, so the test replaces
    /// the Info frame of a constant-rate file libsndfile writes with one; mpg123 decodes the VBRI
    /// frame as a frame of silence, and aurender gives its samples exactly, to the last frame.
    @Test func aVBRIFileDecodesToItsEndAsMpg123Does() throws {
        let folder = try TemporaryFolder()
        let tone = Signal.sine(frequency: 440, sampleRate: 44_100, frames: 44_100)
        try writeFloats(zip(tone, tone.reversed()).flatMap { [$0, $1] }, channels: 2, rate: 44_100, to: folder.file("source.wav"))
        #expect(try aurender([folder.file("source.wav"), folder.file("cbr.mp3"), "--bitrate", "128k"]).status == 0)
        let cbr = [UInt8](try Data(contentsOf: URL(fileURLWithPath: folder.file("cbr.mp3"))))
        let header = Array(cbr[0..<4])
        #expect(header[0] == 0xFF && header[2] >> 4 == 9, "MPEG-1 layer III at 128 kb/s, no tag in front")
        #expect(cbr[36..<40].elementsEqual("Info".utf8), "libsndfile's LAME writes an Info frame first")
        let frameBytes = 144 * 128_000 / 44_100 + Int((header[2] >> 1) & 1)
        let audio = Array(cbr[frameBytes...])
        var vbri = [UInt8](repeating: 0, count: 144 * 320_000 / 44_100)
        vbri[0..<4] = [header[0], header[1], 0xE0 | (header[2] & 0x0D), header[3]][...]
        func bigEndian(_ value: Int, _ count: Int) -> [UInt8] { (0..<count).reversed().map { UInt8((value >> ($0 * 8)) & 0xFF) } }
        let fields = Array("VBRI".utf8) + bigEndian(1, 2) + bigEndian(576, 2) + bigEndian(75, 2) + bigEndian(vbri.count + audio.count, 4)
            + bigEndian(audio.count / frameBytes, 4) + bigEndian(0, 2) + bigEndian(1, 2) + bigEndian(2, 2) + bigEndian(1, 2)
        vbri.replaceSubrange(36..<(36 + fields.count), with: fields)
        let input = folder.file("vbri.mp3")
        try Data(vbri + audio).write(to: URL(fileURLWithPath: input))

        let reference = try Self.reference(input, in: folder)
        #expect(reference.count == 2 * 47_232, "mpg123 decodes 41 frames of 1,152")
        let info = try aurender(["info", input])
        #expect(info.output.contains("Frames      : ~19599 (estimated)\n"), "libmpg123's estimate, marked as one: \(info.output)")
        #expect(try aurender(["info", "--exact", input]).output.contains("Frames      : 47232\n"))
        let chosen = try aurender([input, folder.file("chosen.wav"), "--bits", "float"])
        #expect(chosen.status == 0, "\(chosen.standardError)")
        #expect(try samples(of: folder.file("chosen.wav")).samples == reference)
        let twoPasses = try aurender([input, folder.file("loud.wav"), "--normalize", "-30"])
        #expect(twoPasses.status == 0, "a second pass reads the file again from its start: \(twoPasses.standardError)")
        #expect(try samples(of: folder.file("loud.wav")).samples.count == 2 * 47_232)
    }
}
