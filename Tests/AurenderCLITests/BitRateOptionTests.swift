import Foundation
import TestSupport
import Testing

/// `--bitrate` as users type it: `192` as LAME's `-b 192` means it, and Opus's rate for all
/// channels together, as `--help` and the guide say.
@Suite struct BitRateOptionTests {
    /// Five seconds of noise at 48 kHz with `channels` channels, written to `name` in `folder`.
    static func writeNoise(channels: Int, to name: String, in folder: TemporaryFolder) throws {
        let noise = Signal.noise(frames: channels * 240_000, amplitude: 0.3, seed: 11)
        try writeFloats(noise, channels: channels, rate: 48_000, to: folder.file(name))
    }

    /// The bytes of `path`.
    static func bytes(_ path: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: path)) }

    /// A bare 192 is 192 kb/s: the same bytes as `192k` and `192000`, and not the default's.
    @Test func aBareNumberUnderAThousandIsKilobitsPerSecond() throws {
        let folder = try TemporaryFolder()
        try Self.writeNoise(channels: 2, to: "in.wav", in: folder)
        for (name, options) in [("bare", ["--bitrate", "192"]), ("k", ["--bitrate", "192k"]), ("bits", ["--bitrate", "192000"]), ("default", [])] {
            let result = try aurender([folder.file("in.wav"), folder.file("\(name).mp3")] + options)
            #expect(result.status == 0, "\(name): \(result.standardError)")
        }
        let bare = try Self.bytes(folder.file("bare.mp3"))
        #expect(bare == (try Self.bytes(folder.file("k.mp3"))))
        #expect(bare == (try Self.bytes(folder.file("bits.mp3"))))
        #expect(bare != (try Self.bytes(folder.file("default.mp3"))))
        let kilobitsPerSecond = Double(bare.count) * 8 / 5 / 1_000
        #expect((185...200).contains(kilobitsPerSecond), "\(kilobitsPerSecond) kb/s")
    }

    /// Numbers that are neither kb/s (under 1000) nor a rate any encoder takes are still refused.
    @Test(arguments: ["1500", "0", "2000k", "fast"])
    func otherBitRatesAreRefused(argument: String) throws {
        let folder = try TemporaryFolder()
        try Self.writeNoise(channels: 2, to: "in.wav", in: folder)
        let result = try aurender([folder.file("in.wav"), folder.file("out.mp3"), "--bitrate", argument])
        #expect(result.status == 64)
        #expect(result.standardError.contains("The value '\(argument)' is invalid for '--bitrate <rate>'"), "\(result.standardError)")
        #expect(!FileManager.default.fileExists(atPath: folder.file("out.mp3")))
    }

    /// Opus's `--bitrate 64k` is for all channels: about 64 kb/s in mono and in stereo alike.
    @Test func opusBitRateIsForAllChannelsTogether() throws {
        let folder = try TemporaryFolder()
        var rates: [Int: Double] = [:]
        for channels in [1, 2] {
            try Self.writeNoise(channels: channels, to: "in\(channels).wav", in: folder)
            let result = try aurender([folder.file("in\(channels).wav"), folder.file("out\(channels).opus"), "--bitrate", "64k"])
            #expect(result.status == 0, "\(result.standardError)")
            rates[channels] = Double(try Self.bytes(folder.file("out\(channels).opus")).count) * 8 / 5 / 1_000
        }
        for (channels, rate) in rates { #expect((58...72).contains(rate), "\(channels) channels: \(rate) kb/s") }
    }
}
