import AudioDSP
import AudioGraph
import AudioNodes
import Foundation
import GraphTestSupport
import TestSupport
import Testing

@Suite struct DelayNodeTests {
    /// An impulse at frame 0 followed by silence, `frames` long.
    static func impulse(frames: Int) -> [Float] { [1] + [Float](repeating: 0, count: frames - 1) }

    /// 20 log10 of `value`.
    static func decibels(_ value: Float) -> Double { 20 * log10(Double(abs(value))) }

    @Test(arguments: [(0.5, false), (0.5, true), (-0.7, false), (0.9, true)])
    func anImpulseEchoesAtEachMultipleOfTheDelayWithGainsOfTheFeedbacksPowers(feedback: Double, lowpassAtNyquist: Bool) throws {
        let rate = 44100.0, delay = 0.1, wet = 0.6
        let node = try DelayNode(sampleRate: rate, settings: FeedbackDelay.Settings(time: delay, feedback: feedback,
                                                                                   lowpass: lowpassAtNyquist ? rate / 2 : nil, wet: wet),
                                 tailLimit: 44100)
        let output = try NodeHarness(node: node, channels: [Self.impulse(frames: 44100)], sampleRate: rate).render(sliceSize: 1000)[0]
        let step = Int(delay * rate)
        #expect(abs(Double(output[0]) - (1 - wet)) < 1e-6, "the dry impulse is 1 - wet")
        for echo in 1..<10 {
            let expected = wet * pow(feedback, Double(echo - 1))
            let measured = output[echo * step]
            #expect(abs(Self.decibels(measured) - 20 * log10(abs(expected))) < 0.01, "echo \(echo): \(measured), expected \(expected)")
            #expect((measured < 0) == (expected < 0), "echo \(echo) has the sign of feedback^\(echo - 1)")
        }
        let between = output.indices.filter { $0 % step != 0 && $0 < 10 * step }.map { abs(output[$0]) }.max() ?? 0
        #expect(between == 0, "nothing between the echoes")
    }

