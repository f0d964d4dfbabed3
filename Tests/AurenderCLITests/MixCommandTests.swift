import Foundation
import SoundFile
import TestSupport
import Testing

@Suite struct MixCommandTests {
    /// Writes mono float samples at `rate` to `path`.

    @Test func twoSignalsMixToTheirWeightedSum() throws {
        let folder = try TemporaryFolder()
        let a = Signal.noise(frames: 9000, amplitude: 0.4, seed: 1), b = Signal.noise(frames: 6000, amplitude: 0.4, seed: 2)
        try writeFloats(a, rate: 8000, to: folder.file("a.wav"))
        try writeFloats(b, rate: 8000, to: folder.file("b.wav"))
        let result = try aurender(["mix", folder.file("a.wav") + "@gain=-6", folder.file("b.wav") + "@start=1000f",
                                   "--rate", "8000", "--channels", "1", "-o", folder.file("mix.wav")])
        #expect(result.status == 0, "\(result.standardError)")
        let (format, mixed) = try samples(of: folder.file("mix.wav"))
        #expect(format.encoding == .float && format.channels == 1)
        #expect(mixed.count == 9000, "the longest input: 9000 frames, b ends at 7000")
        let gain = powf(10, -6.0 / 20)
        let expected = (0..<9000).map { frame in (0 + gain * a[frame]) + (frame >= 1000 && frame < 7000 ? b[frame - 1000] : 0) }
        #expect(mixed == expected)
    }

    @Test func panAndMute() throws {
        let folder = try TemporaryFolder()
        try writeFloats([Float](repeating: 0.5, count: 100), rate: 8000, to: folder.file("one.wav"))
        #expect(try aurender(["mix", folder.file("one.wav") + "@pan=-1", folder.file("one.wav") + "@mute",
                              "-o", folder.file("left.wav")]).status == 0)
        let (format, left) = try samples(of: folder.file("left.wav"))
        #expect(format.channels == 2)
        #expect(left[100] == 0.5 && abs(left[101]) < 1e-7, "hard left; the muted copy adds nothing")
    }

    @Test func inputsAtOtherRatesAreConverted() throws {
        let folder = try TemporaryFolder()
        let plan = try aurender(["mix", fixture("music.wav"), fixture("speech.wav") + "@eq=rock,start=1s", "-o",
                                 folder.file("mix.flac"), "--dry-run", "--resampler", "libsamplerate"])
        #expect(plan.status == 0)
        #expect(plan.output.contains("--[22050 Hz, 1 ch, float32]--> converter 2 (libsamplerate best)"))
        #expect(plan.output.contains("--[44100 Hz, 1 ch, float32]--> eq 2 (preset 'Rock', accurate)"))
        #expect(plan.output.contains("mixer (2 buses, 44100 Hz, 2 ch, float32 non-interleaved)"))
        #expect(folder.contents().isEmpty)
        let mix = try aurender(["mix", fixture("music.wav"), fixture("speech.wav") + "@eq=rock,start=1s", "-o",
                                folder.file("mix.flac"), "--fade-out", "500ms"])
        #expect(mix.status == 0, "\(mix.standardError)")
        let (format, mixed) = try samples(of: folder.file("mix.flac"))
        #expect(format.rate == 44100)
        #expect(mixed.count / 2 == 44100 + 117_884 * 2, "speech at 44.1 kHz, a second late, is the longest")
        #expect(mixed.suffix(2).allSatisfy { abs($0) <= 1.0 / 32768 }, "faded out to silence (and 1 LSB of dither)")
    }

    @Test func badMixes() throws {
        let folder = try TemporaryFolder()
        for (arguments, status, text) in [
            ([fixture("music.wav") + "@gian=3"], Int32(64), "unknown setting 'gian=3'; use gain=, pan=, eq=, start=, mute, azimuth=, elevation= or distance="),
            ([fixture("music.wav") + "@pan=2"], 64, "pan must be from -1 to 1, not '2'"),
            ([fixture("music.wav") + "@eq=polka"], 64, "unknown EQ preset 'polka'"),
            ([fixture("music.wav") + "@start=soon"], 64, "start must be a time"),
            (["/no/such.wav"], 66, "/no/such.wav: No such file or directory"),
        ] {
            let result = try aurender(["mix"] + arguments + ["-o", folder.file("out.wav")])
            #expect(result.status == status, "\(arguments): \(result.standardError)")
            #expect(result.standardError.contains(text), "\(result.standardError)")
        }
        let same = try aurender(["mix", fixture("music.wav"), "-o", fixture("music.wav")])
        #expect(same.status == 64)
        #expect(folder.contents().isEmpty)
    }
}
