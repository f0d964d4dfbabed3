import AudioDSP
import AudioGraph
import AudioNodes
import FourierTransforms
import Foundation
import GraphTestSupport
import TestSupport
import Testing

@Suite struct DistortionNodeTests {
    /// The largest component of `samples` (a 4-term Blackman-Harris window, sidelobes under
    /// -92 dB, over 32768 frames from `start`) that is no harmonic of `fundamental` Hz, in dB
    /// under the fundamental's peak: the aliasing.
    static func aliasing(_ samples: [Float], fundamental: Double, rate: Double, start: Int = 8192) -> Double {
        let size = 32768
        let fft = RealFFT(size: size)
        for index in 0..<size {
            let phase = 2 * Double.pi * Double(index) / Double(size - 1)
            let window = 0.35875 - 0.48829 * cos(phase) + 0.14128 * cos(2 * phase) - 0.01168 * cos(3 * phase)
            fft.input[index] = Float(window) * samples[start + index]
        }
        fft.transform()
        let binWidth = rate / Double(size)
        let power = (0...(size / 2)).map { bin in Double(fft.output[2 * bin] * fft.output[2 * bin] + fft.output[2 * bin + 1] * fft.output[2 * bin + 1]) }
        let fundamentalBin = Int((fundamental / binWidth).rounded())
        let peak = power[(fundamentalBin - 4)...(fundamentalBin + 4)].max()!
        var worst = 0.0
        for bin in 8..<power.count {
            let frequency = Double(bin) * binWidth
            let nearest = (frequency / fundamental).rounded() * fundamental
            if abs(frequency - nearest) <= 8 * binWidth { continue }
            worst = max(worst, power[bin])
        }
        return 10 * log10(worst / peak)
    }

    @Test func aFiveKilohertzSineDriven20dBIntoSoftClippingKeepsItsAliases60dBDown() throws {
        let rate = 44100.0
        let sine = Signal.sine(frequency: 5000, sampleRate: rate, frames: 44100, amplitude: 1)
        let node = try DistortionNode(settings: Distortion.Settings(drive: 20, shape: .soft))
        let output = try NodeHarness(node: node, channels: [sine], sampleRate: rate).render()[0]
        let aliasing = Self.aliasing(output, fundamental: 5000, rate: rate)
        #expect(aliasing <= -60, "aliases at \(aliasing) dB")
        // The same curve at the base rate, without oversampling, aliases far more: the measurement sees it.
        let naive = sine.map { Float(tanh(10 * Double($0))) }
        #expect(Self.aliasing(naive, fundamental: 5000, rate: rate) > -40)
    }

    @Test func aQuietSignalComesOutAlignedWithTheInputAndOfItsLength() throws {
        let input = Signal.sine(frequency: 1000, sampleRate: 44100, frames: 20000, amplitude: 0.01)
        let output = try NodeHarness(node: DistortionNode(settings: Distortion.Settings(drive: 0)), channels: [input]).render(sliceSize: 999)[0]
        #expect(output.count == input.count)
        // tanh(x) is x within x³/3 (3e-7 here); a frame late would be 1.4e-3 off.
        let error = zip(output, input).dropFirst(200).dropLast(200).map { abs($0 - $1) }.max()!
        #expect(error < 1e-5, "largest difference \(error)")
    }

    @Test func fullyDryIsTheInputSampleForSample() throws {
        let input = Signal.noise(frames: 10000, amplitude: 0.9)
        let output = try NodeHarness(node: DistortionNode(settings: Distortion.Settings(drive: 30, shape: .hard, wet: 0)), channels: [input]).render()[0]
        #expect(output == input)
    }

    /// The power of `frequency` in `samples` against the rest: the signal-to-noise-and-distortion ratio in dB.
    static func sinad(_ samples: ArraySlice<Float>, frequency: Double, rate: Double) -> Double {
        let step = 2 * Double.pi * frequency / rate
        var real = 0.0, imaginary = 0.0
        for (index, sample) in samples.enumerated() {
            real += Double(sample) * cos(step * Double(index))
            imaginary += Double(sample) * sin(step * Double(index))
        }
        let tone = 2 * (real * real + imaginary * imaginary) / Double(samples.count * samples.count)
        let total = samples.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(samples.count)
        return 10 * log10(tone / (total - tone))
    }

    @Test(arguments: [4, 8, 12])
    func eachBitOfTheCrusherBuysSixDecibels(bits: Int) throws {
        let input = Signal.sine(frequency: 1000, sampleRate: 44100, frames: 44100, amplitude: 0.9)
        let output = try NodeHarness(node: DistortionNode(settings: Distortion.Settings(drive: 0, shape: .crush, bits: bits)), channels: [input]).render()[0]
        let measured = Self.sinad(output[4410..<(4410 + 35280)], frequency: 1000, rate: 44100)
        // A sine's quantization: 6.02 dB a bit + 1.76 dB at full scale, at 0.9 of it; the crusher
        // quantizes at four times the rate, and the decimator keeps a quarter of that noise.
        let expected = 6.02 * Double(bits) + 1.76 + 20 * log10(0.9) + 10 * log10(4)
        #expect(abs(measured - expected) < 2.5, "\(bits) bits: \(measured) dB, expected \(expected)")
    }

