import Aurender
import Foundation
import TestSupport
import Testing

/// The library's comparison of two renders: its figures against values computed here from the
/// samples written, and its verdicts against the tolerances given.
@Suite struct RenderComparisonTests {
    /// Writes interleaved 32-bit float samples as a WAV file.
    func write(_ samples: [Float], channels: Int = 2, rate: Int = 48000, to path: String) throws {
        let data = samples.flatMap { sample in withUnsafeBytes(of: sample.bitPattern.littleEndian) { Array($0) } }
        try WaveFile.write(WaveFile.bytes(channels: UInt16(channels), sampleRate: UInt32(rate), bitsPerSample: 32, data: data, formatTag: 3), to: path)
    }

    /// Two channels interleaved.
    func stereo(_ left: [Float], _ right: [Float]) -> [Float] { zip(left, right).flatMap { [$0, $1] } }

    @Test func maxAndRMSDifferencesAreThoseOfTheSamples() throws {
        let folder = try TemporaryFolder()
        let frames = 100_000
        let a = stereo(Signal.noise(frames: frames, seed: 3), Signal.sine(frequency: 440, sampleRate: 48000, frames: frames))
        let b = zip(a, Signal.noise(frames: 2 * frames, amplitude: 0.001, seed: 9)).map { $0 + $1 }
        try write(a, to: folder.file("a.wav"))
        try write(b, to: folder.file("b.wav"))
        let differences = zip(a, b).map { $0 - $1 }
        let expectedRMS = Signal.rms(differences), expectedLargest = differences.map(abs).max()!

        let outcome = try RenderComparison(tolerances: ComparisonTolerances(rmsDifferenceDBFS: -60))
            .compare(approved: folder.file("a.wav"), rendered: folder.file("b.wav"))
        #expect(outcome.figures.framesA == Int64(frames) && outcome.figures.framesB == Int64(frames))
        #expect(abs(outcome.figures.rms - expectedRMS) < expectedRMS * 1e-5, "\(outcome.figures.rms) vs \(expectedRMS)")
        #expect(outcome.figures.largest == expectedLargest)
        #expect(outcome.figures.firstDifferingFrame == 0)
        #expect(outcome.passed, "an RMS of \(20 * log10(expectedRMS)) dBFS is under -60")

        let tight = try RenderComparison(tolerances: ComparisonTolerances(rmsDifferenceDBFS: -70))
            .compare(approved: folder.file("a.wav"), rendered: folder.file("b.wav"))
        #expect(tight.failures == [.rmsDifference(dBFS: 20 * log10(outcome.figures.rms), allowed: -70)])
    }

    @Test func thirdOctaveBandsMoveByTheGainOfTheirTone() throws {
        let folder = try TemporaryFolder()
        let frames = 96000
        let low = Signal.sine(frequency: 1000, sampleRate: 48000, frames: frames, amplitude: 0.3)
        let high = Signal.sine(frequency: 4000, sampleRate: 48000, frames: frames, amplitude: 0.3)
        let a = stereo(zip(low, high).map { $0 + $1 }, low)
        let b = stereo(zip(low, high).map { $0 + $1 / 2 }, low)
        try write(a, to: folder.file("a.wav"))
        try write(b, to: folder.file("b.wav"))
        let tolerances = ComparisonTolerances(spectrumDB: 3)
        let outcome = try RenderComparison(tolerances: tolerances).compare(approved: folder.file("a.wav"), rendered: folder.file("b.wav"))
        let halved = 20 * log10(2.0)
        let difference = try #require(outcome.figures.spectrumDifference)
        #expect(abs(difference - halved) < 0.05, "the 4 kHz band holds only the halved tone in the left channel: \(difference) dB")
        #expect(outcome.failures == [.spectrum(dB: difference, allowed: 3)])

        let spectrum = ThirdOctaveSpectrum(sampleRate: 48000, channelCount: 1)
        let tone = Signal.sine(frequency: 1000, sampleRate: 48000, frames: frames, amplitude: 1)
        tone.withUnsafeBufferPointer { spectrum.add(interleaved: $0.baseAddress!, frames: frames) }
        let levels = spectrum.levels(), centres = spectrum.centres
        let band = try #require(centres.firstIndex(of: 1000))
        #expect(levels.indices.max { levels[$0] < levels[$1] } == band, "the 1 kHz band is the loudest")
        #expect(abs(levels[band] - 10 * log10(3.0 / 8)) < 0.05, "a full-scale sine under a Hann window: 3/8 of its power, \(levels[band]) dB")
        #expect(centres.first == 25 && centres.last == 20000 && centres.count == 30)
    }

    @Test func loudnessLengthsAndFormatsAreJudged() throws {
        let folder = try TemporaryFolder()
        let frames = 96000
        let tone = Signal.sine(frequency: 997, sampleRate: 48000, frames: frames, amplitude: 0.25)
        let gain = Float(pow(10, -0.5 / 20))
        try write(stereo(tone, tone), to: folder.file("a.wav"))
        try write(stereo(tone, tone).map { $0 * gain }, to: folder.file("quieter.wav"))
        try write(stereo(tone, tone) + [0, 0, 0, 0], to: folder.file("longer.wav"))
        try write(tone, channels: 1, to: folder.file("mono.wav"))

        let loudness = try RenderComparison(tolerances: ComparisonTolerances(loudnessLU: 0.4))
            .compare(approved: folder.file("a.wav"), rendered: folder.file("quieter.wav"))
        let difference = try #require(loudness.figures.loudnessDifference)
        #expect(abs(difference + 0.5) < 0.01, "a gain of -0.5 dB moves integrated loudness by -0.5 LU: \(difference)")
        #expect(loudness.failures == [.loudness(lu: abs(difference), allowed: 0.4)])

        let strict = RenderComparison(tolerances: ComparisonTolerances())
        let longer = try strict.compare(approved: folder.file("a.wav"), rendered: folder.file("longer.wav"))
        #expect(longer.failures == [.length(a: Int64(frames), b: Int64(frames + 2), allowed: 0)])
        let allowed = try RenderComparison(tolerances: ComparisonTolerances(lengthFrames: 2))
            .compare(approved: folder.file("a.wav"), rendered: folder.file("longer.wav"))
        #expect(allowed.passed, "two frames more are allowed, and the frames both hold are identical")
        let mono = try strict.compare(approved: folder.file("a.wav"), rendered: folder.file("mono.wav"))
        #expect(mono.failures.map(\.name) == ["format"] && !mono.figures.compared)
    }
}
