import Aurender
import Foundation
import TestSupport
import Testing

/// `--replaygain track|album` through the built binary: the stored gain applied sample for sample,
/// a library leveled by `aurender loudness --write` rendered at −18 LUFS (libebur128 measuring),
/// an Opus file's R128 gain, a mix, a graph file's `file` node; the loudness tags left out of the
/// output; a file without a stored gain refused, or given the fallback; the options refused alone.
@Suite struct ReplayGainCommandTests {
    /// A stereo 44.1 kHz float WAV of 4 s: a tone and noise at `level` (linear).
    func writeTake(level: Float, seed: UInt64, to path: String) throws {
        var state = seed
        var samples: [Float] = []
        for frame in 0..<(4 * 44100) {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            let noise = Float(Double(state >> 11) / Double(1 << 53) * 2 - 1) * 0.3
            let tone = sin(Float(frame) * 2 * .pi * 440 / 44100) * 0.5
            samples += [(tone + noise) * level, (tone - noise) * level]
        }
        try writeFloats(samples, channels: 2, rate: 44100, to: path)
    }

    /// libebur128's measurement of a file.
    func measurement(_ path: String) throws -> LoudnessMeasurement {
        let (format, all) = try samples(of: path)
        let meter = try LoudnessMeter(channelCount: format.channels, sampleRate: Int(format.rate))
        try all.withUnsafeBufferPointer { try meter.add($0.baseAddress!, frames: all.count / format.channels) }
        return meter.measurement()
    }

    /// libebur128's integrated loudness of a file, in LUFS.
    func loudness(_ path: String) throws -> Double { try #require(try measurement(path).integrated) }

    @Test func theStoredGainIsAppliedSampleForSampleAndItsTagsAreNotCarried() throws {
        let folder = try TemporaryFolder()
        try writeTake(level: 0.5, seed: 1, to: folder.file("take.wav"))
        let tagged = folder.file("tagged.flac"), leveled = folder.file("leveled.flac")
        let tagging = try aurender(["--bits", "24", "--tag", "TITLE=Take", "--tag", "REPLAYGAIN_TRACK_GAIN=-6.50 dB",
                                    "--tag", "REPLAYGAIN_TRACK_PEAK=0.9", folder.file("take.wav"), tagged])
        #expect(tagging.status == 0, "\(tagging.standardError)")

        let result = try aurender(["--replaygain", "track", "-v", tagged, leveled])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardError.contains("replaygain: \(tagged): track gain -6.50 dB (REPLAYGAIN_TRACK_GAIN), applied -6.50 dB"),
                "\(result.standardError)")
        let before = try samples(of: tagged).samples, after = try samples(of: leveled).samples
        #expect(before.count == after.count && before.count == 4 * 44100 * 2)
        let factor = Float(pow(10, -6.5 / 20))
        let worst = zip(before, after).map { abs($0 * factor - $1) }.max() ?? 1
        #expect(worst < 2e-7, "24-bit steps are 1.2e-7: \(worst)")
        let tags = try #require(try TaggedFiles.metaflacTags(leveled))
        #expect(tags.map(\.0) == ["TITLE"], "the leveled output carries no gain to apply again: \(tags)")
    }

