import AudioDSP
import AudioGraph
import AudioNodes
import Foundation
import GraphTestSupport
import Loudness
import TestSupport
import Testing

/// Signals that make limiters overshoot: intersample peaks, square waves, dense noise, bursts.
enum HardSignals {
    /// A sine at a quarter of the rate, 45° off the samples: every sample is at 0.707 of the true peak.
    static func quarterRateSine(frames: Int, peak: Double) -> [Float] {
        (0..<frames).map { Float(peak * sin(Double.pi / 2 * Double($0) + .pi / 4)) }
    }

    /// A sine driven into hard clipping: a square-ish wave whose edges ring over full scale.
    static func clippedSine(frequency: Double, sampleRate: Double, frames: Int, drive: Double, peak: Double) -> [Float] {
        (0..<frames).map { Float(peak * max(-1, min(1, drive * sin(2 * .pi * frequency * Double($0) / sampleRate)))) }
    }

    /// Noise in bursts: loud half-second spans between quiet ones.
    static func bursts(frames: Int, sampleRate: Double, loud: Float, quiet: Float, seed: UInt64) -> [Float] {
        let noise = Signal.noise(frames: frames, amplitude: 1, seed: seed)
        let span = Int(sampleRate / 2)
        return noise.enumerated().map { index, sample in sample * ((index / span) % 2 == 0 ? loud : quiet) }
    }
}

/// Measures `channels` at `sampleRate` with libebur128.
func measuredLoudness(_ channels: [[Float]], sampleRate: Double) throws -> LoudnessMeasurement {
    let meter = try LoudnessMeter(channelCount: channels.count, sampleRate: Int(sampleRate))
    var interleaved = [Float](repeating: 0, count: channels[0].count * channels.count)
    for frame in 0..<channels[0].count {
        for channel in channels.indices { interleaved[frame * channels.count + channel] = channels[channel][frame] }
    }
    try interleaved.withUnsafeBufferPointer { try meter.add($0.baseAddress!, frames: channels[0].count) }
    return meter.measurement()
}