    @Test func decimationMirrorsTheToneAroundTheLowerRate() throws {
        func image(_ shape: Distortion.Shape) throws -> Double {
            let input = Signal.sine(frequency: 1000, sampleRate: 44100, frames: 44100, amplitude: 0.5)
            let output = try NodeHarness(node: DistortionNode(settings: Distortion.Settings(drive: 0, shape: shape, decimation: 4)), channels: [input]).render()[0]
            // Holding every 4th frame samples at 11025 Hz: the tone's image at 11025 - 1000 Hz.
            return EffectsLevel.level(of: 10025, in: output[4410..<39690], rate: 44100) - EffectsLevel.level(of: 1000, in: output[4410..<39690], rate: 44100)
        }
        #expect(try image(.decimate) > -25)
        #expect(try image(.soft) < -100)
    }

    @Test(arguments: [1, 64, 65, 128, 4096])
    func theOutputDoesNotDependOnTheSliceSize(sliceSize: Int) throws {
        let signal = [Signal.noise(frames: 12000, amplitude: 0.8), Signal.noise(frames: 12000, amplitude: 0.8, seed: 5)]
        func render(_ size: Int) throws -> [[Float]] {
            let node = try DistortionNode(settings: Distortion.Settings(drive: 18, shape: .soft, wet: 0.7))
            let harness = try NodeHarness(node: node, channels: signal)
            try harness.graph.scheduleParameter(DistortionNode.Parameter.shape.rawValue, on: node, value: 3, atFrame: 5003)
            try harness.graph.scheduleParameter(DistortionNode.Parameter.drive.rawValue, on: node, value: 6, atFrame: 9001)
            return try harness.render(sliceSize: size)
        }
        let reference = try render(1000)
        #expect(reference[0].count == 12000)
        #expect(try render(sliceSize) == reference)
    }

    @Test func renderingAllocatesNothing() throws {
        let signal = [Signal.noise(frames: 30000, amplitude: 0.3), Signal.noise(frames: 30000, amplitude: 0.3, seed: 3)]
        let (allocations, slices) = try steadyStateAllocations(sliceSize: 512) {
            try NodeHarness(node: DistortionNode(settings: Distortion.Settings(drive: 12)), channels: signal)
        }
        #expect(slices > 50)
        #expect(allocations == 0)
    }

    @Test func aGraphFileMakesItWithItsFieldsCheckedAndRanged() throws {
        let context = NodeContext(sampleRate: 48000, findPreset: { _ in throw PresetError(source: "", field: nil, problem: "none") })
        let kind = try #require(NodeCatalogue.kind(named: "distortion"))
        let node = try #require(try NodeCatalogue.make("fuzz", kind: kind, fields: ["drive": "24dB", "shape": "crush", "bits": 6, "wet": 50],
                                                       context: context) as? DistortionNode)
        #expect(node.settings == Distortion.Settings(drive: 24, shape: .crush, bits: 6, wet: 0.5))
        #expect(node.planDetail == "drive 24 dB, bit crush to 6 bits, wet 50 %, 4x oversampled, \(OversamplerDesign.standard.latency) frames of latency (compensated)")
        #expect(throws: NodeSettingError(node: "fuzz", kind: "distortion", field: "drive", problem: "must be from -24 to 48, not 60")) {
            try NodeCatalogue.make("fuzz", kind: kind, fields: ["drive": 60], context: context)
        }
        #expect(throws: NodeSettingError(node: "fuzz", kind: "distortion", field: "shape",
                                         problem: "has no choice 'fuzz' (it has 'soft', 'hard', 'crush', 'decimate')")) {
            try NodeCatalogue.make("fuzz", kind: kind, fields: ["shape": "fuzz"], context: context)
        }
    }
}

/// The level of one frequency in a span of samples.
enum EffectsLevel {
    /// The level in dB of `frequency` in `samples` (a Goertzel), relative to full scale.
    static func level(of frequency: Double, in samples: ArraySlice<Float>, rate: Double) -> Double {
        let step = 2 * Double.pi * frequency / rate
        var real = 0.0, imaginary = 0.0
        for (index, sample) in samples.enumerated() {
            real += Double(sample) * cos(step * Double(index))
            imaginary += Double(sample) * sin(step * Double(index))
        }
        return 20 * log10(2 * (real * real + imaginary * imaginary).squareRoot() / Double(samples.count))
    }
}