    @Test func aLibraryLeveledByTheLoudnessCommandRendersAtMinus18LUFS() throws {
        let folder = try TemporaryFolder()
        try FileManager.default.createDirectory(atPath: folder.file("album"), withIntermediateDirectories: true)
        for (index, level) in [Float(0.3), 0.6].enumerated() {
            try writeTake(level: level, seed: UInt64(index + 2), to: folder.file("take\(index).wav"))
            #expect(try aurender(["--bits", "24", folder.file("take\(index).wav"), folder.file("album/\(index).flac")]).status == 0)
        }
        let written = try aurender(["loudness", "--write", folder.file("album")])
        #expect(written.status == 0, "\(written.standardError)")

        var track: [Double] = [], album: [Double] = []
        for index in 0..<2 {
            let input = folder.file("album/\(index).flac")
            for (mode, levels) in [("track", 0), ("album", 1)] {
                let output = folder.file("\(mode)\(index).wav")
                let result = try aurender(["--replaygain", mode, "--bits", "float", input, output])
                #expect(result.status == 0, "\(result.standardError)")
                if levels == 0 { track.append(try loudness(output)) } else { album.append(try loudness(output)) }
            }
        }
        for level in track { #expect(abs(level - -18) <= 0.05, "\(track)") }
        let inputs = [try loudness(folder.file("take0.wav")), try loudness(folder.file("take1.wav"))]
        #expect(abs((album[1] - album[0]) - (inputs[1] - inputs[0])) <= 0.02, "an album keeps its tracks' balance: \(album) \(inputs)")
        #expect(album[0] < -18 && album[1] > -18, "the album between its quiet and its loud track: \(album)")
    }

    @Test func anOpusFileIsPlayedBackByItsR128Gain() throws {
        let folder = try TemporaryFolder()
        try writeTake(level: 0.6, seed: 4, to: folder.file("take.wav"))
        let opus = folder.file("take.opus"), output = folder.file("out.wav")
        #expect(try aurender([folder.file("take.wav"), opus]).status == 0)
        #expect(try aurender(["loudness", "--write", opus]).status == 0)
        let result = try aurender(["--replaygain", "album", "--json", opus, output])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(abs(try loudness(output) - -18) <= 0.1)
        let report = try #require(try JSONSerialization.jsonObject(with: result.standardOutput) as? [String: Any])
        let applied = try #require((report["replayGain"] as? [[String: Any]])?.first)
        #expect(applied["source"] as? String == "R128_ALBUM_GAIN" && applied["mode"] as? String == "album")
        #expect(applied["storedPeak"] == nil && applied["loweredDB"] as? Double == 0)
    }

    @Test func aFileWithoutAStoredGainIsRefusedOrGivenTheFallback() throws {
        let folder = try TemporaryFolder()
        try writeTake(level: 0.5, seed: 5, to: folder.file("plain.wav"))
        let output = folder.file("out.wav")
        let refused = try aurender(["--replaygain", "track", folder.file("plain.wav"), output])
        #expect(refused.status == 65)
        #expect(refused.standardError == "aurender: \(folder.file("plain.wav")): no gain to play back by: it holds no ReplayGain, R128 or "
                + "Sound Check gain (level it with 'aurender loudness --write', or give --replaygain-fallback)\n")
        #expect(!FileManager.default.fileExists(atPath: output))

        let piped = try aurender(["--replaygain", "track", "-", output], input: try #require(bytes(folder.file("plain.wav"))))
        #expect(piped.status == 65 && piped.standardError.contains("-: no gain to play back by: the tags of a pipe or device are not read"),
                "\(piped.standardError)")

        let fallback = try aurender(["--replaygain", "track", "--replaygain-fallback", "-6", "--replaygain-preamp", "1",
                                     folder.file("plain.wav"), output])
        #expect(fallback.status == 0)
        #expect(fallback.standardError.contains("played back at the fallback gain -5.00 dB"), "\(fallback.standardError)")
        let before = try samples(of: folder.file("plain.wav")).samples, after = try samples(of: output).samples
        let factor = Float(pow(10, -5.0 / 20))
        #expect(zip(before, after).allSatisfy { abs($0 * factor - $1) < 1e-6 })
    }

