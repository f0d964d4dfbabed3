import Foundation
import TestSupport
import Testing

@Suite struct DiffCommandTests {
    @Test func twoFilesTakeTheFoldersTolerances() throws {
        let folder = try TemporaryFolder()
        let tone = (0..<16_000).map { Float(0.5 * sin(2 * Double.pi * 1000 * Double($0) / 16_000)) }
        try writeFloats(tone, rate: 16_000, to: folder.file("a.wav"))
        // 0.05 dB quieter: the difference's RMS is 20·log10(0.5/√2 · (1 − 10^(−0.05/20))) = −53.85 dBFS.
        try writeFloats(tone.map { $0 * Float(pow(10, -0.05 / 20)) }, rate: 16_000, to: folder.file("b.wav"))
        let files = [folder.file("a.wav"), folder.file("b.wav")]
        let loose = try aurender(["diff"] + files + ["--loudness-tolerance", "0.1", "--rms-tolerance", "-50"])
        #expect(loose.status == 0)
        #expect(loose.output.hasSuffix("result: within the tolerances\n"))
        let tight = try aurender(["diff", "--json"] + files + ["--rms-tolerance", "-60", "--loudness-tolerance", "0.01"])
        #expect(tight.status == 1)
        let report = try #require(try JSONSerialization.jsonObject(with: tight.standardOutput) as? [String: Any])
        #expect(report["verdict"] as? String == "different")
        let failures = try #require(report["failures"] as? [String])
        #expect(failures.count == 2)
        #expect(failures.first?.hasPrefix("rms difference -53.85 dBFS > -60.00 dBFS") == true, "\(failures)")
        #expect(failures.last?.hasPrefix("loudness differs by 0.05 LU") == true, "\(failures)")
        let loudness = try #require(report["loudnessDifferenceLU"] as? Double)
        #expect(abs(loudness + 0.05) < 0.01)
    }

    @Test func identicalAudioInDifferentContainers() throws {
        let result = try aurender(["diff", fixture("music.wav"), fixture("music.flac")])
        #expect(result.status == 0)
        #expect(result.output.contains("max difference: -inf dBFS\n"))
        #expect(result.output.contains("first differing frame: none\n"))
        #expect(result.output.hasSuffix("result: identical\n"))
    }

    @Test func differencesAreMeasuredAndToleranceDecides() throws {
        let folder = try TemporaryFolder()
        var samples = [Float](repeating: 0.25, count: 1000)
        try writeFloats(samples, rate: 8000, to: folder.file("a.wav"))
        samples[700] += 0.001
        samples[900] -= 0.0001
        try writeFloats(samples, rate: 8000, to: folder.file("b.wav"))
        let exact = try aurender(["diff", folder.file("a.wav"), folder.file("b.wav")])
        #expect(exact.status == 1)
        #expect(exact.output.contains("max difference: -60.0 dBFS\n"))
        #expect(exact.output.contains("first differing frame: 700\n"))
        #expect(exact.output.hasSuffix("result: different\n"))
        let loose = try aurender(["diff", folder.file("a.wav"), folder.file("b.wav"), "--tolerance", "-50"])
        #expect(loose.status == 0)
        #expect(loose.output.hasSuffix("result: within -50.0 dBFS\n"))
        let tight = try aurender(["diff", folder.file("a.wav"), folder.file("b.wav"), "--tolerance", "-70"])
        #expect(tight.status == 1)
    }

