import Foundation
import SoundFile
import TestSupport
import Testing

@Suite struct ConversionCommandTests {
    @Test func rateAndChannels() throws {
        let folder = try TemporaryFolder()
        let result = try aurender([fixture("music.wav"), folder.file("out.wav"), "--rate", "48000", "--channels", "1"])
        #expect(result.status == 0, "\(result.standardError)")
        let (format, values) = try samples(of: folder.file("out.wav"))
        #expect(format.rate == 48000)
        #expect(format.channels == 1)
        #expect(values.count == 144_000, "132300 frames × 48000 / 44100")
    }

    @Test func dryRunPrintsThePlanAndWritesNothing() throws {
        let folder = try TemporaryFolder()
        let text = try aurender([fixture("music.wav"), folder.file("out.flac"), "--rate", "48000", "--eq", "rock", "--dry-run",
                                 "--resampler", "libsamplerate"])
        #expect(text.status == 0)
        #expect(text.output == """
            input   \(fixture("music.wav")): WAV (Microsoft), Signed 16 bit PCM, 44100 Hz, 2 ch, float32 non-interleaved, decoded by libsndfile
              --[44100 Hz, 2 ch, float32 non-interleaved]--> converter (libsamplerate best)
              --[48000 Hz, 2 ch, float32 non-interleaved]--> eq (preset 'Rock', accurate)
              --[48000 Hz, 2 ch, float32 non-interleaved]--> output
              --[48000 Hz, 2 ch, float32 non-interleaved]--> output file
            output  \(folder.file("out.flac")): FLAC (Free Lossless Audio Codec), Signed 16 bit PCM, TPDF dither (seed 1)

            """)
        let dot = try aurender([fixture("speech.wav"), folder.file("out.wav"), "--channels", "2", "--plan", "dot"])
        #expect(dot.status == 0)
        #expect(dot.output.hasPrefix("digraph aurender {"))
        #expect(dot.output.contains("\"converter\" [label=\"converter\\nchannel matrix 1.0;1.0\"];"))
        #expect(folder.contents().isEmpty)
    }

    @Test func channelMapsAndMatrices() throws {
        let folder = try TemporaryFolder()
        #expect(try aurender([fixture("music.wav"), folder.file("swap.wav"), "--channel-map", "1,0"]).status == 0)
        let original = try samples(of: fixture("music.wav")).samples
        let swapped = try samples(of: folder.file("swap.wav")).samples
        #expect(swapped[0] == original[1] && swapped[1] == original[0] && swapped[2001] == original[2000])

        #expect(try aurender([fixture("music.wav"), folder.file("left.wav"), "--mix-matrix", "1,0", "--dither", "none"]).status == 0)
        let left = try samples(of: folder.file("left.wav"))
        #expect(left.format.channels == 1)
        #expect(left.samples == stride(from: 0, to: original.count, by: 2).map { original[$0] })

        let wrong = try aurender([fixture("music.wav"), folder.file("bad.wav"), "--mix-matrix", "1,0,0"])
        #expect(wrong.status == 64)
        #expect(wrong.standardError.contains("the channel matrix maps 3 channels to 1"))
        let notNumber = try aurender([fixture("music.wav"), folder.file("bad.wav"), "--channel-map", "left"])
        #expect(notNumber.status == 64)
        #expect(notNumber.standardError == "aurender: --channel-map: 'left' is not a number\n")
        #expect(!FileManager.default.fileExists(atPath: folder.file("bad.wav")))
    }

    @Test func ditherIsSeededAndOnlyWhenReducing() throws {
        let folder = try TemporaryFolder()
        #expect(try aurender([fixture("music.wav"), folder.file("deep.wav"), "--bits", "24"]).status == 0)
        for (name, extra) in [("a", [String]()), ("b", []), ("seed2", ["--dither-seed", "2"]), ("none", ["--dither", "none"])] {
            let result = try aurender([folder.file("deep.wav"), folder.file("\(name).wav"), "--bits", "16", "--verbose"] + extra)
            #expect(result.status == 0)
            #expect(result.standardError.contains(name == "none" ? "Signed 16 bit PCM\n" : "TPDF dither (seed \(name == "seed2" ? 2 : 1))"))
        }
        #expect(bytes(folder.file("a.wav")) == bytes(folder.file("b.wav")), "the same seed gives the same bytes")
        #expect(bytes(folder.file("a.wav")) != bytes(folder.file("seed2.wav")))
        #expect(try samples(of: folder.file("none.wav")).samples == samples(of: fixture("music.wav")).samples,
                "24-bit copies of 16-bit audio come back exactly without dither")
        let difference = try zip(samples(of: folder.file("a.wav")).samples, samples(of: folder.file("none.wav")).samples)
            .map { abs($0 - $1) * 32768 }.max() ?? 0
        #expect(difference == 1, "dither moves samples by at most one step")
    }

    @Test func badConversionOptions() throws {
        let folder = try TemporaryFolder()
        for (arguments, text) in [
            (["--rate", "0"], "--rate must be from 1"),
            (["--channels", "2000"], "--channels must be from 1 to 1024"),
            (["--src-quality", "superb"], "--src-quality"),
            (["--dither", "noise"], "--dither"),
            (["--channel-map", "0", "--mix-matrix", "1"], "not both"),
            (["--rate", "8", "--resampler", "libsamplerate"], "at most 256 times apart"),
            (["--resampler", "speex"], "--resampler: no resampler engine is named 'speex'; this build has soxr, libsamplerate"),
            (["--rate", "8000", "--src-quality", "zoh"],
             "--src-quality zoh with --resampler soxr: soxr has no quality 'zoh'; it offers best, high, medium, fastest; libsamplerate has it"),
        ] {
            let result = try aurender([fixture("speech.wav"), folder.file("out.wav")] + arguments)
            #expect(result.status == 64, "\(arguments): \(result.standardError)")
            #expect(result.standardError.contains(text), "\(result.standardError)")
        }
        #expect(folder.contents().isEmpty)
    }
}

/// `.m4a` outputs: AAC by default, ALAC with `--codec alac`, and the options that do not apply refused.
@Suite struct M4aOutputCommandTests {
    @Test func aWavBecomesAnM4aAndBackWithItsLength() throws {
        let folder = try TemporaryFolder()
        let sine = Signal.sine(frequency: 440, sampleRate: 44_100, frames: 44_100).map { Int16(($0 * 32_767).rounded()) }
        try WaveFile.write(WaveFile.bytes(channels: 1, sampleRate: 44_100, data: WaveFile.pcm16(sine)), to: folder.file("in.wav"))
        let aac = try aurender([folder.file("in.wav"), folder.file("out.m4a"), "--bitrate", "96k"])
        #expect(aac.status == 0, "\(aac.standardError)")
        #expect(try aurender([folder.file("out.m4a"), folder.file("back.wav")]).status == 0)
        #expect(try samples(of: folder.file("back.wav")).samples.count == 44_100)
        let alac = try aurender([folder.file("in.wav"), folder.file("out-alac.m4a"), "--codec", "alac"])
        #expect(alac.status == 0, "\(alac.standardError)")
        #expect(try aurender([folder.file("out-alac.m4a"), folder.file("alac.wav")]).status == 0)
        #expect(try samples(of: folder.file("alac.wav")).samples == samples(of: folder.file("in.wav")).samples)
    }

    /// `--type m4a` names the container and `--codec alac` its codec: the codec takes the place
    /// of the AAC the type implies, for an output whose name tells no container.
    @Test func aTypeAndACodecTogetherGiveThatCodec() throws {
        let folder = try TemporaryFolder()
        let sine = Signal.sine(frequency: 440, sampleRate: 44_100, frames: 4_410).map { Int16(($0 * 32_767).rounded()) }
        try WaveFile.write(WaveFile.bytes(channels: 1, sampleRate: 44_100, data: WaveFile.pcm16(sine)), to: folder.file("in.wav"))
        let alac = try aurender([folder.file("in.wav"), folder.file("out.audio"), "--type", "m4a", "--codec", "alac"])
        #expect(alac.status == 0, "\(alac.standardError)")
        #expect(try aurender(["info", folder.file("out.audio")]).output.contains("ALAC"))
        #expect(try aurender([folder.file("out.audio"), folder.file("back.wav")]).status == 0)
        #expect(try samples(of: folder.file("back.wav")).samples == samples(of: folder.file("in.wav")).samples)
    }

    /// ALAC follows the source's resolution (24 bits from a 24-bit WAV) unless `--bits` pins
    /// 16 or 24, and decodes back to the same samples; other depths, and `--bits` with AAC, are refused.
    @Test func alacKeepsATwentyFourBitSourceUnlessToldSixteen() throws {
        let folder = try TemporaryFolder()
        let sine = Signal.sine(frequency: 997, sampleRate: 48_000, frames: 48_000, amplitude: 0.7)
        try writeFloats(sine, rate: 48_000, to: folder.file("float.wav"))
        #expect(try aurender([folder.file("float.wav"), folder.file("in24.wav"), "--bits", "24"]).status == 0)
        #expect(try aurender([folder.file("in24.wav"), folder.file("out24.m4a"), "--codec", "alac"]).status == 0)
        #expect(try aurender([folder.file("out24.m4a"), folder.file("back24.wav")]).status == 0)
        #expect(try aurender(["info", folder.file("back24.wav")]).output.contains("Signed 24 bit PCM"))
        #expect(try samples(of: folder.file("back24.wav")).samples == samples(of: folder.file("in24.wav")).samples)

        #expect(try aurender([folder.file("in24.wav"), folder.file("out16.m4a"), "--codec", "alac", "--bits", "16", "--dither", "none"]).status == 0)
        #expect(try aurender([folder.file("out16.m4a"), folder.file("back16.wav")]).status == 0)
        #expect(try aurender(["info", folder.file("back16.wav")]).output.contains("Signed 16 bit PCM"))
        #expect(try aurender([folder.file("in24.wav"), folder.file("direct16.wav"), "--bits", "16", "--dither", "none"]).status == 0)
        #expect(try samples(of: folder.file("back16.wav")).samples == samples(of: folder.file("direct16.wav")).samples)

        for (options, message) in [(["--codec", "alac", "--bits", "8"], "--codec alac holds 16 or 24 bits, not Signed 8 bit PCM: give --bits 16 or --bits 24"),
                                   (["--codec", "aac", "--bits", "24"], "--bits does not apply to --codec aac: aac is a lossy codec, with no bit depth to set")] {
            let refused = try aurender([folder.file("in24.wav"), folder.file("refused.m4a")] + options)
            #expect(refused.status == 64)
            #expect(refused.standardError.hasPrefix("Error: \(message)\n"), "\(refused.standardError)")
            #expect(!FileManager.default.fileExists(atPath: folder.file("refused.m4a")))
        }
    }

    @Test(arguments: [
        (["--codec", "alac"], "out.wav: WAV (Microsoft) cannot hold ALAC (Apple Lossless Audio Codec), 24-bit at 44100 Hz with 1 channels"),
        (["--bitrate", "256k"], "out.wav: 32 bit float has no bit rate or quality to set (only AAC, MP3, Vorbis and Opus have)"),
    ])
    func optionsThatDoNotApplyToAWavAreRefused(options: [String], message: String) throws {
        let folder = try TemporaryFolder()
        try writeFloats(Signal.sine(frequency: 440, sampleRate: 44_100, frames: 4_410), rate: 44_100, to: folder.file("in.wav"))
        let result = try aurender([folder.file("in.wav"), "out.wav"] + options, in: folder.path)
        #expect(result.status == 64)
        #expect(result.standardError == "aurender: \(message)\n")
        #expect(!FileManager.default.fileExists(atPath: folder.file("out.wav")))
    }
}