@Suite struct LimiterNodeTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let name: String
        let rate: Double
        let channels: [[Float]]
        var testDescription: String { "\(name) at \(Int(rate)) Hz" }
    }

    static let cases: [Case] = [
        Case(name: "a quarter-rate sine at +6 dBTP", rate: 44100,
             channels: [HardSignals.quarterRateSine(frames: 44100, peak: 2), HardSignals.quarterRateSine(frames: 44100, peak: 1.5)]),
        Case(name: "a clipped 997 Hz sine at +4 dB", rate: 44100,
             channels: [HardSignals.clippedSine(frequency: 997, sampleRate: 44100, frames: 44100, drive: 8, peak: 1.6)]),
        Case(name: "a clipped 3 kHz sine", rate: 48000,
             channels: [HardSignals.clippedSine(frequency: 3001, sampleRate: 48000, frames: 48000, drive: 20, peak: 1.2),
                        HardSignals.clippedSine(frequency: 2999, sampleRate: 48000, frames: 48000, drive: 3, peak: 1)]),
        Case(name: "dense noise at +12 dB", rate: 44100, channels: [Signal.noise(frames: 88200, amplitude: 4), Signal.noise(frames: 88200, amplitude: 4, seed: 9)]),
        Case(name: "bursts of noise", rate: 44100,
             channels: [HardSignals.bursts(frames: 132300, sampleRate: 44100, loud: 3, quiet: 0.05, seed: 4),
                        HardSignals.bursts(frames: 132300, sampleRate: 44100, loud: 2, quiet: 0.1, seed: 5)]),
        Case(name: "a clipped sine at 96 kHz", rate: 96000,
             channels: [HardSignals.clippedSine(frequency: 1234, sampleRate: 96000, frames: 96000, drive: 10, peak: 1.5)]),
    ]

    @Test(arguments: cases)
    func theOutputsTruePeakStaysUnderTheCeilingAsLibebur128MeasuresIt(signal: Case) throws {
        for ceiling in [-1.0, -0.1, -6] {
            let input = try measuredLoudness(signal.channels, sampleRate: signal.rate)
            #expect(try #require(input.truePeak) > ceiling + 1, "the signal must need limiting")
            let output = try NodeHarness(node: LimiterNode(ceiling: ceiling), channels: signal.channels, sampleRate: signal.rate).render(sliceSize: 1000)
            #expect(output[0].count == signal.channels[0].count)
            let truePeak = try #require(try measuredLoudness(output, sampleRate: signal.rate).truePeak)
            #expect(truePeak <= ceiling, "\(signal.name): true peak \(truePeak) dBTP over the ceiling \(ceiling)")
            #expect(truePeak >= ceiling - 0.5, "\(signal.name): true peak \(truePeak) dBTP, far under the ceiling \(ceiling)")
        }
    }

    @Test func aSignalUnderTheCeilingComesOutUntouchedAndAligned() throws {
        let signal = [Signal.sine(frequency: 440, sampleRate: 44100, frames: 30000, amplitude: 0.5), Signal.noise(frames: 30000, amplitude: 0.4)]
        let output = try NodeHarness(node: LimiterNode(ceiling: -1), channels: signal).render(sliceSize: 512)
        let untouched = output == signal
        #expect(untouched)
    }

    @Test func aLoudPeakIsLoweredAroundItsPlaceWithTheChannelsLinked() throws {
        var left = Signal.sine(frequency: 200, sampleRate: 44100, frames: 88200, amplitude: 0.25)
        let right = Signal.sine(frequency: 300, sampleRate: 44100, frames: 88200, amplitude: 0.25)
        for frame in 22050..<22100 { left[frame] *= 8 }
        let output = try NodeHarness(node: LimiterNode(ceiling: -1, lookahead: 0.005), channels: [left, right]).render()
        let untouchedBefore = output[0][0..<21000] == left[0..<21000]
        let untouchedAfterTheRelease = output[0][66150...] == left[66150...]
        #expect(untouchedBefore)
        #expect(untouchedAfterTheRelease)
        let reduced = (22000..<22100).filter { abs(right[$0]) > 0.01 }
        #expect(!reduced.isEmpty)
        for frame in reduced {
            let (leftGain, rightGain) = (Double(output[0][frame] / left[frame]), Double(output[1][frame] / right[frame]))
            #expect(abs(leftGain - rightGain) < 1e-4)
            #expect(rightGain < 0.9)
        }
    }

    @Test func theSliceSizeDoesNotChangeTheOutput() throws {
        let signal = [Signal.noise(frames: 20000, amplitude: 3), Signal.noise(frames: 20000, amplitude: 2, seed: 3)]
        let whole = try NodeHarness(node: LimiterNode(ceiling: -1), channels: signal).render(sliceSize: 4096)
        for slice in [1, 100, 333] {
            let same = try NodeHarness(node: LimiterNode(ceiling: -1), channels: signal).render(sliceSize: slice) == whole
            #expect(same, "slices of \(slice)")
        }
    }

    @Test func anInputShorterThanTheLookaheadComesOutWhole() throws {
        let signal = [[Float](repeating: 0.5, count: 10)]
        #expect(try NodeHarness(node: LimiterNode(ceiling: -1), channels: signal).render() == signal)
    }

    @Test func renderingAllocatesNothing() throws {
        let signal = [Signal.noise(frames: 30000, amplitude: 3), Signal.noise(frames: 30000, amplitude: 3, seed: 3)]
        let (allocations, slices) = try steadyStateAllocations(sliceSize: 512) { try NodeHarness(node: LimiterNode(ceiling: -1), channels: signal) }
        #expect(slices > 20)
        #expect(allocations == 0)
    }

    @Test func settingsOutOfRangeAreRefusedNamingThem() {
        #expect(throws: GraphError.parameterOutOfRange(node: "limiter", name: "ceiling", value: 3, range: -30...0)) { try LimiterNode(ceiling: 3) }
        #expect(throws: GraphError.parameterOutOfRange(node: "limiter", name: "lookahead", value: 0.5, range: 0.001...0.05)) {
            try LimiterNode(ceiling: -1, lookahead: 0.5)
        }
    }
}

