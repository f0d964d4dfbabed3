import Foundation
import TestSupport
import Testing

/// `--denoise`, `--agc` and `--echo-reference`, and the `voice` node in graph files, through the built binary.
@Suite struct VoiceCommandTests {
    /// espeak-ng's speech (22050 Hz, 16-bit) written to `path`.
    func speak(_ text: String, to path: String) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/espeak-ng")
        process.arguments = ["-w", path, text]
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
    }

    /// Seeded white noise.
    func noise(count: Int, amplitude: Float, seed: UInt64) -> [Float] {
        var state = seed
        return (0..<count).map { _ in
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return (Float(state >> 40) / Float(1 << 24) * 2 - 1) * amplitude
        }
    }

    func level(_ samples: ArraySlice<Float>) -> Double {
        10 * log10(samples.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(max(1, samples.count)))
    }

    /// Speech after a second of noise alone, at 22050 Hz: a rate WebRTC does not take.
    func writeNoisySpeech(to path: String, in folder: TemporaryFolder) throws -> [Float] {
        try speak("Noise is removed from every pause between the words.", to: folder.file("speech.wav"))
        let speech = [Float](repeating: 0, count: 22050) + (try samples(of: folder.file("speech.wav")).samples)
        let noisy = zip(speech, noise(count: speech.count, amplitude: 0.02, seed: 5)).map { $0 + $1 }
        try writeFloats(noisy, rate: 22050, to: path)
        return noisy
    }

    @Test func denoiseTakesTheNoiseOutKeepingTheLength() throws {
        let folder = try TemporaryFolder()
        let noisy = try writeNoisySpeech(to: folder.file("in.wav"), in: folder)
        let result = try aurender(["--denoise", folder.file("in.wav"), folder.file("out.wav")])
        #expect(result.status == 0, "\(result.standardError)")
        let output = try samples(of: folder.file("out.wav"))
        #expect(output.format.rate == 22050)
        #expect(output.samples.count == noisy.count)
        let reduction = level(noisy[5000..<20000]) - level(output.samples[5000..<20000])
        #expect(reduction >= 9, "the noise alone came out \(reduction) dB lower")
    }

    @Test func theSameInputGivesTheSameBytesForAnySliceSize() throws {
        let folder = try TemporaryFolder()
        _ = try writeNoisySpeech(to: folder.file("in.wav"), in: folder)
        var outputs: [Data] = []
        for (index, slice) in ["4096", "4096", "100", "1"].enumerated() {
            let result = try aurender(["--denoise", "veryhigh", "--agc", "-6", "--frames-per-slice", slice, folder.file("in.wav"),
                                       folder.file("out\(index).wav")])
            #expect(result.status == 0, "\(result.standardError)")
            outputs.append(try Data(contentsOf: URL(fileURLWithPath: folder.file("out\(index).wav"))))
        }
        #expect(Set(outputs).count == 1)
    }

    /// A microphone at 16 kHz that hears only the far end, 60 ms late at half its level; the far
    /// file is at 22050 Hz, and shorter than the microphone's.
    @Test func echoReferenceCancelsTheFarEndsEchoAtAnotherRate() throws {
        let folder = try TemporaryFolder()
        try speak("Good morning, this is the far end of the call speaking through the loudspeaker. Please call me back.", to: folder.file("far.wav"))
        let resampled = try aurender(["--rate", "16000", "--bits", "float", folder.file("far.wav"), folder.file("far16.wav")])
        #expect(resampled.status == 0, "\(resampled.standardError)")
        let far = try samples(of: folder.file("far16.wav")).samples
        let microphone = [Float](repeating: 0, count: 960) + far.map { $0 * 0.5 } + [Float](repeating: 0, count: 16000)
        try writeFloats(microphone, rate: 16000, to: folder.file("mic.wav"))
        let result = try aurender(["--echo-reference", folder.file("far.wav"), folder.file("mic.wav"), folder.file("out.wav")])
        #expect(result.status == 0, "\(result.standardError)")
        let output = try samples(of: folder.file("out.wav")).samples
        #expect(output.count == microphone.count)
        let late = 32000..<(far.count + 960)
        let erle = level(microphone[late]) - level(output[late])
        #expect(erle >= 20, "the echo came out \(erle) dB lower")
    }

    @Test func badValuesAreOneLineNamingTheFlagAndItsRange() throws {
        let folder = try TemporaryFolder()
        try writeFloats(noise(count: 4410, amplitude: 0.1, seed: 1), rate: 44100, to: folder.file("in.wav"))
        let cases: [([String], String)] = [
            (["--denoise", "loud"], "--denoise: the level must be low, moderate, high or veryhigh, not 'loud'"),
            (["--agc", "5"], "--agc: the target must be from -31 to 0 dBFS, not '5'"),
            (["--agc", "-40"], "--agc: the target must be from -31 to 0 dBFS, not '-40'"),
        ]
        for (flags, message) in cases {
            let result = try aurender(flags + [folder.file("in.wav"), folder.file("out.wav")])
            #expect(result.status == 64, "\(flags)")
            #expect(result.standardError.contains(message), "\(result.standardError)")
            #expect(result.standardError.split(separator: "\n").first?.hasSuffix(message) == true, "\(result.standardError)")
        }
        let missing = try aurender(["--echo-reference", folder.file("nowhere.wav"), folder.file("in.wav"), folder.file("out.wav")])
        #expect(missing.status != 0)
        #expect(missing.standardError.contains("nowhere.wav"), "\(missing.standardError)")
        try Data("not audio".utf8).write(to: URL(fileURLWithPath: folder.file("text.wav")))
        let unreadable = try aurender(["--echo-reference", folder.file("text.wav"), folder.file("in.wav"), folder.file("out.wav")])
        #expect(unreadable.status != 0)
        #expect(unreadable.standardError.contains("text.wav: "), "\(unreadable.standardError)")
        #expect(!FileManager.default.fileExists(atPath: folder.file("out.wav")))
    }

    @Test func echoReferenceIsRefusedWhereItCannotLineUp() throws {
        let folder = try TemporaryFolder()
        try writeFloats(noise(count: 44100, amplitude: 0.1, seed: 1), rate: 44100, to: folder.file("in.wav"))
        try writeFloats(noise(count: 44100, amplitude: 0.1, seed: 2), rate: 44100, to: folder.file("far.wav"))
        let batch = try aurender(["--echo-reference", folder.file("far.wav"), "-o", folder.file("out"), folder.file("in.wav")])
        #expect(batch.status == 64)
        #expect(batch.standardError.contains("--echo-reference applies to a single render, not to a batch"), "\(batch.standardError)")
        let excerpt = try aurender(["--echo-reference", folder.file("far.wav"), "--start", "0.5", folder.file("in.wav"), folder.file("out.wav")])
        #expect(excerpt.status == 64)
        #expect(excerpt.standardError.contains("--echo-reference lines the far end up with the input's first frame"), "\(excerpt.standardError)")
        let bare = try aurender(["--denoise", folder.file("in.wav"), folder.file("bare.wav"), "--agc"])
        #expect(bare.status == 0, "--denoise and --agc alone take their defaults: \(bare.standardError)")
        let alone = try aurender(["--echo-reference", folder.file("far.wav"), folder.file("in.wav"), folder.file("out.wav")])
        #expect(alone.status == 0, "echo cancellation alone: \(alone.standardError)")
    }

    @Test func aGraphFileWithAVoiceNodeRendersAndShowsItsPlan() throws {
        let folder = try TemporaryFolder()
        _ = try writeNoisySpeech(to: folder.file("mic.wav"), in: folder)
        try writeFloats(noise(count: 11025, amplitude: 0.1, seed: 2), rate: 11025, to: folder.file("far.wav"))
        try Data("""
            {"nodes": [{"name": "in", "type": "file", "path": "mic.wav"},
                       {"name": "clean", "type": "voice", "denoise": "high", "agc": -6, "highpass": true, "echoReference": "far.wav"},
                       {"name": "out", "type": "output", "path": "out.wav", "bits": "float"}],
             "connections": [{"from": "in", "to": "clean"}, {"from": "clean", "to": "out"}]}
            """.utf8).write(to: URL(fileURLWithPath: folder.file("g.json")))
        let plan = try aurender([folder.file("g.json"), "--dry-run"])
        #expect(plan.status == 0, "\(plan.standardError)")
        #expect(plan.output.contains("clean (high-pass, noise suppression high, gain control to -6 dBFS peaks (compression 9 dB), echo of "),
                "\(plan.output)")
        #expect(plan.output.contains("by WebRTC's audio processing at 32000 Hz, resampled from 22050 Hz by soxr"), "\(plan.output)")
        let result = try aurender([folder.file("g.json")])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(try samples(of: folder.file("out.wav")).samples.count == (try samples(of: folder.file("mic.wav")).samples.count))

        try Data("""
            {"nodes": [{"name": "in", "type": "file", "path": "mic.wav"},
                       {"name": "clean", "type": "voice", "agc": 3},
                       {"name": "out", "type": "output", "path": "out2.wav"}],
             "connections": [{"from": "in", "to": "clean"}, {"from": "clean", "to": "out"}]}
            """.utf8).write(to: URL(fileURLWithPath: folder.file("bad.json")))
        let bad = try aurender([folder.file("bad.json")])
        #expect(bad.status != 0)
        #expect(bad.standardError.contains("node 'clean' (voice): field 'agc': must be from -31 to 0 dB, not 3"), "\(bad.standardError)")
        let flags = try aurender([folder.file("g.json"), "--denoise", "low"])
        #expect(flags.status == 64)
        #expect(flags.standardError.contains("--denoise does not apply to a graph file"), "\(flags.standardError)")
    }

    @Test func eventsInAGraphFileMoveTheVoiceNodesParameters() throws {
        let folder = try TemporaryFolder()
        _ = try writeNoisySpeech(to: folder.file("mic.wav"), in: folder)
        func graph(_ voice: String, _ events: String, output: String = "out.wav") throws -> String {
            let path = folder.file("g\(voice.count)\(events.count).json")
            try Data("""
                {"nodes": [{"name": "in", "type": "file", "path": "mic.wav"},
                           {"name": "clean", "type": "voice"\(voice)},
                           {"name": "out", "type": "output", "path": "\(output)", "bits": "float"}],
                 "connections": [{"from": "in", "to": "clean"}, {"from": "clean", "to": "out"}],
                 "events": [\(events)]}
                """.utf8).write(to: URL(fileURLWithPath: path))
            return path
        }
        let moving = try graph(", \"agc\": -6", """
            {"at": 0.5, "node": "clean", "parameter": "denoise", "value": "veryhigh"},
            {"at": 1, "node": "clean", "parameter": "agc", "value": -12}, {"at": 1, "node": "clean", "parameter": "highpass", "value": true}
            """)
        let plan = try aurender([moving, "--dry-run"])
        #expect(plan.status == 0, "\(plan.standardError)")
        #expect(plan.output.contains("clean denoise = 'veryhigh'"), "\(plan.output)")
        #expect(plan.output.contains("clean agc = -12 dB"), "\(plan.output)")
        let result = try aurender([moving])
        #expect(result.status == 0, "\(result.standardError)")
        let plain = try aurender([try graph(", \"agc\": -6", "", output: "plain.wav")])
        #expect(plain.status == 0, "\(plain.standardError)")
        let (moved, steady) = (try samples(of: folder.file("out.wav")).samples, try samples(of: folder.file("plain.wav")).samples)
        #expect(moved.count == steady.count)
        // Nothing before the first event's frame; from it on, within the node's lead where it resamples (here 22.05 to 32 kHz).
        let first = zip(moved, steady).enumerated().first { $1.0 != $1.1 }?.offset
        #expect(first.map { $0 >= 11025 && $0 < 11025 + 22050 / 4 } == true, "the events changed the output from frame \(String(describing: first))")

        let fixed = try aurender([try graph("", "{\"at\": 1, \"node\": \"clean\", \"parameter\": \"agc\", \"value\": -12}")])
        #expect(fixed.status != 0)
        #expect(fixed.standardError.contains("parameter 'agc' of node 'clean' is fixed while rendering"), "\(fixed.standardError)")
    }
}
