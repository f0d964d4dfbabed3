import Foundation
import Testing
import TestSupport

/// Inputs on standard input are read once, with their header, and lengths a stream does not
/// state are shown as unknown.
@Suite struct StandardInputTests {
    private func contents(_ path: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: path)) }

    /// An AU stream whose header leaves the size open, as one written to a pipe.
    private func openEndedAU(frames: Int) -> Data {
        var bytes = Array(".snd".utf8)
        for field: UInt32 in [24, 0xFFFF_FFFF, 3, 8000, 1] { withUnsafeBytes(of: field.bigEndian) { bytes += $0 } }
        return Data(bytes + [UInt8](repeating: 0x10, count: frames * 2))
    }

    @Test func flacOnStandardInputDecodes() throws {
        let folder = try TemporaryFolder()
        let result = try aurender(["-", folder.file("x.wav")], input: try contents(fixture("music.flac")))
        #expect(result.status == 0, "\(result.standardError)")
        #expect(try samples(of: folder.file("x.wav")).samples == (try samples(of: fixture("music.wav")).samples))
    }

    @Test(arguments: [["-v"], ["--channel-map", "0,0"]])
    func optionsThatReadTheInputDoNotEatItsHeader(extra: [String]) throws {
        let folder = try TemporaryFolder()
        let result = try aurender(["-", folder.file("out.wav")] + extra, input: try contents(fixture("music.wav")))
        #expect(result.status == 0, "\(result.standardError)")
        let written = try samples(of: folder.file("out.wav"))
        #expect(written.samples.count == 132_300 * 2)
        let source = try samples(of: fixture("music.wav")).samples
        let expected = extra.contains("0,0") ? (0..<132_300).flatMap { [source[2 * $0], source[2 * $0]] } : source
        #expect(written.samples == expected)
    }

    /// A mix and a graph file plan and render from one opening of each input, so standard input
    /// keeps its header through `--verbose`.
    @Test func mixesAndGraphsReadStandardInputOnce() throws {
        let folder = try TemporaryFolder()
        let music = try contents(fixture("music.wav"))
        let mix = try aurender(["mix", "-", "-o", folder.file("mix.wav"), "-v", "--dither", "none"], input: music)
        #expect(mix.status == 0, "\(mix.standardError)")
        #expect(try samples(of: folder.file("mix.wav")).samples == (try samples(of: fixture("music.wav")).samples))
        try Data(#"{"nodes": [{"name": "in", "type": "file", "path": "-"}, {"name": "out", "type": "output", "path": "g.wav"}], "connections": [{"from": "in", "to": "out"}]}"#.utf8)
            .write(to: URL(fileURLWithPath: folder.file("g.json")))
        let graph = try aurender([folder.file("g.json"), "-v"], input: music)
        #expect(graph.status == 0, "\(graph.standardError)")
        #expect(try samples(of: folder.file("g.wav")).samples == (try samples(of: fixture("music.wav")).samples))
    }

    @Test func infoShowsAnUnknownLengthAsUnknown() throws {
        let text = try aurender(["info", "-"], input: openEndedAU(frames: 800))
        #expect(text.status == 0)
        #expect(text.output.contains("Frames      : unknown\n") && text.output.contains("Duration    : unknown"))
        let json = try aurender(["info", "-", "--json"], input: openEndedAU(frames: 800))
        #expect(json.output.contains("\"frames\" : null") && json.output.contains("\"durationSeconds\" : null"))
    }

    @Test func aFadeOutOnAStreamOfUnknownLengthIsRefused() throws {
        let folder = try TemporaryFolder()
        let result = try aurender(["-", folder.file("out.wav"), "--fade-out", "2s"], input: openEndedAU(frames: 32000))
        #expect(result.status == 64)
        #expect(result.standardError == "aurender: -: a fade-out needs the input's length, and this stream does not state it\n")
        #expect(folder.contents().isEmpty)
    }

    @Test func aDamagedFormatIsRefusedByName() throws {
        let folder = try TemporaryFolder()
        let input = folder.file("in.m4a")
        try WaveFile.write([0, 0, 0, 0x20] + Array("ftypM4A ".utf8) + [0, 0, 0, 0] + Array("stsd....mp4a".utf8), to: input)
        let result = try aurender([input, folder.file("out.wav")])
        #expect(result.status == 65)
        #expect(result.standardError
            == "aurender: \(input): MPEG-4 audio (AAC) that FFmpeg cannot read (its data is not valid: damaged, or holding no audio FFmpeg knows)\n")
    }
}
