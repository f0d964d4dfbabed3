import Aurender
import Foundation
import TestSupport
import Testing

/// `--trim-silence` and `--silence-margin`, and `silence` nodes in graph files and mixes: run
/// through the built binary, and through the library's jobs where the count of passes matters.
@Suite struct SilenceTrimTests {
    /// Quiet noise (−66 dBFS peak) for 1 s, a 1 kHz tone at −6 dBFS for 1 s whose first and last
    /// frames are loud (a cosine), then quiet noise for 2 s, on the left; quiet noise all along
    /// on the right. At 44.1 kHz, the audio is frames 44100 to 88199. Per channel.
    static let toneBetweenNoise: [[Float]] = {
        let tone = (0..<44100).map { Float(0.5 * cos(2 * Double.pi * 1000 * Double($0) / 44100)) }
        return [Signal.noise(frames: 44100, amplitude: 0.0005, seed: 1) + tone + Signal.noise(frames: 88200, amplitude: 0.0005, seed: 2),
                Signal.noise(frames: 176_400, amplitude: 0.0005, seed: 3)]
    }()

    /// Writes `channels` to a float WAV at `rate`.
    func write(_ channels: [[Float]], rate: Int = 44100, to path: String) throws {
        try writeFloats((0..<channels[0].count).flatMap { frame in channels.map { $0[frame] } }, channels: channels.count, rate: rate, to: path)
    }

    /// Frames `range` of `channels`, interleaved, as a float output holds them.
    func interleaved(_ channels: [[Float]], _ range: Range<Int>) -> [Float] {
        range.flatMap { frame in channels.map { $0[frame] } }
    }

