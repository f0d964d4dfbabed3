import Foundation
import TestSupport
import Testing

/// FLAC, Ogg Vorbis and Opus stay with libsndfile because it decodes them as their reference
/// decoders do (`flac -d`, `oggdec`, `opusdec`, installed by `make deps`): the same length and
/// the same samples. Inputs are written by aurender (libsndfile's encoders) from a sine with a
/// little noise, so every codec has something to code.
@Suite struct ReferenceDecoderTests {
    /// Runs `tool` (from /usr/bin) with `arguments`, expecting it to succeed.
    static func run(_ tool: String, _ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/" + tool)
        process.arguments = arguments
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(tool) \(arguments.joined(separator: " "))")
    }

    /// One second of stereo: a 440 Hz sine on the left, 1 kHz on the right, each with noise.
    static func writeSource(rate: Int, to path: String) throws {
        let left = Signal.sine(frequency: 440, sampleRate: Double(rate), frames: rate)
        let right = Signal.sine(frequency: 1_000, sampleRate: Double(rate), frames: rate)
        let noise = Signal.noise(frames: 2 * rate, seed: 7)
        let stereo = zip(left, right).flatMap { [$0 * 0.7, $1 * 0.7] }
        try writeFloats(zip(stereo, noise).map { $0 + 0.05 * $1 }, channels: 2, rate: rate, to: path)
    }

    /// The source encoded by aurender to `name`, decoded by aurender with `decodeOptions` and by
    /// `tool` with `toolArguments` (given the input and the output path): both decodes' samples.
    static func decodes(name: String, rate: Int, decodeOptions: [String], tool: String,
                        toolArguments: (String, String) -> [String]) throws -> (ours: [Float], reference: [Float], source: Int) {
        let folder = try TemporaryFolder()
        let encoded = folder.file(name)
        try writeSource(rate: rate, to: folder.file("source.wav"))
        #expect(try aurender([folder.file("source.wav"), encoded]).status == 0)
        #expect(try aurender([encoded, folder.file("ours.wav")] + decodeOptions).status == 0)
        try run(tool, toolArguments(encoded, folder.file("reference.wav")))
        return (try samples(of: folder.file("ours.wav")).samples, try samples(of: folder.file("reference.wav")).samples, 2 * rate)
    }

    @Test func flacDecodesAsFlacDoes() throws {
        let (ours, reference, source) = try Self.decodes(name: "x.flac", rate: 44_100, decodeOptions: [], tool: "flac") {
            ["-s", "-d", "-f", "-o", $1, $0]
        }
        #expect(ours.count == source)
        #expect(ours == reference)
    }

    /// oggdec writes 16-bit samples, rounded without dither: aurender's 16-bit output undithered.
    @Test func vorbisDecodesAsOggdecDoes() throws {
        let (ours, reference, source) = try Self.decodes(name: "x.ogg", rate: 44_100, decodeOptions: ["--bits", "16", "--dither", "none"],
                                                         tool: "oggdec") { ["-Q", "-o", $1, $0] }
        #expect(ours.count == source)
        #expect(ours == reference)
    }

    /// opusdec resamples to the rate the header names unless told 48 kHz, Opus's own rate.
    @Test func opusDecodesAsOpusdecDoes() throws {
        let (ours, reference, source) = try Self.decodes(name: "x.opus", rate: 48_000, decodeOptions: ["--bits", "float"],
                                                         tool: "opusdec") { ["--quiet", "--float", "--rate", "48000", $0, $1] }
        #expect(ours.count == source)
        #expect(ours == reference)
    }

    /// An Opus stream made from 24 kHz audio decodes at 48 kHz too (RFC 7845's advice to a
    /// player), as opusdec and FFmpeg give it; libsndfile alone would give 24 kHz.
    @Test func opusFromALowerRateDecodesAt48kHz() throws {
        let (ours, reference, source) = try Self.decodes(name: "x.opus", rate: 24_000, decodeOptions: ["--bits", "float"],
                                                         tool: "opusdec") { ["--quiet", "--float", "--rate", "48000", $0, $1] }
        #expect(ours.count == 2 * source)
        #expect(ours == reference)
    }
}
