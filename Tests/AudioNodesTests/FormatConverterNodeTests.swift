import AudioDSP
import AudioGraph
import AudioNodes
import Foundation
import GraphTestSupport
import MallocCounter
@testable import Resampling
import TestSupport
import Testing

@Suite struct FormatConverterNodeTests {
    func convert(_ channels: [[Float]], from inRate: Double, to outRate: Double, channels outChannels: Int? = nil,
                 quality: ResamplerQuality = .best, resampler: ResamplerEngineKind = ResamplerRegistry.defaultEngine,
                 sliceSize: Int = 4096, matrix: ChannelMatrix? = nil) throws -> [[Float]] {
        let node = try FormatConverterNode(output: .canonical(sampleRate: outRate, channelCount: outChannels ?? channels.count),
                                           resampler: resampler, quality: quality, matrix: matrix)
        return try NodeHarness(node: node, channels: channels, sampleRate: inRate).render(sliceSize: sliceSize)
    }

    /// The amplitude of `frequency` in `signal`, by direct Fourier sum over whole cycles.
    func amplitude(of frequency: Double, in signal: ArraySlice<Float>, sampleRate: Double) -> Double {
        var re = 0.0, im = 0.0
        for (n, value) in signal.enumerated() {
            let phase = 2 * Double.pi * frequency * Double(n) / sampleRate
            re += Double(value) * cos(phase)
            im += Double(value) * sin(phase)
        }
        return 2 * sqrt(re * re + im * im) / Double(signal.count)
    }

