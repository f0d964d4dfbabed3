import Foundation
import TestSupport
import Testing

/// `--normalize-peak`, run through the built binary: the sample or true peak measured in a
/// first pass, then one gain.
@Suite struct PeakNormalizationTests {
    /// A 12 kHz sine at 48 kHz sampled 45° off its peaks: sample peak -9 dBFS, true peak -6 dBTP
    /// (which libebur128's 4× oversampling reads as -5.9); 2 s, mono.
    func writeOffPeakSine(to path: String) throws {
        let amplitude = pow(10, -6.0 / 20)
        let values = (0..<96000).map { Float(amplitude * sin(Double.pi / 2 * Double($0) + Double.pi / 4)) }
        try writeFloats(values, rate: 48000, to: path)
    }

    /// The `loudness` object `aurender info --loudness --json` prints for `path`, and its frames.
    func measure(_ path: String) throws -> (loudness: [String: Any], frames: Int) {
        let result = try aurender(["info", "--loudness", "--json", path])
        #expect(result.status == 0, "\(result.standardError)")
        let file = try #require((try JSONSerialization.jsonObject(with: result.standardOutput) as? [[String: Any]])?.first)
        return (try #require(file["loudness"] as? [String: Any]), try #require(file["frames"] as? Int))
    }

    @Test func theSamplePeakReachesItsTarget() throws {
        let folder = try TemporaryFolder()
        try writeOffPeakSine(to: folder.file("sine.wav"))
        let result = try aurender([folder.file("sine.wav"), folder.file("out.wav"), "--normalize-peak", "-1dBFS", "--json"])
        #expect(result.status == 0, "\(result.standardError)")
        let (levels, frames) = try measure(folder.file("out.wav"))
        #expect(frames == 96000)
        #expect(abs((levels["samplePeakDBFS"] as? Double ?? 0) - -1) <= 0.01)
        #expect(abs((levels["truePeakDBTP"] as? Double ?? 0) - 2.1) <= 0.05, "no ceiling unless --true-peak is given")
        let normalization = try #require((try JSONSerialization.jsonObject(with: result.standardOutput) as? [String: Any])?["normalization"]
                                          as? [String: Any])
        #expect(normalization["measure"] as? String == "samplePeak")
        #expect(normalization["targetPeak"] as? Double == -1)
        #expect(abs((normalization["gainDB"] as? Double ?? 0) - 8) <= 0.02)
    }

    @Test func aTargetInDBTPIsATruePeak() throws {
        let folder = try TemporaryFolder()
        try writeOffPeakSine(to: folder.file("sine.wav"))
        let result = try aurender([folder.file("sine.wav"), folder.file("out.wav"), "--normalize-peak", "-1dBTP", "--bits", "float"])
        #expect(result.status == 0, "\(result.standardError)")
        let (levels, _) = try measure(folder.file("out.wav"))
        #expect(abs((levels["truePeakDBTP"] as? Double ?? 0) - -1) <= 0.05)
        #expect(abs((levels["samplePeakDBFS"] as? Double ?? 0) - -4.1) <= 0.05)
        let plan = try aurender([folder.file("sine.wav"), folder.file("x.wav"), "--normalize-peak", "-1dBTP", "--dry-run"])
        #expect(plan.output.contains("--> normalize (to -1.0 dBTP; the gain is measured when rendering)"), "\(plan.output)")
    }

    @Test func aTruePeakCeilingRefusesOrLowers() throws {
        let folder = try TemporaryFolder()
        try writeOffPeakSine(to: folder.file("sine.wav"))
        let refused = try aurender([folder.file("sine.wav"), folder.file("out.wav"), "--normalize-peak", "-1", "--true-peak", "-1"])
        #expect(refused.status == 3)
        #expect(refused.standardError.hasPrefix("aurender: \(folder.file("sine.wav")): reaching -1.0 dBFS needs +8.0 dB, which puts the true peak at +2.1 dBTP, over the -1.0 dBTP ceiling; not written (the loudest it can be is -4.1 dBFS; or use --over-ceiling lower, or limit to reach it through a true-peak limiter)"),
                "\(refused.standardError)")
        #expect(!FileManager.default.fileExists(atPath: folder.file("out.wav")))
        let lowered = try aurender([folder.file("sine.wav"), folder.file("out.wav"), "--normalize-peak", "-1", "--true-peak", "-1",
                                    "--over-ceiling", "lower", "--bits", "float"])
        #expect(lowered.status == 0)
        #expect(lowered.standardError.contains("normalized short of the target"))
        let (levels, _) = try measure(folder.file("out.wav"))
        #expect(abs((levels["truePeakDBTP"] as? Double ?? 0) - -1) <= 0.05)
        #expect(abs((levels["samplePeakDBFS"] as? Double ?? 0) - -4.1) <= 0.05)
    }

    @Test func silenceAndConflictingTargetsAreRefused() throws {
        let folder = try TemporaryFolder()
        try writeFloats([Float](repeating: 0, count: 8000), rate: 8000, to: folder.file("silence.wav"))
        let silent = try aurender([folder.file("silence.wav"), folder.file("out.wav"), "--normalize-peak", "-1"])
        #expect(silent.status == 65)
        #expect(silent.standardError == "aurender: \(folder.file("silence.wav")): digital silence has no peak to normalize\n")
        let both = try aurender([folder.file("silence.wav"), folder.file("out.wav"), "--normalize-peak", "-1", "--normalize", "-14"])
        #expect(both.status == 64)
        #expect(both.standardError.contains("give --normalize or --normalize-peak, not both"))
        let wrongUnit = try aurender([folder.file("silence.wav"), folder.file("out.wav"), "--normalize-peak", "-1LUFS"])
        #expect(wrongUnit.status == 64)
        #expect(wrongUnit.standardError.contains("The value '-1LUFS' is invalid for '--normalize-peak <dBFS|dBTP>'"))
    }
}