    @Test func theGainIsLoweredToKeepTheStoredPeakUnderFullScale() throws {
        let folder = try TemporaryFolder()
        try writeTake(level: 1.2, seed: 6, to: folder.file("hot.wav"))
        let hot = folder.file("hot.flac")
        #expect(try aurender(["--bits", "24", "--gain", "-1", folder.file("hot.wav"), hot]).status == 0)
        #expect(try aurender(["loudness", "--write", hot]).status == 0)
        let lowered = try aurender(["--replaygain", "track", "--replaygain-preamp", "15", "--bits", "float", "-v", hot, folder.file("low.wav")])
        #expect(lowered.status == 0, "\(lowered.standardError)")
        #expect(lowered.standardError.contains("for its peak"), "\(lowered.standardError)")
        let truePeak = try #require(try measurement(folder.file("low.wav")).truePeak)
        #expect(abs(truePeak) <= 0.05, "the stored true peak is brought to full scale: \(truePeak) dBTP")
        let clipping = try aurender(["--replaygain", "track", "--replaygain-preamp", "15", "--replaygain-allow-clipping", "--bits", "float",
                                     hot, folder.file("loud.wav")])
        #expect(clipping.status == 0)
        let whole = try #require(try measurement(folder.file("loud.wav")).truePeak)
        #expect(whole > 1, "the whole gain lifts the peak over full scale: \(whole) dBTP")
    }

    @Test func aMixAndAGraphFileApplyEachInputsOwnGain() throws {
        let folder = try TemporaryFolder()
        for (index, gain) in ["-3.00 dB", "+2.00 dB"].enumerated() {
            try writeTake(level: 0.2, seed: UInt64(7 + index), to: folder.file("raw\(index).wav"))
            #expect(try aurender(["--tag", "REPLAYGAIN_TRACK_GAIN=\(gain)", "--bits", "24", folder.file("raw\(index).wav"),
                                  folder.file("in\(index).flac")]).status == 0)
        }
        let mix = try aurender(["mix", "--replaygain", "track", "--json", folder.file("in0.flac"), folder.file("in1.flac"), "-o", folder.file("mix.wav")])
        #expect(mix.status == 0, "\(mix.standardError)")
        let report = try #require(try JSONSerialization.jsonObject(with: mix.standardOutput) as? [String: Any])
        let applied = try #require(report["replayGain"] as? [[String: Any]])
        #expect(applied.map { $0["appliedGainDB"] as? Double } == [-3, 2])
        #expect(applied.map { $0["input"] as? String } == [folder.file("in0.flac"), folder.file("in1.flac")])

        let graph = """
            {"nodes": [{"name": "a", "type": "file", "path": "in1.flac", "replaygain": "track"},
                       {"name": "out", "type": "output", "path": "graph.wav", "bits": "float"}],
             "connections": [{"from": "a", "to": "out"}]}
            """
        try graph.write(toFile: folder.file("graph.json"), atomically: true, encoding: .utf8)
        let plan = try aurender(["--dry-run", folder.file("graph.json")])
        #expect(plan.output.contains("a replaygain (ReplayGain: track gain 2.00 dB (REPLAYGAIN_TRACK_GAIN), applied 2.00 dB)"), "\(plan.output)")
        #expect(try aurender([folder.file("graph.json")]).status == 0)
        let before = try samples(of: folder.file("in1.flac")).samples, after = try samples(of: folder.file("graph.wav")).samples
        let factor = Float(pow(10, 2.0 / 20))
        #expect(before.count == after.count && zip(before, after).allSatisfy { abs($0 * factor - $1) < 1e-6 })
    }

    @Test func theOptionsAreRefusedWhereTheyDoNotApply() throws {
        let folder = try TemporaryFolder()
        for (arguments, message) in [
            (["--replaygain-preamp", "3"], "--replaygain-preamp applies with --replaygain track|album"),
            (["--replaygain-fallback", "-6"], "--replaygain-fallback applies with --replaygain track|album"),
            (["--replaygain-allow-clipping"], "--replaygain-allow-clipping applies with --replaygain track|album"),
            (["--replaygain", "album", "--normalize", "-14"], "--replaygain and --normalize both set the level: give one"),
        ] {
            let result = try aurender(arguments + [fixture("music.wav"), folder.file("out.wav")])
            #expect(result.status == 64 && result.standardError.contains(message), "\(arguments): \(result.standardError)")
        }
        #expect(try aurender(["--replaygain", "loud", fixture("music.wav"), folder.file("out.wav")]).status == 64)
    }
}
