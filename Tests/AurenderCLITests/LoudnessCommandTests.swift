import Foundation
import TestSupport
import Testing

/// `aurender info --loudness` and `--normalize`, run through the built binary.
@Suite struct LoudnessCommandTests {
    /// A 1 kHz sine at `dbfs` (peak), `seconds` long, on `channels` channels, at 48 kHz.
    func writeSine(dbfs: Double, seconds: Double = 10, channels: Int = 1, to path: String) throws {
        let mono = Signal.sine(frequency: 1000, sampleRate: 48000, frames: Int(seconds * 48000), amplitude: pow(10, dbfs / 20))
        try writeFloats(mono.flatMap { Array(repeating: $0, count: channels) }, channels: channels, rate: 48000, to: path)
    }

    /// The `loudness` object `aurender info --loudness --json` prints for `path`.
    func loudness(of path: String) throws -> [String: Any] {
        let result = try aurender(["info", "--loudness", "--json", path])
        #expect(result.status == 0, "\(result.standardError)")
        let files = try #require(try JSONSerialization.jsonObject(with: result.standardOutput) as? [[String: Any]])
        return try #require(files.first?["loudness"] as? [String: Any])
    }

    @Test func infoMeasuresASineAtMinus20DBFS() throws {
        let folder = try TemporaryFolder()
        try writeSine(dbfs: -20, to: folder.file("mono.wav"))
        try writeSine(dbfs: -20, channels: 2, to: folder.file("stereo.wav"))
        let mono = try loudness(of: folder.file("mono.wav")), stereo = try loudness(of: folder.file("stereo.wav"))
        #expect(abs((mono["integratedLUFS"] as? Double ?? 0) - -23.0) <= 0.1, "one channel: -23.0 LUFS")
        #expect(abs((stereo["integratedLUFS"] as? Double ?? 0) - -20.0) <= 0.1, "two channels sum their power: -20.0 LUFS")
        #expect(abs((mono["samplePeakDBFS"] as? Double ?? 0) - -20.0) <= 0.01)
        #expect(abs((mono["truePeakDBTP"] as? Double ?? 0) - -20.0) <= 0.05)
        #expect(abs((mono["reconstructedPeakDBTP"] as? Double ?? 0) - -20.0) <= 0.02, "the 8× reconstruction reads a 1 kHz crest")
        #expect((mono["loudnessRangeLU"] as? Double ?? -1) < 0.1, "a steady tone has no loudness range")
    }

    @Test func infoPrintsLoudnessAsText() throws {
        let folder = try TemporaryFolder()
        try writeSine(dbfs: -20, to: folder.file("mono.wav"))
        let result = try aurender(["info", "--loudness", folder.file("mono.wav")])
        #expect(result.status == 0)
        #expect(result.output.contains("Loudness    : -23.0 LUFS integrated, range 0.0 LU"), "\(result.output)")
        #expect(result.output.contains("True peak   : -20.0 dBTP (sample peak -20.0 dBFS)"), "\(result.output)")
        #expect(result.output.contains("8× peak     : -20.0 dBTP (reconstructed, flat to 0.45 of the rate)"), "\(result.output)")
    }

    @Test func normalizeReachesTheTargetAndReportsIt() throws {
        let folder = try TemporaryFolder()
        try writeSine(dbfs: -30, channels: 2, to: folder.file("quiet.wav"))
        let result = try aurender(["--normalize", "-16LUFS", "--bits", "float", folder.file("quiet.wav"), folder.file("loud.wav"), "--json"])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(abs((try loudness(of: folder.file("loud.wav"))["integratedLUFS"] as? Double ?? 0) - -16.0) <= 0.05)
        let report = try #require(try JSONSerialization.jsonObject(with: result.standardOutput) as? [String: Any])
        let normalization = try #require(report["normalization"] as? [String: Any])
        #expect(abs((normalization["measuredLUFS"] as? Double ?? 0) - -30.0) <= 0.1)
        #expect(abs((normalization["gainDB"] as? Double ?? 0) - 14.0) <= 0.1)
        #expect(normalization["targetLUFS"] as? Double == -16 && normalization["truePeakCeilingDBTP"] as? Double == -1)
        #expect(normalization["lowered"] as? Bool == false)
        #expect(result.standardError.isEmpty, "a normalization that reaches its target says nothing: \(result.standardError)")
    }

    @Test func normalizeMeasuresAfterTheEqualizer() throws {
        let folder = try TemporaryFolder()
        try writeSine(dbfs: -30, channels: 2, to: folder.file("quiet.wav"))
        let result = try aurender(["--normalize", "-20", "--eq", "Treble Reducer", "--bits", "float",
                                   folder.file("quiet.wav"), folder.file("out.wav")])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(abs((try loudness(of: folder.file("out.wav"))["integratedLUFS"] as? Double ?? 0) - -20.0) <= 0.05)
    }

