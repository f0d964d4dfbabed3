import Foundation
import TestSupport
import Testing

/// `--convolve` and the `convolution` node in graph files, through the built binary: the
/// convolution against direct convolution, its tail, and the one-line errors.
@Suite struct ConvolutionCommandTests {
    static let rate = 16000

    static func interleave(_ channels: [[Float]]) -> [Float] { (0..<channels[0].count).flatMap { frame in channels.map { $0[frame] } } }
    static func channel(_ samples: [Float], _ index: Int, of count: Int) -> [Float] { stride(from: index, to: samples.count, by: count).map { samples[$0] } }

    /// A second of stereo noise and a stereo response of 0.4 s whose last frames are loud, so the
    /// convolution ends well above -120 dBFS and its length is exact.
    func writeInputs(in folder: TemporaryFolder) throws -> (input: [[Float]], response: [[Float]]) {
        let input = [DirectConvolution.noise(Self.rate, seed: 1, amplitude: 0.3), DirectConvolution.noise(Self.rate, seed: 2, amplitude: 0.3)]
        let response = [DirectConvolution.noise(6_400, seed: 3, amplitude: 0.02), DirectConvolution.noise(6_400, seed: 4, amplitude: 0.02)]
        try writeFloats(Self.interleave(input), channels: 2, rate: Self.rate, to: folder.file("in.wav"))
        try writeFloats(Self.interleave(response), channels: 2, rate: Self.rate, to: folder.file("room.wav"))
        return (input, response)
    }

    @Test func convolveMatchesDirectConvolutionAndRendersTheTail() throws {
        let folder = try TemporaryFolder()
        let (input, response) = try writeInputs(in: folder)
        let result = try aurender(["--convolve", folder.file("room.wav"), "--bits", "float", folder.file("in.wav"), folder.file("out.wav")])
        #expect(result.status == 0, "\(result.standardError)")
        let output = try samples(of: folder.file("out.wav")).samples
        #expect(output.count / 2 == Self.rate + 6_400 - 1, "the input and the tail to the convolution's last frame")
        for channel in 0..<2 {
            let level = DirectConvolution.errorLevel(Self.channel(output, channel, of: 2), DirectConvolution.convolve(input[channel], response[channel]))
            #expect(level < -120, "channel \(channel): \(level) dB")
        }
    }

    @Test func theWetMixAndTheTailLimitApply() throws {
        let folder = try TemporaryFolder()
        let (input, response) = try writeInputs(in: folder)
        let result = try aurender(["--convolve", folder.file("room.wav") + ":30%", "--tail", "0.1s", "--bits", "float",
                                   folder.file("in.wav"), folder.file("out.wav")])
        #expect(result.status == 0, "\(result.standardError)")
        let output = try samples(of: folder.file("out.wav")).samples
        #expect(output.count / 2 == Self.rate + Self.rate / 10)
        let convolved = DirectConvolution.convolve(input[1], response[1])
        let reference = (0..<(output.count / 2)).map { 0.3 * convolved[$0] + ($0 < Self.rate ? 0.7 * Double(input[1][$0]) : 0) }
        #expect(DirectConvolution.errorLevel(Self.channel(output, 1, of: 2), reference) < -120)
    }

    @Test func theSliceSizeDoesNotChangeTheBytes() throws {
        let folder = try TemporaryFolder()
        _ = try writeInputs(in: folder)
        var outputs: [Data] = []
        for slice in ["4096", "1000", "77"] {
            let path = folder.file("out-\(slice).wav")
            let result = try aurender(["--convolve", folder.file("room.wav") + ":70", "--frames-per-slice", slice, folder.file("in.wav"), path])
            #expect(result.status == 0, "\(result.standardError)")
            outputs.append(try Data(contentsOf: URL(fileURLWithPath: path)))
        }
        #expect(outputs[0].count > 44 + 4 * Self.rate)
        #expect(outputs.allSatisfy { $0 == outputs[0] })
    }