    /// The report `--json` printed.
    func json(_ result: CommandResult) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: result.standardOutput) as? [String: Any])
    }

    /// The report's one silence trim.
    func trim(in report: [String: Any]) throws -> [String: Any] {
        let trims = try #require(report["silenceTrims"] as? [[String: Any]])
        #expect(trims.count == 1)
        return try #require(trims.first)
    }

    @Test func theAudioIsKeptWithAMarginAndTheReportSaysWhatWasRemoved() throws {
        let folder = try TemporaryFolder()
        try write(Self.toneBetweenNoise, to: folder.file("in.wav"))
        let result = try aurender([folder.file("in.wav"), folder.file("out.wav"), "--trim-silence", "-60", "--json", "-v"])
        #expect(result.status == 0, "\(result.standardError)")
        let output = try samples(of: folder.file("out.wav")).samples
        #expect(output.count == 2 * (44100 + 2 * 4410))
        #expect(output == interleaved(Self.toneBetweenNoise, 39690..<92610), "the first and last 0.1 s are the noise around the tone")
        let report = try json(result)
        #expect(report["frames"] as? Int == 52920)
        let trim = try trim(in: report)
        #expect(trim["node"] as? String == "silence" && trim["thresholdDB"] as? Double == -60 && trim["marginSeconds"] as? Double == 0.1)
        #expect(trim["removedLeadingFrames"] as? Int == 39690 && trim["removedTrailingFrames"] as? Int == 83790)
        #expect(abs((trim["removedLeadingSeconds"] as? Double ?? 0) - 0.9) < 1e-9 && abs((trim["removedTrailingSeconds"] as? Double ?? 0) - 1.9) < 1e-9)
        #expect(result.standardError.contains("\naurender: silence: removed 0.9 s (39690 frames) at the start and 1.9 s (83790 frames) "
                                              + "at the end, below -60 dB with a margin of 0.1 s\n"), "\(result.standardError)")

        let plain = try aurender([folder.file("in.wav"), folder.file("plain.wav"), "--json"])
        #expect(try json(plain)["silenceTrims"] == nil, "a render without a trim reports none")
    }

    @Test(arguments: [(["--trim-silence", "-60dB", "--silence-margin", "50ms"], 2205), (["--trim-silence", "-60dBFS", "--silence-margin", "441f"], 441),
                      (["--trim-silence=-60", "--silence-margin", "0"], 0)])
    func theMarginIsATime(arguments: [String], margin: Int) throws {
        let folder = try TemporaryFolder()
        try write(Self.toneBetweenNoise, to: folder.file("in.wav"))
        let result = try aurender([folder.file("in.wav"), folder.file("out.wav")] + arguments)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(try samples(of: folder.file("out.wav")).samples == interleaved(Self.toneBetweenNoise, (44100 - margin)..<(88200 + margin)))
    }

    @Test func anInputBelowTheThresholdGivesAnEmptyOutputAndSaysSo() throws {
        let folder = try TemporaryFolder()
        try write([Signal.noise(frames: 88200, amplitude: 0.0005)], to: folder.file("hiss.wav"))
        for quiet in [[], ["-q"]] {
            let result = try aurender([folder.file("hiss.wav"), folder.file("out.wav"), "--trim-silence", "-60", "--json"] + quiet)
            #expect(result.status == 0)
            #expect(result.standardError == "aurender: \(folder.file("out.wav")): nothing reached the silence threshold of -60 dB; "
                    + "all 2 s (88200 frames) removed, and the output is empty\n", "said even with \(quiet)")
            #expect(try samples(of: folder.file("out.wav")).samples.isEmpty)
            let trim = try trim(in: try json(result))
            #expect(trim["removedLeadingFrames"] as? Int == 88200 && trim["removedTrailingFrames"] as? Int == 0)
        }
    }

    @Test func standardInputAndPipesAreRefusedAsTheyCannotBeReadTwice() throws {
        let folder = try TemporaryFolder()
        try write(Self.toneBetweenNoise, to: folder.file("in.wav"))
        let stream = try aurender([folder.file("in.wav"), "-", "--type", "au"])
        let result = try aurender(["-", folder.file("out.wav"), "--trim-silence", "-60"], input: stream.standardOutput)
        #expect(result.status == 64)
        #expect(result.standardError == "aurender: -: silence trimming reads the input twice, so it cannot be standard input\n")
        for (flag, value, feature) in [("--trim-silence", "-60", "silence trimming"), ("--normalize", "-16", "loudness normalization")] {
            let pipe = try aurender(["/dev/stdin", folder.file("out.wav"), flag, value], input: stream.standardOutput)
            #expect(pipe.status == 64, "a pipe by another name is refused too, rather than read empty the second time")
            #expect(pipe.standardError == "aurender: /dev/stdin: \(feature) reads the input twice, so it cannot be a pipe\n")
        }
        #expect(folder.contents() == ["in.wav"])
    }

    @Test(arguments: [
        (["--trim-silence", "-130"], "Error: --trim-silence must be from -120 to 0 dB, not -130"),
        (["--trim-silence", "3dB"], "Error: --trim-silence must be from -120 to 0 dB, not 3dB"),
        (["--trim-silence", "-60LUFS"], "Error: The value '-60LUFS' is invalid for '--trim-silence <dB>'"),
        (["--trim-silence", "quiet"], "Error: The value 'quiet' is invalid for '--trim-silence <dB>'"),
        (["--silence-margin", "1s"], "Error: --silence-margin applies with --trim-silence"),
        (["--trim-silence", "-60", "--silence-margin", "soon"], "Error: The value 'soon' is invalid for '--silence-margin <time>'"),
    ])
    func badValuesAreRefusedNamingTheFlag(arguments: [String], message: String) throws {
        let folder = try TemporaryFolder()
        try write(Self.toneBetweenNoise, to: folder.file("in.wav"))
        let result = try aurender([folder.file("in.wav"), folder.file("out.wav")] + arguments)
        #expect(result.status == 64)
        #expect(result.standardError.split(separator: "\n").first.map(String.init) == message, "\(result.standardError)")
        #expect(folder.contents() == ["in.wav"])
    }

    @Test func thePlanShowsTheTrimFirstAfterTheConverter() throws {
        let folder = try TemporaryFolder()
        try write(Self.toneBetweenNoise, to: folder.file("in.wav"))
        let result = try aurender([folder.file("in.wav"), folder.file("out.wav"), "--trim-silence", "-50", "--rate", "22050", "--eq", "Rock",
                                   "--gain", "-3", "--dry-run"])
        #expect(result.status == 0, "\(result.standardError)")
        let nodes = result.output.split(separator: "\n").compactMap { line in line.range(of: "]--> ").map { String(line[$0.upperBound...]) } }
        #expect(nodes.map { $0.prefix { $0 != " " } } == ["converter", "silence", "eq", "gain", "output", "output"], "\(result.output)")
        #expect(nodes[1] == "silence (threshold -50 dB, margin 0.1 s (2205 frames); the audible range is measured when rendering)")
        #expect(folder.contents() == ["in.wav"])
    }

    @Test func aFadeOutLandsAtTheTrimmedEnd() throws {
        let folder = try TemporaryFolder()
        try write(Self.toneBetweenNoise, to: folder.file("in.wav"))
        let result = try aurender([folder.file("in.wav"), folder.file("out.wav"), "--trim-silence", "-60", "--fade-out", "0.5s"])
        #expect(result.status == 0, "\(result.standardError)")
        let output = try samples(of: folder.file("out.wav")).samples
        let frames = output.count / 2, kept = interleaved(Self.toneBetweenNoise, 39690..<92610)
        #expect(frames == 52920)
        #expect(Array(output[..<(2 * (frames - 22050))]) == Array(kept[..<(2 * (frames - 22050))]), "untouched before the fade")
        #expect(output[2 * (frames - 1)] == 0 && output[2 * frames - 1] == 0, "silent at the trimmed end")
        let middle = frames - 11025, gain = Float(11024) / Float(22049)
        #expect(abs(output[2 * middle] - kept[2 * middle] * gain) <= 1e-6, "half way down the fade at the trimmed end")

        let chain = ["--eq", "Rock", "--gain", "-3", "--fade-in", "0.2s", "--fade-out", "0.5s"]
        #expect(try aurender([folder.file("in.wav"), folder.file("kept.wav"), "--trim-silence", "-60"]).status == 0)
        #expect(try aurender([folder.file("kept.wav"), folder.file("after.wav")] + chain).status == 0)
        #expect(try aurender([folder.file("in.wav"), folder.file("both.wav"), "--trim-silence", "-60"] + chain).status == 0)
        #expect(bytes(folder.file("both.wav")) == bytes(folder.file("after.wav")), "the EQ, gain and fades see the trimmed input, as a file holding it")
    }

    /// A 1 kHz tone at −20 dBFS between 1.5 s of digital silence before and 2.5 s after, in stereo at 48 kHz.
    func writeQuietTone(to path: String) throws {
        let tone = Signal.sine(frequency: 1000, sampleRate: 48000, frames: 96000, amplitude: 0.1)
        let channel = [Float](repeating: 0, count: 72000) + tone + [Float](repeating: 0, count: 120_000)
        try write([channel, channel], rate: 48000, to: path)
    }

    /// The integrated loudness `aurender info --loudness` measures in `path`.
    func integratedLoudness(of path: String) throws -> Double {
        let result = try aurender(["info", "--loudness", "--json", path])
        let files = try #require(try JSONSerialization.jsonObject(with: result.standardOutput) as? [[String: Any]])
        return try #require((files.first?["loudness"] as? [String: Any])?["integratedLUFS"] as? Double)
    }

    @Test func normalizingATrimmedRenderMeasuresTheTrimmedAudio() throws {
        let folder = try TemporaryFolder()
        try writeQuietTone(to: folder.file("in.wav"))
        let result = try aurender([folder.file("in.wav"), folder.file("out.wav"), "--trim-silence", "-60", "--normalize", "-16", "--json", "-v"])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(abs(try integratedLoudness(of: folder.file("out.wav")) - -16) <= 0.05, "the trimmed output is at the target")
        let report = try json(result)
        #expect(report["frames"] as? Int == 95999 + 2 * 4800, "the sine's first sample is 0, so its audio is 95999 frames")
        let trim = try trim(in: report)
        #expect(trim["removedLeadingFrames"] as? Int == 72001 - 4800 && trim["removedTrailingFrames"] as? Int == 120_000 - 4800)
        #expect(report["normalization"] is [String: Any])
        #expect(result.standardError.contains("aurender: silence: removed") && result.standardError.contains("aurender: normalize: measured"))
        let untrimmed = try aurender([folder.file("in.wav"), folder.file("whole.wav"), "--normalize", "-16"])
        #expect(untrimmed.status == 0)
        #expect(abs(try integratedLoudness(of: folder.file("whole.wav")) - -16) <= 0.05)
    }

    /// The frames a render of `input` counted over all its passes, trimming and normalizing.
    func framesCounted(_ input: String, output: String) throws -> (counted: Int64, written: Int64) {
        let progress = RenderProgress()
        var job = RenderJob(input: input, output: OutputDestination(output)) { format in
            [SilenceTrimNode(thresholdDecibels: -60, marginFrames: 4800)]
        }
        job.options.finishing.normalization = LoudnessNormalization(target: -16)
        job.options.settings.progress = progress
        let summary = try job.run()
        #expect(summary.normalization != nil && summary.silenceTrims.count == 1)
        return (progress.framesDone, summary.frames)
    }

    @Test func trimmingAndNormalizingMeasureTheSilenceThenTheTrimmedLoudness() throws {
        let folder = try TemporaryFolder()
        try writeQuietTone(to: folder.file("quiet.wav"))
        let trimmed = try framesCounted(folder.file("quiet.wav"), output: folder.file("b.wav"))
        #expect(trimmed.written == 105_599)
        #expect(trimmed.counted == 288_000 + 2 * 105_599, "the whole input read for its silence, then the trimmed render measured and rendered")
        let tone = Signal.sine(frequency: 1000, sampleRate: 48000, frames: 96000, amplitude: 0.1).map { $0 >= 0 ? $0 + 0.01 : $0 - 0.01 }
        try write([tone], rate: 48000, to: folder.file("loud.wav"))
        let whole = try framesCounted(folder.file("loud.wav"), output: folder.file("a.wav"))
        #expect(whole.written == 96000 && whole.counted == 3 * 96000)
    }

    @Test func aGraphFileTrimsWithASilenceNode() throws {
        let folder = try TemporaryFolder()
        try write(Self.toneBetweenNoise, to: folder.file("in.wav"))
        try Data("""
            {"nodes": [{"name": "in", "type": "file", "path": "in.wav"},
                       {"name": "trim", "type": "silence", "threshold": "-60dB", "margin": "50ms"},
                       {"name": "out", "type": "output", "path": "out.wav"}],
             "connections": [{"from": "in", "to": "trim"}, {"from": "trim", "to": "out"}]}
            """.utf8).write(to: URL(fileURLWithPath: folder.file("g.json")))
        let plan = try aurender([folder.file("g.json"), "--dry-run"])
        #expect(plan.status == 0, "\(plan.standardError)")
        #expect(plan.output.contains("node    trim (threshold -60 dB, margin 0.05 s (2205 frames); the audible range is measured when rendering)\n"),
                "\(plan.output)")
        let result = try aurender([folder.file("g.json"), "--json"])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(try samples(of: folder.file("out.wav")).samples == interleaved(Self.toneBetweenNoise, 41895..<90405))
        let trim = try trim(in: try json(result))
        #expect(trim["node"] as? String == "trim" && trim["removedLeadingFrames"] as? Int == 41895 && trim["removedTrailingFrames"] as? Int == 85995)
        let refused = try aurender([folder.file("g.json"), "--trim-silence", "-60"])
        #expect(refused.status == 64)
        #expect(refused.standardError == "aurender: \(folder.file("g.json")): --trim-silence does not apply to a graph file, whose nodes and "
                + "events state it; set it in the graph\n")
    }

    @Test func aMixTrimsAnInputThatHasASilenceNode() throws {
        let folder = try TemporaryFolder()
        try write(Self.toneBetweenNoise, to: folder.file("a.wav"))
        try write([[Float](repeating: 0.25, count: 1000), [Float](repeating: 0.25, count: 1000)], to: folder.file("b.wav"))
        var trimmed = MixJob.Input(path: folder.file("a.wav"))
        trimmed.makeProcessing = { _, suffix in [SilenceTrimNode(name: "silence" + suffix, thresholdDecibels: -60, marginFrames: 0)] }
        var options = MixJob.Options()
        options.finishing.fadeOut = 0.5
        let summary = try MixJob(inputs: [trimmed, MixJob.Input(path: folder.file("b.wav"))], output: OutputDestination(folder.file("mix.wav")),
                                 options: options).run()
        #expect(summary.frames == 44100, "the mix ends with its longest input, trimmed to its tone")
        #expect(summary.silenceTrims.map(\.node) == ["silence 1"])
        #expect(summary.silenceTrims.first?.removedAtStart == 44100)
        let mix = try samples(of: folder.file("mix.wav")).samples
        #expect(mix.count == 2 * 44100 && mix[mix.count - 1] == 0 && mix[mix.count - 2] == 0, "the fade-out ends at the trimmed end")
    }
}