    @Test func normalizeRefusesToPushTheTruePeakOverTheCeiling() throws {
        let folder = try TemporaryFolder()
        try writeSine(dbfs: -20, to: folder.file("tone.wav"))
        let result = try aurender(["--normalize", "-2LUFS", folder.file("tone.wav"), folder.file("out.wav")])
        #expect(result.status == 3)
        #expect(result.standardError == "aurender: \(folder.file("tone.wav")): reaching -2.0 LUFS needs +21.0 dB, which puts the true peak "
                + "at +1.0 dBTP, over the -1.0 dBTP ceiling; not written (the loudest it can be is -4.0 LUFS; or use --over-ceiling lower, or limit to reach it through a true-peak limiter)\n")
        #expect(folder.contents() == ["tone.wav"], "nothing written, no temporary file left")
    }

    @Test func overCeilingLowerStopsAtTheCeiling() throws {
        let folder = try TemporaryFolder()
        try writeSine(dbfs: -20, to: folder.file("tone.wav"))
        let result = try aurender(["--normalize", "-2LUFS", "--true-peak", "-3dBTP", "--over-ceiling", "lower", "--bits", "float",
                                   folder.file("tone.wav"), folder.file("out.wav")])
        #expect(result.status == 0)
        #expect(result.standardError.contains("normalized short of the target"), "\(result.standardError)")
        let measured = try loudness(of: folder.file("out.wav"))
        #expect(abs((measured["truePeakDBTP"] as? Double ?? 0) - -3.0) <= 0.05)
        #expect(abs((measured["integratedLUFS"] as? Double ?? 0) - -6.0) <= 0.1)
    }

    @Test func normalizeRefusesSilenceAndStandardInput() throws {
        let folder = try TemporaryFolder()
        try writeFloats([Float](repeating: 0, count: 48000), rate: 48000, to: folder.file("silence.wav"))
        let silent = try aurender(["--normalize", "-14", folder.file("silence.wav"), folder.file("out.wav")])
        #expect(silent.status == 65)
        #expect(silent.standardError == "aurender: \(folder.file("silence.wav")): too quiet or too short to normalize (no 400 ms block reaches the -70 LUFS gate)\n")
        let piped = try aurender(["--normalize", "-14", "-", folder.file("out.wav")],
                                 input: try Data(contentsOf: URL(fileURLWithPath: folder.file("silence.wav"))))
        #expect(piped.status == 64)
        try writeSine(dbfs: -6, seconds: 0.3, to: folder.file("blip.wav"))
        let short = try aurender(["--normalize", "-14", folder.file("blip.wav"), folder.file("out.wav")])
        #expect(short.status == 65, "a loud file shorter than one 400 ms block has no integrated loudness")
        #expect(short.standardError.contains("too quiet or too short to normalize"))
        #expect(piped.standardError.contains("cannot be standard input"))
        #expect(folder.contents() == ["blip.wav", "silence.wav"])
    }

    @Test func aMixIsNormalizedAsAWhole() throws {
        let folder = try TemporaryFolder()
        try writeSine(dbfs: -30, channels: 2, to: folder.file("a.wav"))
        try writeSine(dbfs: -36, channels: 2, to: folder.file("b.wav"))
        let plan = try aurender(["mix", folder.file("a.wav"), folder.file("b.wav"), "-o", folder.file("mix.wav"), "--normalize", "-18",
                                 "--dry-run"])
        #expect(plan.output.contains("--> normalize (to -18.0 LUFS, true peak under -1.0 dBTP; the gain is measured when rendering)"),
                "\(plan.output)")
        let result = try aurender(["mix", folder.file("a.wav"), folder.file("b.wav"), "-o", folder.file("mix.wav"), "--bits", "float",
                                   "--normalize", "-18", "--json"])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(abs((try loudness(of: folder.file("mix.wav"))["integratedLUFS"] as? Double ?? 0) - -18.0) <= 0.05)
        let report = try #require(try JSONSerialization.jsonObject(with: result.standardOutput) as? [String: Any])
        #expect((report["normalization"] as? [String: Any])?["targetLUFS"] as? Double == -18)
    }

    @Test func aLevelNeedsANumberInRange() throws {
        let folder = try TemporaryFolder()
        try writeSine(dbfs: -20, seconds: 1, to: folder.file("tone.wav"))
        let result = try aurender(["--normalize", "-14dB", folder.file("tone.wav"), folder.file("out.wav")])
        #expect(result.status == 64)
        #expect(result.standardError.contains("The value '-14dB' is invalid for '--normalize <LUFS>'"))
    }

    @Test func theDryRunShowsWhereTheGainGoes() throws {
        let result = try aurender(["--dry-run", "--normalize", "-16LUFS", fixture("music.wav"), "/tmp/never-written.wav"])
        #expect(result.status == 0)
        #expect(result.output.contains("--> normalize (to -16.0 LUFS, true peak under -1.0 dBTP; the gain is measured when rendering)"))
    }
}