/// The RMS level of `samples` from `start`, in dBFS.
func rmsLevel(_ samples: ArraySlice<Float>) -> Double {
    10 * log10(samples.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(samples.count))
}

@Suite struct CompressorNodeTests {
    /// A sine whose peak is at `peakDB` dBFS.
    static func tone(peakDB: Double, frames: Int = 44100) -> [Float] {
        Signal.sine(frequency: 1000, sampleRate: 44100, frames: frames, amplitude: pow(10, peakDB / 20))
    }

    @Test(arguments: [(-10.0, 4.0, 0.0), (-6, 2, 0), (-30, 10, 0), (-10, 4, 6), (-3, 4, 0)])
    func aSteadyToneSettlesOnTheStaticCurve(peak: Double, ratio: Double, knee: Double) throws {
        let threshold = -20.0
        let node = try CompressorNode(settings: Compressor.Settings(threshold: threshold, ratio: ratio, attack: 0, release: 0.05, knee: knee))
        let output = try NodeHarness(node: node, channels: [Self.tone(peakDB: peak)]).render()[0]
        let expected = peak + Compressor(settings: node.settings, sampleRate: 44100).gain(forLevel: peak)
        let measuredPeak = 20 * log10(Double(output[22050...].map { abs($0) }.max()!))
        #expect(abs(measuredPeak - expected) < 0.05, "peak \(peak) dB, ratio \(ratio): \(measuredPeak) dB, the curve says \(expected) dB")
        if peak < threshold - knee / 2 { #expect(abs(measuredPeak - peak) < 0.01) }
    }

    @Test func theCurveIsKeptBelowTheKneeReducedByTheRatioAboveAndSmoothBetween() throws {
        let compressor = Compressor(settings: Compressor.Settings(threshold: -20, ratio: 4, knee: 10), sampleRate: 44100)
        #expect(compressor.gain(forLevel: -30) == 0)
        #expect(abs(compressor.gain(forLevel: 0) - (-15)) < 1e-12)
        #expect(abs(compressor.gain(forLevel: -20) - (-0.9375)) < 1e-12)
        #expect(abs(compressor.gain(forLevel: -15.000001) - compressor.gain(forLevel: -14.999999)) < 1e-5)
    }

    @Test func makeupRaisesEverythingAndRMSDetectionFollowsPower() throws {
        let quiet = Self.tone(peakDB: -40)
        let node = try CompressorNode(settings: Compressor.Settings(threshold: -20, ratio: 4, makeup: 6, detection: .rms))
        let output = try NodeHarness(node: node, channels: [quiet]).render()[0]
        #expect(abs(rmsLevel(output[1000...]) - rmsLevel(quiet[1000...]) - 6) < 0.01)
        #expect(node.planDetail == "threshold -20 dB, ratio 4, attack 0.01 s, release 0.1 s, knee 6 dB, makeup 6 dB, detection 'rms'")
    }

    @Test func theChannelsShareOneGainAndSlicesDoNotMatter() throws {
        let signal = [HardSignals.bursts(frames: 44100, sampleRate: 44100, loud: 0.9, quiet: 0.02, seed: 1), Signal.sine(frequency: 220, sampleRate: 44100, frames: 44100, amplitude: 0.1)]
        let make = { try CompressorNode(settings: Compressor.Settings(threshold: -24, ratio: 6, attack: 0.005, release: 0.08)) }
        let whole = try NodeHarness(node: make(), channels: signal).render(sliceSize: 4096)
        let sliced = try NodeHarness(node: make(), channels: signal).render(sliceSize: 77)
        let same = whole == sliced
        #expect(same)
        let ducked = (0..<44100).filter { abs(signal[1][$0]) > 0.05 && abs(whole[1][$0] / signal[1][$0]) < 0.5 }
        #expect(!ducked.isEmpty, "the loud left channel turns the quiet right one down too")
    }

    @Test func renderingAllocatesNothing() throws {
        let signal = [Signal.noise(frames: 30000, amplitude: 0.8), Signal.noise(frames: 30000, amplitude: 0.8, seed: 2)]
        let (allocations, slices) = try steadyStateAllocations(sliceSize: 512) {
            try NodeHarness(node: CompressorNode(settings: Compressor.Settings(threshold: -20, ratio: 4, detection: .rms)), channels: signal)
        }
        #expect(slices > 20)
        #expect(allocations == 0)
    }
}

@Suite struct GateNodeTests {
    @Test func quietPassagesFallToTheRangeAndLoudOnesPassUntouched() throws {
        let signal = HardSignals.bursts(frames: 88200, sampleRate: 44100, loud: 0.5, quiet: 0.001, seed: 3)
        let node = try GateNode(settings: NoiseGate.Settings(threshold: -30, attack: 0.001, hold: 0.02, release: 0.05, range: -60))
        let output = try NodeHarness(node: node, channels: [signal]).render()[0]
        let quietSpan = 22050 + 8000..<44100
        #expect(abs(rmsLevel(output[quietSpan]) - rmsLevel(signal[quietSpan]) + 60) < 0.01)
        let loudSpan = 44100 + 1000..<66150 - 100
        let untouched = output[loudSpan] == signal[loudSpan]
        #expect(untouched)
    }