    @Test func theDryRunShowsTheConvolutionInItsPlace() throws {
        let folder = try TemporaryFolder()
        _ = try writeInputs(in: folder)
        let result = try aurender(["--convolve", folder.file("room.wav") + ":50", "--compress", "-20:3", "--tempo", "1.1",
                                   folder.file("in.wav"), folder.file("out.wav"), "--dry-run"])
        #expect(result.status == 0, "\(result.standardError)")
        let lines = result.output.split(separator: "\n")
        let compressor = try #require(lines.firstIndex { $0.contains("> compressor") })
        let convolution = try #require(lines.firstIndex { $0.contains("> convolution") })
        let timepitch = try #require(lines.firstIndex { $0.contains("> timepitch") })
        #expect(compressor < convolution && convolution < timepitch)
        #expect(lines[convolution].contains("room.wav: 2 ch, 0.4 s; channel by channel, wet 50 %, gain 0 dB, partitions of 2048 frames"),
                "\(lines[convolution])")
        #expect(!FileManager.default.fileExists(atPath: folder.file("out.wav")))
    }

    @Test func badResponsesAndValuesAreOneLineErrors() throws {
        let folder = try TemporaryFolder()
        _ = try writeInputs(in: folder)
        let (input, out) = (folder.file("in.wav"), folder.file("out.wav"))
        let missing = try aurender(["--convolve", folder.file("nowhere.wav"), input, out])
        #expect(missing.status == 66)
        #expect(missing.standardError.hasPrefix("aurender: impulse response \(folder.file("nowhere.wav")): "), "\(missing.standardError)")
        #expect(missing.standardError.split(separator: "\n").count == 1)
        try "no audio here".write(toFile: folder.file("notes.wav"), atomically: true, encoding: .utf8)
        let garbage = try aurender(["--convolve", folder.file("notes.wav"), input, out])
        #expect(garbage.status == 65)
        #expect(garbage.standardError.hasPrefix("aurender: impulse response \(folder.file("notes.wav")): "), "\(garbage.standardError)")
        try writeFloats([Float](repeating: 0.1, count: 300), channels: 3, rate: Self.rate, to: folder.file("three.wav"))
        let channels = try aurender(["--convolve", folder.file("three.wav"), input, out])
        #expect(channels.status == 64)
        #expect(channels.standardError.contains("has 3 channels, which fit a 3-channel input, not 2 channels"), "\(channels.standardError)")
        let wet = try aurender(["--convolve", folder.file("room.wav") + ":150", input, out])
        #expect(wet.status == 64)
        #expect(wet.standardError.contains("--convolve \(folder.file("room.wav")):150: the wet mix must be from 0 to 100 %, not 150"))
        let tail = try aurender(["--tail", "1s", input, out])
        #expect(tail.status == 64)
        #expect(tail.standardError.contains("--tail needs --plugin, --delay, --reverb or --convolve"))
        #expect(!FileManager.default.fileExists(atPath: out), "no output from a failed run")
    }

    @Test func graphFilesTakeTheConvolutionNode() throws {
        let folder = try TemporaryFolder()
        let (input, response) = try writeInputs(in: folder)
        try Data("""
            {"nodes": [
              {"name": "dry", "type": "file", "path": "in.wav"},
              {"name": "room", "type": "convolution", "impulse": "room.wav", "wet": 0, "tail": "0.5s"},
              {"name": "out", "type": "output", "path": "out.wav", "bits": "float"}
            ],
            "connections": [{"from": "dry", "to": "room"}, {"from": "room", "to": "out"}],
            "events": [{"at": "8000f", "node": "room", "parameter": "wet", "value": 100}]}
            """.utf8).write(to: URL(fileURLWithPath: folder.file("g.json")))
        let plan = try aurender([folder.file("g.json"), "--dry-run"])
        #expect(plan.status == 0, "\(plan.standardError)")
        #expect(plan.output.contains("node    room (room.wav: 2 ch, 0.4 s; channel by channel, wet 0 %"), "\(plan.output)")
        let result = try aurender([folder.file("g.json")])
        #expect(result.status == 0, "\(result.standardError)")
        let output = Self.channel(try samples(of: folder.file("out.wav")).samples, 0, of: 2)
        #expect(output.count == Self.rate + 6_400 - 1)
        #expect(Array(output[..<8000]) == Array(input[0][..<8000]), "dry until the event")
        #expect(DirectConvolution.errorLevel(Array(output[8000...]), Array(DirectConvolution.convolve(input[0], response[0])[8000...])) < -120, "wet from it")
        let refused = try aurender([folder.file("g.json"), "--convolve", folder.file("room.wav")])
        #expect(refused.status == 64)
        #expect(refused.standardError.contains("--convolve does not apply to a graph file"))
    }
}
