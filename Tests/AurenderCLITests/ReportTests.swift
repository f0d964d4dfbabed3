import Foundation
import TestSupport
import Testing

@Suite struct ReportTests {
    static let keys: Set<String> = ["aurender", "inputs", "output", "container", "encoding", "sampleRate", "channels", "frames",
                                    "durationSeconds", "peakDBFS", "rmsDBFS", "clippedSamples", "nonFiniteSamples",
                                    "renderSeconds", "realtimeFactor", "options"]

    @Test func aRenderReportsItsLevelsAndOptions() throws {
        let folder = try TemporaryFolder()
        try writeFloats(Signal.sine(frequency: 1000, sampleRate: 48000, frames: 48000, amplitude: 0.5), rate: 48000,
                            to: folder.file("tone.wav"))
        let result = try aurender([folder.file("tone.wav"), folder.file("out.flac"), "--json", "--report", folder.file("r.json")])
        #expect(result.status == 0, "\(result.standardError)")
        let printed = try #require(try JSONSerialization.jsonObject(with: result.standardOutput) as? [String: Any])
        let written = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: folder.file("r.json")))) as? [String: Any])
        #expect(Set(printed.keys) == Self.keys)
        #expect(Set(written.keys) == Self.keys)
        #expect(printed["inputs"] as? [String] == [folder.file("tone.wav")])
        #expect(printed["output"] as? String == folder.file("out.flac"))
        #expect(printed["frames"] as? Int == 48000 && printed["durationSeconds"] as? Double == 1)
        #expect(printed["sampleRate"] as? Double == 48000 && printed["channels"] as? Int == 1)
        #expect(abs((printed["peakDBFS"] as? Double ?? 0) + 6.02) < 0.01, "a sine of amplitude 0.5 peaks at -6.02 dBFS")
        #expect(abs((printed["rmsDBFS"] as? Double ?? 0) + 9.03) < 0.01, "and its RMS is 3.01 dB lower")
        #expect(printed["clippedSamples"] as? Int == 0)
        #expect((printed["renderSeconds"] as? Double ?? -1) >= 0)
        let options = try #require(printed["options"] as? [String: Any])
        #expect(options["ditherSeed"] as? Int == 1, "float to 16 bits is dithered")
    }

    @Test func aMixReportsItsInputsAndClipping() throws {
        let folder = try TemporaryFolder()
        try writeFloats([Float](repeating: 0.75, count: 800), rate: 8000, to: folder.file("a.wav"))
        let result = try aurender(["mix", folder.file("a.wav"), folder.file("a.wav"), "--channels", "1", "--bits", "16",
                                   "-o", folder.file("mix.wav"), "--json"])
        #expect(result.status == 0)
        let report = try #require(try JSONSerialization.jsonObject(with: result.standardOutput) as? [String: Any])
        #expect(report["inputs"] as? [String] == [folder.file("a.wav"), folder.file("a.wav")])
        #expect(report["clippedSamples"] as? Int == 800, "0.75 + 0.75 clips in every sample")
        #expect(abs((report["peakDBFS"] as? Double ?? 0) - 3.52) < 0.01)
    }

    @Test func jsonCannotShareStandardOutputWithAudio() throws {
        let result = try aurender([fixture("speech.wav"), "-", "--type", "au", "--json"])
        #expect(result.status == 64)
        #expect(result.standardError.contains("--json needs standard output"))
    }
}