    @Test func lengthAndFormatMismatchesAreReported() throws {
        let folder = try TemporaryFolder()
        try writeFloats([Float](repeating: 0.1, count: 100), rate: 8000, to: folder.file("a.wav"))
        try writeFloats([Float](repeating: 0.1, count: 120), rate: 8000, to: folder.file("long.wav"))
        try writeFloats([Float](repeating: 0.1, count: 100), rate: 16000, to: folder.file("fast.wav"))
        let length = try aurender(["diff", folder.file("a.wav"), folder.file("long.wav")])
        #expect(length.status == 1)
        #expect(length.output.contains("frames: 100 and 120\n") && length.output.hasSuffix("result: different lengths\n"))
        try writeFloats([Float](repeating: 0.1, count: 140_000), rate: 8000, to: folder.file("longer.wav"))
        try writeFloats([Float](repeating: 0.1, count: 70_000), rate: 8000, to: folder.file("shorter.wav"))
        let longerFirst = try aurender(["diff", folder.file("longer.wav"), folder.file("shorter.wav")])
        #expect(longerFirst.status == 1)
        #expect(longerFirst.output.contains("frames: 140000 and 70000\n"), "A is counted to its end past a chunk")
        let rate = try aurender(["diff", folder.file("a.wav"), folder.file("fast.wav")])
        #expect(rate.status == 1)
        #expect(rate.output.hasSuffix("result: different formats (8000 Hz, 1 ch, float32 vs 16000 Hz, 1 ch, float32)\n"))
        let missing = try aurender(["diff", folder.file("a.wav"), "/no/such.wav"])
        #expect(missing.status == 66)
        #expect(missing.standardError == "aurender: /no/such.wav: No such file or directory\n")
    }

    @Test func jsonGivesTheFindingsAndTheSameExitStatus() throws {
        let folder = try TemporaryFolder()
        var samples = [Float](repeating: 0.25, count: 1000)
        try writeFloats(samples, rate: 8000, to: folder.file("a.wav"))
        samples[700] += 0.001
        try writeFloats(samples, rate: 8000, to: folder.file("b.wav"))
        try writeFloats([Float](repeating: 0.25, count: 1200), rate: 8000, to: folder.file("long.wav"))
        func report(_ arguments: [String]) throws -> (status: Int32, json: [String: Any]) {
            let result = try aurender(["diff", "--json"] + arguments)
            let json = try #require(try JSONSerialization.jsonObject(with: result.standardOutput) as? [String: Any], "\(result.output)")
            return (result.status, json)
        }

        let different = try report([folder.file("a.wav"), folder.file("b.wav")])
        #expect(different.status == 1)
        #expect(different.json["verdict"] as? String == "different")
        #expect(different.json["maxDifferenceDBFS"] as? Double == -60)
        #expect(abs(try #require(different.json["maxDifference"] as? Double) - 0.001) < 1e-6)
        #expect(abs(try #require(different.json["rmsDifferenceDBFS"] as? Double) - -90) < 0.01, "one sample in 1000: 30 dB under the max")
        #expect(different.json["firstDifferingFrame"] as? Int == 700)
        #expect(different.json["framesA"] as? Int == 1000 && different.json["framesB"] as? Int == 1000)
        #expect(different.json["toleranceDBFS"] is NSNull)
        #expect(different.json["fileB"] as? String == folder.file("b.wav"))

        let within = try report([folder.file("a.wav"), folder.file("b.wav"), "--tolerance", "-50dB"])
        #expect(within.status == 0)
        #expect(within.json["verdict"] as? String == "within tolerance")
        #expect(within.json["toleranceDBFS"] as? Double == -50)

        let identical = try report([fixture("music.wav"), fixture("music.flac")])
        #expect(identical.status == 0)
        #expect(identical.json["verdict"] as? String == "identical")
        #expect(identical.json["maxDifference"] as? Double == 0 && identical.json["maxDifferenceDBFS"] is NSNull)
        #expect(identical.json["firstDifferingFrame"] is NSNull)

        let lengths = try report([folder.file("a.wav"), folder.file("long.wav")])
        #expect(lengths.status == 1)
        #expect(lengths.json["verdict"] as? String == "different lengths")
        #expect(lengths.json["framesA"] as? Int == 1000 && lengths.json["framesB"] as? Int == 1200)

        try writeFloats([Float](repeating: 0.25, count: 1000), rate: 16000, to: folder.file("fast.wav"))
        let formats = try report([folder.file("a.wav"), folder.file("fast.wav")])
        #expect(formats.status == 1)
        #expect(formats.json["verdict"] as? String == "different formats")
        #expect(formats.json["formatB"] as? String == "16000 Hz, 1 ch, float32")
        #expect(formats.json["framesA"] is NSNull && formats.json["maxDifference"] is NSNull)
    }
}
