import Foundation
import TestSupport
import Testing

/// AAC in MPEG-4 laid out as iTunes writes it — no edit list, a sample table counting the
/// encoder's priming and padding, the gapless statement in an `iTunSMPB` tag — renders the
/// tag's frames, aligned with its source; without the tag its length is only an estimate, and
/// never a reason to refuse the file; and a file cut short is told by its bytes.
@Suite struct ITunesGaplessTests {
    /// 44,100 frames of a stereo sine (440 Hz left, 660 Hz right) written by aurender as AAC
    /// with an edit list, in `folder`: the source's samples, and the `.m4a`'s bytes.
    func encodedSine(in folder: TemporaryFolder) throws -> (source: [Float], file: Data) {
        let left = Signal.sine(frequency: 440, sampleRate: 44_100, frames: 44_100)
        let right = Signal.sine(frequency: 660, sampleRate: 44_100, frames: 44_100)
        let source = zip(left, right).flatMap { [$0, $1] }
        try writeFloats(source, channels: 2, rate: 44_100, to: folder.file("source.wav"))
        let written = try aurender([folder.file("source.wav"), folder.file("edit-list.m4a")])
        #expect(written.status == 0, "\(written.standardError)")
        return (source, try Data(contentsOf: URL(fileURLWithPath: folder.file("edit-list.m4a"))))
    }

    /// The mean squared error of `output` against `source` (interleaved stereo), both channels,
    /// comparing each output frame with the source's frame `lag` later, over the middle frames.
    func error(_ output: [Float], _ source: [Float], lag: Int) -> Double {
        let frames = 4_096..<40_000
        let sum = frames.reduce(0.0) { sum, frame in
            (0..<2).reduce(sum) { sum, channel in
                let difference = Double(output[2 * frame + channel]) - Double(source[2 * (frame + lag) + channel])
                return sum + difference * difference
            }
        }
        return sum / Double(2 * frames.count)
    }

    @Test func anITunSMPBTrackRendersItsFramesAlignedWithItsSource() throws {
        let folder = try TemporaryFolder()
        let (source, whole) = try encodedSine(in: folder)
        let tagged = folder.file("itunes.m4a")
        try ITunesStyleMPEG4.rewrite(whole, statingGapless: true).write(to: URL(fileURLWithPath: tagged))
        let info = try aurender(["info", tagged])
        #expect(info.status == 0)
        #expect(info.output.contains("Frames      : 44100\n"), "\(info.output)")
        let rendered = try aurender([tagged, folder.file("itunes.wav")])
        #expect(rendered.status == 0, "\(rendered.standardError)")
        let output = try samples(of: folder.file("itunes.wav")).samples
        #expect(output.count == 2 * 44_100, "exactly the tag's frames")
        #expect(try aurender([folder.file("edit-list.m4a"), folder.file("edit-list.wav")]).status == 0)
        #expect(output == (try samples(of: folder.file("edit-list.wav")).samples), "the same frames as the edit list gives")
        let lags = [-2_112, -1_024] + Array(-8...8) + [1_024, 2_112]
        let best = lags.min { error(output, source, lag: $0) < error(output, source, lag: $1) }
        #expect(best == 0, "not shifted by the priming")
        let aligned = error(output, source, lag: 0)
        #expect(aligned.squareRoot() < 0.05, "the source's samples, to AAC's precision (half-scale sines at 128 kb/s)")
        #expect(aligned * 20 < error(output, source, lag: 1_024) && aligned * 20 < error(output, source, lag: -1_024))
    }

    /// Without an edit list or a tag, the sample table's total counts the priming and the
    /// padding: an estimate, shown as one, and the file renders what decodes.
    @Test func aTrackStatingNoLengthIsNotRefused() throws {
        let folder = try TemporaryFolder()
        let (_, whole) = try encodedSine(in: folder)
        let bare = folder.file("bare.m4a")
        try ITunesStyleMPEG4.rewrite(whole, statingGapless: false).write(to: URL(fileURLWithPath: bare))
        let info = try aurender(["info", bare])
        #expect(info.status == 0)
        #expect(info.output.contains("Frames      : ~46080 (estimated)\n"), "45 packets of 1024 frames: \(info.output)")
        let rendered = try aurender([bare, folder.file("bare.wav")])
        #expect(rendered.status == 0, "\(rendered.standardError)")
        #expect(rendered.standardError.isEmpty, "\(rendered.standardError)")
        #expect(try samples(of: folder.file("bare.wav")).samples.count == 2 * 46_080, "every frame that decodes, priming and padding too")
    }

