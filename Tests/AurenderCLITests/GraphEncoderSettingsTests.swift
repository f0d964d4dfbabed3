import Foundation
import TestSupport
import Testing

/// A graph's output node sets an `.m4a`'s codec and a lossy output's bit rate or quality, as
/// `--codec`, `--bitrate` and `--quality` do for a render (which refuse them beside a graph).
@Suite struct GraphEncoderSettingsTests {
    /// A graph of `source.wav` straight to an output node with `fields` added.
    static func graph(output: String, fields: String, in folder: TemporaryFolder) throws -> String {
        let path = folder.file("g-\(abs(fields.hashValue)).json")
        try Data("""
            {"nodes": [{"name": "in", "type": "file", "path": "source.wav"},
                       {"name": "out", "type": "output", "path": "\(output)"\(fields.isEmpty ? "" : ", " + fields)}],
             "connections": [{"from": "in", "to": "out"}]}
            """.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    static func source(in folder: TemporaryFolder) throws {
        let left = Signal.sine(frequency: 440, sampleRate: 44_100, frames: 88_200), right = Signal.noise(frames: 88_200, amplitude: 0.3, seed: 3)
        let stereo: [Float] = zip(left, right).flatMap { pair -> [Float] in [pair.0, pair.1] }.map { ($0 * 32_767).rounded() / 32_768 }
        try writeFloats(stereo, channels: 2, rate: 44_100, to: folder.file("float.wav"))
        #expect(try aurender([folder.file("float.wav"), folder.file("source.wav"), "--bits", "16", "--dither", "none"]).status == 0)
    }

    /// The samples of the `.m4a` `name`, decoded by aurender to a float WAV.
    static func decoded(_ name: String, in folder: TemporaryFolder) throws -> [Float] {
        #expect(try aurender([folder.file(name), folder.file(name + ".wav"), "--bits", "float"]).status == 0)
        return try samples(of: folder.file(name + ".wav")).samples
    }

    @Test func bitRatesAndQualitiesSetTheAACFileSize() throws {
        let folder = try TemporaryFolder()
        try Self.source(in: folder)
        var sizes: [Int] = []
        for (name, fields) in [("low.m4a", "\"bitrate\": \"64k\""), ("high.m4a", "\"bitrate\": \"256000\""), ("q1.m4a", "\"quality\": 0.1"),
                               ("q9.m4a", "\"quality\": 0.9")] {
            let result = try aurender([try Self.graph(output: name, fields: fields, in: folder)])
            #expect(result.status == 0, "\(fields): \(result.standardError)")
            #expect(try Self.decoded(name, in: folder).count == 2 * 88_200)
            sizes.append(try Data(contentsOf: URL(fileURLWithPath: folder.file(name))).count)
        }
        #expect(sizes[0] < sizes[1] * 2 / 3 && sizes[2] < sizes[3] * 2 / 3, "\(sizes)")
    }

    @Test func alacIsLosslessAndTakesSixteenOrTwentyFourBits() throws {
        let folder = try TemporaryFolder()
        try Self.source(in: folder)
        #expect(try aurender([try Self.graph(output: "a.m4a", fields: "\"codec\": \"alac\"", in: folder)]).status == 0)
        #expect(try Self.decoded("a.m4a", in: folder) == samples(of: folder.file("source.wav")).samples)
        #expect(try aurender([try Self.graph(output: "a24.m4a", fields: "\"codec\": \"alac\", \"bits\": \"24\"", in: folder)]).status == 0)
        #expect(try aurender([folder.file("a24.m4a"), folder.file("a24.wav")]).status == 0)
        #expect(try aurender(["info", folder.file("a24.wav")]).output.contains("Signed 24 bit PCM"))
    }

    @Test(arguments: [
        ("out.wav", "\"bitrate\": \"256k\"", "out.wav: Signed 16 bit PCM has no bit rate or quality to set (only AAC, MP3, Vorbis and Opus have)"),
        ("out.wav", "\"codec\": \"alac\"", "out.wav: WAV (Microsoft) cannot hold ALAC (Apple Lossless Audio Codec) at 44100 Hz with 2 channels"),
        ("out.m4a", "\"bitrate\": \"256k\", \"quality\": 0.5", "graph: output 'out': give bitrate or quality, not both"),
        ("out.m4a", "\"bitrate\": \"fast\"", "graph: output 'out': bitrate 'fast' is not a bit rate: give 256k, or bits per second from 8000 to 1536000"),
        ("out.m4a", "\"codec\": \"alac\", \"bits\": \"8\"", "graph: output 'out': alac holds 16 or 24 bits, not Signed 8 bit PCM"),
        ("out.m4a", "\"codec\": \"aac\", \"bits\": \"24\"", "graph: output 'out': aac is a lossy codec, with no bit depth to set"),
    ])
    func settingsThatDoNotApplyAreRefused(output: String, fields: String, message: String) throws {
        let folder = try TemporaryFolder()
        try Self.source(in: folder)
        let result = try aurender([try Self.graph(output: output, fields: fields, in: folder)])
        #expect(result.status == 64)
        #expect(result.standardError.hasSuffix("\(message)\n"), "\(result.standardError)")
        #expect(result.standardError.split(separator: "\n").count == 1)
        #expect(!FileManager.default.fileExists(atPath: folder.file(output)))
    }
}