    @Test func aLowPassDarkensEachEchoMoreThanTheOneBefore() throws {
        let rate = 48000.0, step = 4800
        let node = try DelayNode(sampleRate: rate, settings: FeedbackDelay.Settings(time: 0.1, feedback: 0.8, lowpass: 2000, wet: 1), tailLimit: 0)
        let output = try NodeHarness(node: node, channels: [Self.impulse(frames: 5 * step)], sampleRate: rate).render()[0]
        // The energy of each echo falls by more than the feedback's square: the low-pass takes its highs too.
        let energies = (1..<5).map { echo in output[(echo * step)..<((echo + 1) * step)].reduce(0.0) { $0 + Double($1 * $1) } }
        #expect(energies[0] < 0.5, "the first echo has lost its highs: \(energies[0])")
        for (earlier, later) in zip(energies, energies.dropFirst()) { #expect(later < 0.64 * earlier) }
    }

    @Test func theEchoesRingOnAfterTheInputUntilTheyFallUnderMinus120dBFS() throws {
        let rate = 44100.0, step = 441
        let node = try DelayNode(sampleRate: rate, settings: FeedbackDelay.Settings(time: 0.01, feedback: 0.5, wet: 1), tailLimit: 441_000)
        let output = try NodeHarness(node: node, channels: [Self.impulse(frames: 1000)], sampleRate: rate).render(sliceSize: 777)[0]
        // Echo n has gain 0.5^(n-1): the last at or above 1e-6 is echo 20 (0.5^19 = 1.9e-6; 0.5^20 = 9.5e-7).
        #expect(output.count == 20 * step + 1)
        #expect(output.last == Float(pow(0.5, 19.0)))
        // Echoes further apart than a tail window (1024 frames) are kept too: the line still holds them.
        let sparse = try NodeHarness(node: DelayNode(sampleRate: rate, settings: FeedbackDelay.Settings(time: 0.1, feedback: 0.5, wet: 1), tailLimit: 441_000),
                                     channels: [Self.impulse(frames: 1000)], sampleRate: rate).render(sliceSize: 4096)[0]
        #expect(sparse.count == 20 * 4410 + 1)
        let cut = try NodeHarness(node: DelayNode(sampleRate: rate, settings: FeedbackDelay.Settings(time: 0.01, feedback: 1, wet: 1), tailLimit: 5000),
                                  channels: [Self.impulse(frames: 1000)], sampleRate: rate).render()[0]
        #expect(cut.count == 13 * 441 + 1, "a full feedback rings to the tail limit, 6000 frames, ending on its last echo before it")
    }

    @Test(arguments: [1, 64, 65, 128, 4096])
    func theOutputDoesNotDependOnTheSliceSize(sliceSize: Int) throws {
        let signal = [Signal.noise(frames: 20000, amplitude: 0.5), Signal.noise(frames: 20000, amplitude: 0.5, seed: 7)]
        func render(_ size: Int) throws -> [[Float]] {
            let node = try DelayNode(sampleRate: 44100, settings: FeedbackDelay.Settings(time: 0.0123, feedback: -0.6, lowpass: 3000, wet: 0.4),
                                     tailLimit: 44100)
            let harness = try NodeHarness(node: node, channels: signal)
            try harness.graph.scheduleParameter(DelayNode.Parameter.time.rawValue, on: node, value: 0.002, atFrame: 10007)
            try harness.graph.scheduleParameter(DelayNode.Parameter.lowpass.rawValue, on: node, value: 22050, atFrame: 15001)
            return try harness.render(sliceSize: size)
        }
        let reference = try render(1000)
        #expect(reference[0].count > 20000)
        #expect(try render(sliceSize) == reference)
    }

    @Test func anEventMovesTheDelayOnItsFrame() throws {
        let node = try DelayNode(sampleRate: 44100, settings: FeedbackDelay.Settings(time: 0.01, feedback: 0, wet: 1), tailLimit: 0)
        var input = [Float](repeating: 0, count: 10000)
        input[5000] = 1
        let harness = try NodeHarness(node: node, channels: [input])
        try harness.graph.scheduleParameter(DelayNode.Parameter.time.rawValue, on: node, value: 0.02, atFrame: 4000)
        let output = try harness.render(sliceSize: 512)[0]
        #expect(output.firstIndex(of: 1) == 5000 + 882)
    }

    @Test func renderingAllocatesNothing() throws {
        let signal = [Signal.noise(frames: 30000, amplitude: 0.3), Signal.noise(frames: 30000, amplitude: 0.3, seed: 3)]
        let (allocations, slices) = try steadyStateAllocations(sliceSize: 512) {
            try NodeHarness(node: DelayNode(sampleRate: 44100, settings: FeedbackDelay.Settings(time: 0.05, feedback: 0.7, lowpass: 5000),
                                            tailLimit: 44100), channels: signal)
        }
        #expect(slices > 50)
        #expect(allocations == 0)
    }

    @Test func aGraphFileMakesItWithItsFieldsCheckedAndRanged() throws {
        let context = NodeContext(sampleRate: 48000, findPreset: { _ in throw PresetError(source: "", field: nil, problem: "none") })
        let kind = try #require(NodeCatalogue.kind(named: "delay"))
        let node = try #require(try NodeCatalogue.make("echo", kind: kind, fields: ["time": "250ms", "feedback": -30, "lowpass": "4kHz", "wet": 20, "tail": "2s"],
                                                       context: context) as? DelayNode)
        #expect(node.settings == FeedbackDelay.Settings(time: 0.25, feedback: -0.3, lowpass: 4000, wet: 0.2))
        #expect(node.tailLimit == 96000)
        #expect(node.planDetail == "time 0.25 s, feedback -30 %, wet 20 %, low-pass 4000 Hz, tail up to 2 s (ends under -120 dBFS)")
        #expect(throws: NodeSettingError(node: "echo", kind: "delay", field: "lowpass", problem: "must be from 10 to 24000, not 30000")) {
            try NodeCatalogue.make("echo", kind: kind, fields: ["lowpass": 30000], context: context)
        }
        #expect(throws: NodeSettingError(node: "echo", kind: "delay", field: "feedback", problem: "must be from -100 to 100, not 120")) {
            try NodeCatalogue.make("echo", kind: kind, fields: ["feedback": 120], context: context)
        }
    }
}