    /// With the index before the media data, the file's end is its audio: whole, it renders as
    /// the tag says; cut (anywhere, or after a whole packet, where FFmpeg meets a clean end of
    /// file), its sample table locates samples past its end, so it fails with one line naming
    /// the tag's frames (or, with no length stated, where it ended), and `--salvage` renders
    /// what decoded; on a pipe, whose size is unknown, the stream ends before the last sample.
    /// FFmpeg's own files without an edit list (`-use_editlist 0`) in every MPEG-4 brand it
    /// writes: `info` marks the length an estimate, never stating an exact one the render does
    /// not give, and `info --exact` counts what the render gives, read from a file or, its index
    /// first, from standard input. Needs FFmpeg's command line (not installed by `make deps`).
    @Test(arguments: ["m4a", "3gp", "mov"])
    func ffmpegsFilesWithoutAnEditListStateOnlyWhatTheyRender(container: String) throws {
        guard let ffmpeg = ["/usr/bin/ffmpeg", "/usr/local/bin/ffmpeg"].first(where: FileManager.default.isExecutableFile) else { return }
        let folder = try TemporaryFolder()
        let input = folder.file("no-edit-list.\(container)")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: ffmpeg)
        process.arguments = ["-v", "error", "-i", fixture("music.wav"), "-c:a", "aac", "-use_editlist", "0", "-movflags", "+faststart", input]
        try process.run()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0)

        let info = try aurender(["info", "--json", input])
        let stated = try #require(try JSONSerialization.jsonObject(with: info.standardOutput) as? [[String: Any]])
        #expect(stated.first?["length"] as? String == "estimated", "\(info.output)")
        let rendered = try aurender([input, folder.file("out.wav")])
        #expect(rendered.status == 0 && rendered.standardError.isEmpty, "\(rendered.standardError)")
        let frames = try samples(of: folder.file("out.wav")).samples.count / 2
        #expect(frames == 134_144, "131 AAC packets of 1024 frames, priming and padding too")
        let counted = try aurender(["info", "--exact", "--json", input])
        let exact = try #require(try JSONSerialization.jsonObject(with: counted.standardOutput) as? [[String: Any]])
        #expect(exact.first?["frames"] as? Int == frames && exact.first?["length"] as? String == "exact")

        let piped = try aurender(["info", "--json", "-"], input: try Data(contentsOf: URL(fileURLWithPath: input)))
        let pipedInfo = try #require(try JSONSerialization.jsonObject(with: piped.standardOutput) as? [[String: Any]])
        #expect(pipedInfo.first?["length"] as? String == "estimated", "\(piped.output)")
    }

    @Test(arguments: [(true, false), (true, true), (false, false), (false, true)])
    func aCutFileIsToldByItsBytes(statingGapless: Bool, atPacketEnd: Bool) throws {
        let folder = try TemporaryFolder()
        let (_, whole) = try encodedSine(in: folder)
        let file = try ITunesStyleMPEG4.rewrite(whole, statingGapless: statingGapless, indexFirst: true)
        let complete = folder.file("complete.m4a"), cut = folder.file("cut.m4a")
        try file.write(to: URL(fileURLWithPath: complete))
        #expect(try aurender([complete, folder.file("complete.wav")]).status == 0)
        #expect(try samples(of: folder.file("complete.wav")).samples.count == 2 * (statingGapless ? 44_100 : 46_080))
        let ends = try ITunesStyleMPEG4.packetEnds(file)
        #expect(ends.count == 45 && ends.last == file.count, "the media data ends the file")
        try file.prefix(atPacketEnd ? ends[29] : file.count * 7 / 10).write(to: URL(fileURLWithPath: cut))
        try DamagedFFmpegInputTests().expectShortfall(
            cut, clause: statingGapless ? "states 44100 frames but holds only " : "ends early, without the end of its stream, after ",
            channels: 2, output: folder.file("out.wav"), report: folder.file("report.json"), stated: statingGapless ? 44_100 : nil)
        let piped = try aurender(["-", folder.file("piped.wav")], input: try Data(contentsOf: URL(fileURLWithPath: cut)))
        #expect(piped.status == 65, "on a pipe, the stream ends before the index's last sample: \(piped.standardError)")
        #expect(piped.standardError.hasPrefix("aurender: -: the file " + (statingGapless ? "states 44100 frames" : "ends early"))
                && piped.standardError.hasSuffix("(truncated or damaged)\n") && piped.standardError.split(separator: "\n").count == 1,
                "\(piped.standardError)")
    }
}
