import Foundation
import TestSupport
import Testing

/// `--decoder` on render (single, batch, graph file) and mix: every input read by the decoder named.
@Suite struct DecoderChoiceTests {
    @Test func aWavForcedThroughFFmpegGivesLibsndfilesSamples() throws {
        let folder = try TemporaryFolder()
        let forced = try aurender([fixture("music.wav"), folder.file("ffmpeg.wav"), "--bits", "float", "--decoder", "ffmpeg"])
        #expect(forced.status == 0, "\(forced.standardError)")
        #expect(try aurender([fixture("music.wav"), folder.file("sndfile.wav"), "--bits", "float"]).status == 0)
        let (_, throughFFmpeg) = try samples(of: folder.file("ffmpeg.wav"))
        let (_, throughSndfile) = try samples(of: folder.file("sndfile.wav"))
        #expect(throughFFmpeg.count == 132300 * 2)
        #expect(throughFFmpeg == throughSndfile)
    }

    @Test func anM4aForcedThroughSndfileIsRefusedNamingTheFile() throws {
        let folder = try TemporaryFolder()
        let result = try aurender([fixture("ffmpeg/aac.m4a"), folder.file("out.wav"), "--decoder", "sndfile"])
        #expect(result.status == 65)
        #expect(result.standardError.hasPrefix("aurender: \(fixture("ffmpeg/aac.m4a")): not audio libsndfile can decode"), "\(result.standardError)")
        #expect(!FileManager.default.fileExists(atPath: folder.file("out.wav")))
    }

    @Test func theMixPlanNamesEachInputsDecoder() throws {
        let folder = try TemporaryFolder()
        let chosen = try aurender(["mix", fixture("music.wav"), fixture("ffmpeg/aac.m4a"), "-o", folder.file("mix.wav"), "--dry-run"])
        #expect(chosen.status == 0, "\(chosen.standardError)")
        let inputs = chosen.output.split(separator: "\n").filter { $0.hasPrefix("input ") }
        #expect(inputs.count == 2)
        #expect(inputs.first?.hasSuffix(", decoded by libsndfile") == true, "\(chosen.output)")
        #expect(inputs.last?.hasSuffix(", decoded by FFmpeg") == true, "\(chosen.output)")
        let forced = try aurender(["mix", fixture("music.wav"), fixture("ffmpeg/aac.m4a"), "-o", folder.file("mix.wav"), "--dry-run",
                                   "--decoder", "ffmpeg"])
        #expect(forced.status == 0, "\(forced.standardError)")
        #expect(forced.output.split(separator: "\n").filter { $0.hasPrefix("input ") && $0.hasSuffix(", decoded by FFmpeg") }.count == 2)
    }

    @Test func aBatchReadsEveryInputWithTheDecoderNamed() throws {
        let folder = try TemporaryFolder()
        let result = try aurender(["-v", "--decoder", "ffmpeg", "-o", folder.file("out"), fixture("music.wav"), fixture("speech.flac")])
        #expect(result.status == 0, "\(result.standardError)")
        let inputs = result.standardError.split(separator: "\n").filter { $0.hasPrefix("aurender: input ") }
        #expect(inputs.count == 2, "\(result.standardError)")
        #expect(inputs.allSatisfy { $0.hasSuffix(", decoded by FFmpeg") }, "\(result.standardError)")
    }

    @Test func aGraphFilesFileNodesTakeTheDecoderNamed() throws {
        let folder = try TemporaryFolder()
        try FileManager.default.copyItem(atPath: fixture("music.wav"), toPath: folder.file("in.wav"))
        try Data("""
            {"nodes": [{"name": "in", "type": "file", "path": "in.wav"},
                       {"name": "mix", "type": "mixer"},
                       {"name": "out", "type": "output", "path": "out.wav"}],
             "connections": [{"from": "in", "to": "mix"}, {"from": "mix", "to": "out"}]}
            """.utf8).write(to: URL(fileURLWithPath: folder.file("g.json")))
        let plan = try aurender([folder.file("g.json"), "--dry-run", "--decoder", "ffmpeg"])
        #expect(plan.status == 0, "\(plan.standardError)")
        #expect(plan.output.hasPrefix("file    in: \(folder.file("in.wav")), "), "\(plan.output)")
        #expect(plan.output.split(separator: "\n").first?.hasSuffix(", decoded by FFmpeg") == true, "\(plan.output)")
    }

    @Test func anUnknownDecoderIsAUsageErrorListingTheDecoders() throws {
        let folder = try TemporaryFolder()
        let result = try aurender([fixture("music.wav"), folder.file("out.wav"), "--decoder", "gstreamer"])
        #expect(result.status == 64)
        #expect(result.standardError.hasPrefix("Error: --decoder: no decoder called gstreamer in this build; give one of vorbisfile, opus, sndfile, mpg123, ffmpeg\n"),
                "\(result.standardError)")
        #expect(!FileManager.default.fileExists(atPath: folder.file("out.wav")))
    }
}
