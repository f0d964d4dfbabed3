import Foundation
@testable import Resampling
import TestSupport
import Testing

@Suite struct SoxrEngineTests {
    static let ratios = [(44100, 48000), (48000, 44100), (8000, 96000), (96000, 8000), (44100, 22050), (1000, 768_000), (768_000, 1000)]

    func engine(_ inputRate: Int, _ outputRate: Int, channels: Int = 1, quality: ResamplerQuality = .best) throws -> any ResamplerEngine {
        try ResamplingTests.engine(named: "soxr", inputRate, outputRate, channels: channels, quality: quality)
    }

    @Test func eachQualityUsesTheNearestSoxrRecipe() throws {
        #expect(SoxrEngine.recipe(for: .best) == LibSoxr.veryHigh)
        #expect(SoxrEngine.recipe(for: .high) == LibSoxr.high)
        #expect(SoxrEngine.recipe(for: .medium) == LibSoxr.medium)
        #expect(SoxrEngine.recipe(for: .fastest) == LibSoxr.quick)
        #expect(SoxrEngine.recipe(for: .linear) == nil)
        #expect(throws: ResamplerError.unsupportedQuality(engine: "soxr", quality: .zeroOrderHold, offered: [.best, .high, .medium, .fastest])) {
            _ = try engine(44100, 48000, quality: .zeroOrderHold)
        }
        #expect(ResamplerError.unsupportedQuality(engine: "soxr", quality: .linear, offered: [.best, .high, .medium, .fastest]).description
                == "soxr has no quality 'linear'; it offers best, high, medium, fastest; libsamplerate has it")
    }

    @Test(arguments: ratios)
    func outputLengthIsExact(inputRate: Int, outputRate: Int) throws {
        for quality in ResamplerRegistry.defaultEngine.qualities {
            let engine = try engine(inputRate, outputRate, quality: quality)
            for frames in [1, 6, 999, 20_011] {
                engine.reset()
                let input = Signal.noise(frames: frames, amplitude: 0.3, seed: 3)
                let output = try stream(input, through: engine, chunk: 4096, room: 4096)
                #expect(output.count == engine.configuration.outputFrames(forInputFrames: frames),
                        "\(quality): \(frames) frames \(inputRate) → \(outputRate)")
            }
        }
    }

    /// The samples do not depend on how input and output are split into calls.
    @Test(arguments: [ResamplerQuality.best, .fastest])
    func theSamplesDoNotDependOnChunkSizes(quality: ResamplerQuality) throws {
        let input = Signal.noise(frames: 30_011, amplitude: 0.5, seed: 4) + Signal.noise(frames: 30_011, amplitude: 0.5, seed: 5)
        let stereo = (0..<30_011).flatMap { [input[$0], input[30_011 + $0]] }
        let reference = try stream(stereo, through: engine(44100, 48000, channels: 2, quality: quality), chunk: 100_000, room: 100_000)
        for (chunk, room) in [(1, 1), (7, 3), (333, 700), (4096, 17)] {
            let other = try stream(stereo, through: engine(44100, 48000, channels: 2, quality: quality), chunk: chunk, room: room)
            #expect(other == reference, "\(quality): chunks of \(chunk), room for \(room)")
        }
        #expect(reference.count == 2 * 32_665)
    }

    /// An impulse comes out where its input time lands at the new rate: no leading delay.
    @Test(arguments: [(44100, 48000), (48000, 44100), (8000, 96000), (96000, 8000)])
    func thereIsNoLeadingDelay(inputRate: Int, outputRate: Int) throws {
        for quality in [ResamplerQuality.best, .high, .medium] {
            var input = [Float](repeating: 0, count: 20_000)
            input[9600] = 1
            let output = try stream(input, through: engine(inputRate, outputRate, quality: quality), chunk: 512, room: 512)
            let peak = output.indices.max { abs(output[$0]) < abs(output[$1]) } ?? -1
            let expected = 9600.0 * Double(outputRate) / Double(inputRate)
            #expect(abs(Double(peak) - expected) <= 1, "\(quality) \(inputRate) → \(outputRate): peak at \(peak), expected \(expected)")
        }
    }

    /// The tail is flushed: a sine to the very end keeps its level in the last frames.
    @Test func theTailIsFlushed() throws {
        let input = [Float](repeating: 0.5, count: 10_000)
        let output = try stream(input, through: engine(44100, 48000), chunk: 10_000, room: 20_000)
        #expect(output.count == 10_884)
        #expect(output[10_800..<10_870].allSatisfy { abs($0 - 0.5) < 0.05 }, "constant input stays constant to near the end")
        #expect(output[10_883] != 0)
    }

    /// A 1 kHz tone at −1 dBFS converted 48 → 44.1 kHz: (distortion + noise) over the tone, in dB,
    /// and a 23 kHz tone's level after the conversion relative to its input level (above the new
    /// Nyquist: everything left of it is aliasing), as libsamplerate's `snr_bw_test` measures.
    func measure(_ quality: ResamplerQuality) throws -> (thdPlusNoise: Double, rejection: Double) {
        let amplitude = pow(10, -1.0 / 20)
        let frames = 96_000
        let tone = Signal.sine(frequency: 1000, sampleRate: 48000, frames: frames, amplitude: amplitude)
        let converted = try stream(tone, through: engine(48000, 44100, quality: quality), chunk: 8192, room: 8192)
        let middle = Array(converted[8820..<(converted.count - 8820)])
        let residual = SineFit(frequency: 1000, sampleRate: 44100, samples: middle).residualRMS
        let thdPlusNoise = 20 * log10(residual / (amplitude / 2.0.squareRoot()))
        let high = Signal.sine(frequency: 23000, sampleRate: 48000, frames: frames, amplitude: amplitude)
        let aliased = try stream(high, through: engine(48000, 44100, quality: quality), chunk: 8192, room: 8192)
        let rejection = 20 * log10(Signal.rms(Array(aliased[8820..<(aliased.count - 8820)])) / (amplitude / 2.0.squareRoot()))
        return (thdPlusNoise, rejection)
    }

    /// Measured with libsoxr 0.1.3: best −152 / −157 dB, high −134 / −135, medium −114 / −116,
    /// fastest (quick cubic interpolation, no anti-aliasing filter) −114 / −4; minimums a few dB short of those.
    @Test(arguments: [(ResamplerQuality.best, -145.0, -150.0), (.high, -128, -130), (.medium, -108, -110), (.fastest, -108, -3)])
    func qualityMeetsItsMinimum(quality: ResamplerQuality, thdPlusNoise: Double, rejection: Double) throws {
        let measured = try measure(quality)
        #expect(measured.thdPlusNoise < thdPlusNoise, "\(quality): THD+N \(measured.thdPlusNoise) dB")
        #expect(measured.rejection < rejection, "\(quality): 23 kHz at \(measured.rejection) dB")
    }
}

/// The least-squares fit of one frequency (a sine and a cosine and an offset) to samples; what is
/// left is distortion and noise.
struct SineFit {
    let residualRMS: Double

    init(frequency: Double, sampleRate: Double, samples: [Float]) {
        var (ss, sc, cc, sy, cy) = (0.0, 0.0, 0.0, 0.0, 0.0)
        for (n, value) in samples.enumerated() {
            let phase = 2 * Double.pi * frequency * Double(n) / sampleRate
            let (s, c) = (sin(phase), cos(phase))
            ss += s * s; sc += s * c; cc += c * c; sy += s * Double(value); cy += c * Double(value)
        }
        let determinant = ss * cc - sc * sc
        let a = (sy * cc - cy * sc) / determinant, b = (cy * ss - sy * sc) / determinant
        var energy = 0.0
        for (n, value) in samples.enumerated() {
            let phase = 2 * Double.pi * frequency * Double(n) / sampleRate
            let error = Double(value) - a * sin(phase) - b * cos(phase)
            energy += error * error
        }
        residualRMS = (energy / Double(samples.count)).squareRoot()
    }
}
