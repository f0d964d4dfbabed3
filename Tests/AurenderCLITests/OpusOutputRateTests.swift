import Foundation
import TestSupport
import Testing

/// Opus codes 8, 12, 16, 24 and 48 kHz only: an output to Opus from any other rate is resampled
/// to 48 kHz by the render's resampler when no rate was asked for, as `opusenc` and FFmpeg do,
/// and the plan says so; a rate asked for is kept, and refused where Opus cannot hold it.
@Suite struct OpusOutputRateTests {
    static let purpose = "to 48000 Hz, as Opus codes only 8, 12, 16, 24 and 48 kHz"

    @Test func a44100HzInputIsWrittenAt48kHz() throws {
        let folder = try TemporaryFolder()
        let output = folder.file("music.opus")
        let rendered = try aurender([fixture("music.flac"), output])
        #expect(rendered.status == 0, "\(rendered.standardError)")
        #expect(rendered.standardError.isEmpty, "\(rendered.standardError)")
        let (format, decoded) = try samples(of: output)
        #expect(format.rate == 48_000 && format.channels == 2)
        // 132,300 frames at 44.1 kHz are 144,000 at 48 kHz; the Opus decode adds its pre-skip's rounding at most.
        #expect(abs(decoded.count / 2 - 144_000) < 1_000, "\(decoded.count / 2) frames")
        let original = try samples(of: fixture("music.wav")).samples
        #expect(abs(20 * log10(Signal.rms(decoded) / Signal.rms(original))) < 0.5, "the level is kept")

        let explicit = folder.file("explicit.opus")
        #expect(try aurender([fixture("music.flac"), explicit, "--rate", "48000"]).status == 0)
        #expect(bytes(explicit) == bytes(output), "the same bytes as --rate 48000")
    }

    @Test func thePlanAndVerboseSayWhy() throws {
        let folder = try TemporaryFolder()
        let output = folder.file("music.opus")
        let plan = try aurender([fixture("music.flac"), output, "--dry-run"])
        #expect(plan.status == 0, "\(plan.standardError)")
        #expect(plan.output.contains("--> converter (soxr best, \(Self.purpose))\n"), "\(plan.output)")
        #expect(plan.output.contains("--[48000 Hz"), "\(plan.output)")
        #expect(!FileManager.default.fileExists(atPath: output))

        let dot = try aurender([fixture("music.flac"), output, "--plan", "dot"])
        #expect(dot.status == 0 && dot.output.contains("\\nsoxr best, \(Self.purpose)\""), "\(dot.output)")

        let verbose = try aurender([fixture("music.flac"), output, "--verbose"])
        #expect(verbose.status == 0, "\(verbose.standardError)")
        #expect(verbose.standardError.contains(Self.purpose), "\(verbose.standardError)")

        let asked = try aurender([fixture("music.flac"), folder.file("asked.opus"), "--rate", "48000", "--dry-run"])
        #expect(asked.status == 0 && !asked.output.contains("as Opus codes"), "a rate asked for needs no reason: \(asked.output)")
        let kept = try aurender([fixture("music.flac"), folder.file("kept.ogg"), "--dry-run"])
        #expect(kept.status == 0 && !kept.output.contains("converter"), "Vorbis holds 44.1 kHz: \(kept.output)")
        let twentyFour = folder.file("speech24.wav")
        #expect(try aurender([fixture("speech.wav"), twentyFour, "--rate", "24000"]).status == 0)
        let coded = try aurender([twentyFour, folder.file("speech.opus"), "--dry-run"])
        #expect(coded.status == 0 && !coded.output.contains("converter"), "Opus codes 24 kHz: \(coded.output)")
    }

    @Test func aMixAndABatchAreResampledToo() throws {
        let folder = try TemporaryFolder()
        let mix = folder.file("mix.opus")
        let mixed = try aurender(["mix", fixture("music.wav"), fixture("speech.wav"), "--output", mix, "--dry-run"])
        #expect(mixed.status == 0, "\(mixed.standardError)")
        #expect(mixed.output.contains("--> converter 1 (soxr best, \(Self.purpose))\n"), "\(mixed.output)")
        #expect(mixed.output.contains("--> converter 2 (soxr best, \(Self.purpose))\n"), "\(mixed.output)")
        #expect(try aurender(["mix", fixture("music.wav"), fixture("speech.wav"), "--output", mix]).status == 0)
        #expect(try samples(of: mix).format.rate == 48_000)

        let takes = folder.file("takes"), masters = folder.file("masters")
        try FileManager.default.createDirectory(atPath: takes, withIntermediateDirectories: true)
        for name in ["music.flac", "speech.wav"] {
            try FileManager.default.copyItem(atPath: fixture(name), toPath: takes + "/" + name)
        }
        let batch = try aurender(["-o", masters, "--type", "opus", takes])
        #expect(batch.status == 0, "\(batch.standardError)")
        for name in ["music.opus", "speech.opus"] {
            #expect(try samples(of: masters + "/" + name).format.rate == 48_000, "\(name)")
        }
    }
}