    @Test(arguments: [(44100.0, 48000.0), (48000.0, 44100.0), (8000.0, 192000.0), (192000.0, 8000.0), (44100.0, 44100.0)])
    func outputLengthIsExact(inRate: Double, outRate: Double) throws {
        for engine in ResamplerRegistry.engines {
            for frames in [1, 1000, 44_101] {
                let input = [Signal.noise(frames: frames, amplitude: 0.3)]
                let output = try convert(input, from: inRate, to: outRate, resampler: engine)
                #expect(output[0].count == Int((Double(frames) * outRate / inRate).rounded()),
                        "\(engine.name): \(frames) frames \(inRate) → \(outRate)")
            }
        }
    }

    @Test func equalRatesAreBitTransparent() throws {
        let input = [Signal.noise(frames: 10_000, seed: 3), Signal.noise(frames: 10_000, seed: 4)]
        #expect(try convert(input, from: 44100, to: 44100) == input)
    }

    @Test(arguments: [(44100.0, 48000.0), (48000.0, 44100.0), (22050.0, 96000.0)])
    func aResampledSineKeepsItsFrequencyAndAmplitude(inRate: Double, outRate: Double) throws {
        let input = [Signal.sine(frequency: 1000, sampleRate: inRate, frames: Int(inRate), amplitude: 0.5)]
        let output = try convert(input, from: inRate, to: outRate)[0]
        let middle = output[Int(outRate * 0.25)..<Int(outRate * 0.75)]
        #expect(abs(amplitude(of: 1000, in: middle, sampleRate: outRate) - 0.5) < 0.001)
        #expect(amplitude(of: 1010, in: middle, sampleRate: outRate) < 0.01, "the energy is at 1000 Hz, not nearby")
        let crossings = zip(middle, middle.dropFirst()).filter { $0 < 0 && $1 >= 0 }.count
        #expect(abs(crossings - 500) <= 1, "half a second of 1 kHz: \(crossings) upward crossings")
    }

    @Test func aToneAboveTheNewNyquistIsRemoved() throws {
        let input = [Signal.sine(frequency: 15000, sampleRate: 48000, frames: 48000, amplitude: 0.9)]
        let output = try convert(input, from: 48000, to: 22050)[0]
        let level = 20 * log10(Signal.rms(Array(output[2000..<20000])) / (0.9 / 2.0.squareRoot()))
        #expect(level < -90, "15 kHz into a 22.05 kHz stream: \(level) dB")
    }

    @Test(arguments: [1, 100, 4095])
    func outputDoesNotDependOnSliceSize(sliceSize: Int) throws {
        let input = [Signal.noise(frames: 30_001, seed: 5), Signal.noise(frames: 30_001, seed: 6)]
        for engine in ResamplerRegistry.engines {
            let reference = try convert(input, from: 44100, to: 48000, resampler: engine, sliceSize: 4096)
            let other = try convert(input, from: 44100, to: 48000, resampler: engine, sliceSize: sliceSize)
            #expect(other.map(\.count) == reference.map(\.count))
            let worst = zip(reference.joined(), other.joined()).map { abs($0 - $1) }.max() ?? 1
            #expect(worst <= 1e-6, "\(engine.name)")
        }
    }

    /// The streaming node matches libsamplerate's one-shot `src_simple` on the whole signal.
    @Test(arguments: [ResamplerQuality.best, .medium, .fastest])
    func matchesLibsamplerateOneShot(quality: ResamplerQuality) throws {
        let input = Signal.noise(frames: 50_000, amplitude: 0.5, seed: 7)
        let streamed = try convert([input], from: 44100, to: 48000, quality: quality, resampler: LibsamplerateEngine.kind,
                                   sliceSize: 1000)[0]
        let whole = try LibsamplerateEngine.convertWhole(input, channelCount: 1, ratio: 48000.0 / 44100, quality: quality)
        let worst = zip(streamed, whole).map { abs($0 - $1) }.max() ?? 1
        #expect(worst < 1e-4, "\(quality.name): \(worst)")
        #expect(abs(streamed.count - whole.count) <= 2)
    }

    /// Blocks converted on two threads join into what one converter state makes.
    @Test(arguments: [(44100.0, 48000.0), (48000.0, 44100.0), (96000.0, 8000.0)])
    func blocksJoinIntoTheSingleStateResult(inRate: Double, outRate: Double) throws {
        let input = Signal.noise(frames: 400_003, amplitude: 0.5, seed: 11)
        let streamed = try convert([input], from: inRate, to: outRate, resampler: LibsamplerateEngine.kind, sliceSize: 4096)[0]
        let whole = try LibsamplerateEngine.convertWhole(input, channelCount: 1, ratio: outRate / inRate, quality: .best)
        let compared = min(streamed.count, whole.count) - 200
        let worst = zip(streamed.prefix(compared), whole.prefix(compared)).map { abs($0 - $1) }.max() ?? 1
        #expect(worst <= 1e-6, "\(inRate) → \(outRate): the joined blocks differ from one state by \(worst)")
    }

    @Test func channelsAreMappedWithOrWithoutResampling() throws {
        let left = [Float](repeating: 0.5, count: 8000), right = [Float](repeating: -0.25, count: 8000)
        let mono = try convert([left, right], from: 8000, to: 8000, channels: 1)
        #expect(mono.count == 1 && mono[0].allSatisfy { $0 == 0.125 }, "stereo to mono is (L+R)/2")
        let copies = try convert([left], from: 8000, to: 8000, channels: 2)
        #expect(copies == [left, left])
        let swapped = try convert([left, right], from: 8000, to: 8000, matrix: try .selecting([1, 0], inputCount: 2))
        #expect(swapped == [right, left])
        let upsampledCopies = try convert([Signal.sine(frequency: 440, sampleRate: 8000, frames: 8000)], from: 8000, to: 16000, channels: 2)
        #expect(upsampledCopies.count == 2 && upsampledCopies[0] == upsampledCopies[1] && upsampledCopies[0].count == 16000)
        let downmixed = try convert([left, right], from: 8000, to: 16000, channels: 1)[0]
        #expect(abs(downmixed[8000] - 0.125) < 1e-3)
    }

    @Test func aWrongMatrixIsRefusedAtInitialize() throws {
        let node = try FormatConverterNode(output: .canonical(sampleRate: 8000, channelCount: 2), matrix: try .parse("1,0,0;0,1,0"))
        #expect(throws: GraphError.self) { _ = try NodeHarness(node: node, channels: [[0], [0]], sampleRate: 8000) }
    }

    @Test(arguments: ResamplerRegistry.engines.map(\.name), [1, 2])
    func renderingAllocatesNothing(engine: String, outputChannels: Int) throws {
        let input = [Signal.noise(frames: 300_000, seed: 8), Signal.noise(frames: 300_000, seed: 9)]
        let (allocations, slices) = try steadyStateAllocations(sliceSize: 512) {
            let node = try FormatConverterNode(output: .canonical(sampleRate: 48000, channelCount: outputChannels),
                                               resampler: try ResamplerRegistry.engine(named: engine), quality: .fastest)
            return try NodeHarness(node: node, channels: input, sampleRate: 44100, maximumFrames: 512)
        }
        #expect(slices > 500)
        #expect(allocations == 0)
    }
}