    @Test func theGateHoldsThenReleasesInEvenDecibelSteps() throws {
        var signal = [Float](repeating: 0.0001, count: 22050)
        for frame in 0..<4410 { signal[frame] = frame % 2 == 0 ? 0.5 : -0.5 }
        let node = try GateNode(settings: NoiseGate.Settings(threshold: -20, attack: 0, hold: 0.01, release: 0.1, range: -40))
        let output = try NodeHarness(node: node, channels: [signal]).render()[0]
        #expect(output[4410 + 400] == signal[4410 + 400], "held open for 10 ms")
        let halfway = 4410 + 441 + 2205
        #expect(abs(20 * log10(Double(output[halfway] / signal[halfway])) + 20) < 0.1, "half the release: half the range")
        #expect(abs(20 * log10(Double(output[20000] / signal[20000])) + 40) < 0.01)
    }

    @Test func theSliceSizeDoesNotChangeTheOutputAndRenderingAllocatesNothing() throws {
        let signal = [HardSignals.bursts(frames: 44100, sampleRate: 44100, loud: 0.5, quiet: 0.001, seed: 8),
                      HardSignals.bursts(frames: 44100, sampleRate: 44100, loud: 0.3, quiet: 0.002, seed: 9)]
        let make = { try GateNode(settings: NoiseGate.Settings(threshold: -30, attack: 0.002, hold: 0.01, release: 0.05)) }
        let whole = try NodeHarness(node: make(), channels: signal).render(sliceSize: 4096)
        let sliced = try NodeHarness(node: make(), channels: signal).render(sliceSize: 61)
        let same = whole == sliced
        #expect(same)
        let (allocations, slices) = try steadyStateAllocations(sliceSize: 512) { try NodeHarness(node: make(), channels: signal) }
        #expect(slices > 20)
        #expect(allocations == 0)
    }

    @Test func settingsOutOfRangeAreRefusedNamingThem() {
        #expect(throws: GraphError.parameterOutOfRange(node: "gate", name: "range", value: 10, range: -120...0)) {
            try GateNode(settings: NoiseGate.Settings(threshold: -40, range: 10))
        }
    }
}
