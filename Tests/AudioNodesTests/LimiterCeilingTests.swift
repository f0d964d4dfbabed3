import AudioDSP
import AudioNodes
import Foundation
import GraphTestSupport
import Loudness
import Testing
import TestSupport

/// The limiter's ceiling as meters other than its own read it: a long 8× reconstruction written
/// here (a 513-tap Kaiser-windowed sinc, flat to 0.45 of the rate; none of the limiter's code)
/// and libebur128, on hot pink noise and on near-Nyquist sines and square waves at 44.1, 48 and
/// 96 kHz; each must read the output at most 0.05 dB over the ceiling.
@Suite struct LimiterCeilingTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let name: String
        let rate: Double
        let channels: [[Float]]
        var testDescription: String { "\(name) at \(Int(rate)) Hz" }
    }

    /// Pink noise (Paul Kellet's filter on white noise from a fixed seed) scaled so its highest
    /// sample is at `peakDB` dBFS.
    static func pinkNoise(frames: Int, seed: UInt64, peakDB: Double) -> [Float] {
        let white = Signal.noise(frames: frames, amplitude: 1, seed: seed)
        var b = [Double](repeating: 0, count: 7)
        let pink = white.map { sample -> Double in
            let w = Double(sample)
            b[0] = 0.99886 * b[0] + w * 0.0555179; b[1] = 0.99332 * b[1] + w * 0.0750759
            b[2] = 0.96900 * b[2] + w * 0.1538520; b[3] = 0.86650 * b[3] + w * 0.3104856
            b[4] = 0.55000 * b[4] + w * 0.5329522; b[5] = -0.7616 * b[5] - w * 0.0168980
            let value = b[0] + b[1] + b[2] + b[3] + b[4] + b[5] + b[6] + w * 0.5362
            b[6] = w * 0.115926
            return value
        }
        let scale = pow(10, peakDB / 20) / pink.map(abs).max()!
        return pink.map { Float($0 * scale) }
    }

    /// A naive square wave (its harmonics alias all the way to Nyquist) at `peakDB` dBFS.
    static func square(frequency: Double, rate: Double, frames: Int, peakDB: Double) -> [Float] {
        let level = Float(pow(10, peakDB / 20))
        return (0..<frames).map { sin(2 * .pi * frequency * Double($0) / rate) >= 0 ? level : -level }
    }

    static let cases: [Case] = [
        Case(name: "hot pink noise, overs to +8 dBFS", rate: 48000,
             channels: [pinkNoise(frames: 48000, seed: 3, peakDB: 8), pinkNoise(frames: 48000, seed: 4, peakDB: 8)]),
    ] + [44100.0, 48000, 96000].flatMap { rate in
        [Case(name: "a sine at 0.45 of the rate, +6 dBFS", rate: rate,
              channels: [Signal.sine(frequency: 0.45 * rate, sampleRate: rate, frames: 12000, amplitude: 2)]),
         Case(name: "a 1000.3 Hz square wave, +3 dBFS", rate: rate,
              channels: [square(frequency: 1000.3, rate: rate, frames: 12000, peakDB: 3)])]
    }

    /// The largest point of an 8× reconstruction of `channels` by a 513-tap Kaiser (β 8)
    /// windowed sinc cut off at half the rate, each phase scaled to pass a constant unchanged;
    /// the stream is taken as silent before and after.
    static func reconstructedPeak(_ channels: [[Float]]) -> Double {
        let factor = 8, half = 32, beta = 8.0
        func besselI0(_ x: Double) -> Double {
            var sum = 1.0, term = 1.0
            for k in 1..<60 { term *= (x / (2 * Double(k))) * (x / (2 * Double(k))); sum += term }
            return sum
        }
        let phases: [[Double]] = (1..<factor).map { phase in
            let row = (-half + 1...half).map { tap -> Double in
                let t = Double(tap) - Double(phase) / Double(factor)
                let ratio = t / Double(half)
                return sin(.pi * t) / (.pi * t) * besselI0(beta * (1 - ratio * ratio).squareRoot()) / besselI0(beta)
            }
            let sum = row.reduce(0, +)
            return row.map { $0 / sum }
        }
        var largest = 0.0
        for channel in channels {
            let padded = [Float](repeating: 0, count: half) + channel + [Float](repeating: 0, count: half)
            padded.withUnsafeBufferPointer { x in
                for phase in phases {
                    phase.withUnsafeBufferPointer { c in
                        for centre in (half - 1)..<(padded.count - half) {
                            var point = 0.0
                            // The point `phase`/8 after x[centre] reads x[centre - half + 1 ... centre + half].
                            let first = centre - half + 1
                            for k in 0..<(2 * half) { point += c[k] * Double(x[first + k]) }
                            largest = max(largest, abs(point))
                        }
                    }
                }
                for sample in x { largest = max(largest, Double(abs(sample))) }
            }
        }
        return 20 * log10(largest)
    }

    @Test(arguments: cases)
    func everyMeterReadsTheOutputAtTheCeiling(signal: Case) throws {
        let ceiling = -1.0
        let output = try NodeHarness(node: LimiterNode(ceiling: ceiling), channels: signal.channels, sampleRate: signal.rate)
            .render(sliceSize: 1000)
        #expect(output.map(\.count) == signal.channels.map(\.count), "the render is as long as its input, frame for frame")
        let reconstructed = Self.reconstructedPeak(output)
        #expect(reconstructed <= ceiling + 0.05, "\(signal.name): the long 8× reconstruction reads \(reconstructed) dBTP")
        #expect(reconstructed >= ceiling - 0.5, "\(signal.name): \(reconstructed) dBTP, far under the ceiling")
        let standard = try #require(try measuredLoudness(output, sampleRate: signal.rate).truePeak)
        #expect(standard <= ceiling + 0.05, "\(signal.name): libebur128 reads \(standard) dBTP")
    }

    @Test func theTestsReconstructionReadsASinesCrestBetweenItsSamples() {
        // A 0.45-rate sine sampled away from its crests: its samples stay well under 1, the
        // reconstruction finds the crest, so a reading under the ceiling means something.
        // It fades in and out over 1000 samples, so no edge rings over its crest.
        let sine = (0..<4800).map { n in
            let fade = min(1, Double(min(n, 4799 - n)) / 1000)
            return Float(fade * sin(2 * .pi * 0.45 * Double(n) + .pi / 20))
        }
        #expect(Double(sine.map(abs).max()!) < 0.99)
        let reconstructed = Self.reconstructedPeak([sine])
        #expect(abs(reconstructed) < 0.02, "\(reconstructed) dB")
    }

    @Test func theSameInputGivesTheSameBitsWhateverTheSlices() throws {
        let noise = [Self.pinkNoise(frames: 30000, seed: 8, peakDB: 6)]
        let whole = try NodeHarness(node: LimiterNode(ceiling: -1), channels: noise).render(sliceSize: 4096)
        let sliced = try NodeHarness(node: LimiterNode(ceiling: -1), channels: noise).render(sliceSize: 77)
        let again = try NodeHarness(node: LimiterNode(ceiling: -1), channels: noise).render(sliceSize: 4096)
        #expect(whole == sliced)
        #expect(whole == again)
        #expect(whole != noise)
    }
}
