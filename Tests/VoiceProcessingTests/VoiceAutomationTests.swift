import AudioGraph
import Foundation
import GraphTestSupport
import Testing
import VoiceProcessing

/// The voice node's parameters changed by scheduled events while rendering, measured: noise
/// suppression switched on takes the noise out of the pauses from then on and nothing before,
/// switched off gives back exactly what a node without it gives; a new gain-control target moves
/// the speech's level; the change lands on the same frame for every slice size, the output stays
/// lined up, and level changes allocate nothing.
@Suite struct VoiceAutomationTests {
    /// A voice node over `signal` at `rate` with `settings`, with `events` (parameter, value, frame) scheduled.
    static func render(_ settings: VoiceSettings, _ signal: [Float], rate: Int, events: [(VoiceNode.Parameter, Float, Int64)] = [],
                       sliceSize: Int = 4096) throws -> [Float] {
        try renderReportingLatency(settings, signal, rate: rate, events: events, sliceSize: sliceSize).output
    }

    /// `render`, with the frames the node hides.
    static func renderReportingLatency(_ settings: VoiceSettings, _ signal: [Float], rate: Int, events: [(VoiceNode.Parameter, Float, Int64)] = [],
                                       sliceSize: Int = 4096) throws -> (output: [Float], latency: Int) {
        let node = try VoiceNode(settings: settings)
        let harness = try NodeHarness(node: node, channels: [signal], sampleRate: Double(rate))
        for (parameter, value, frame) in events {
            try harness.graph.scheduleParameter(parameter.rawValue, on: node, value: value, atFrame: frame)
        }
        return (try harness.render(sliceSize: sliceSize)[0], node.processingLatency)
    }

    /// The first frame where `a` and `b` differ, if any.
    static func firstDifference(_ a: [Float], _ b: [Float]) -> Int? {
        zip(a, b).enumerated().first { $1.0 != $1.1 }?.offset ?? (a.count == b.count ? nil : min(a.count, b.count))
    }

    @Test(arguments: [48000, 44100])
    func noiseSuppressionSwitchedOnAndOffByEventsActsFromThereOnForEverySliceSize(rate: Int) throws {
        let speech = try VoiceNodeTests.paddedSpeech(rate: rate)
        let noise = VoiceNodeTests.noise(for: speech, rate: rate)
        let noisy = zip(speech, noise).map { $0 + $1 }
        let on = Int64(rate / 2), off = Int64(noisy.count * 2 / 3)
        let events: [(VoiceNode.Parameter, Float, Int64)] = [(.denoise, 4, on), (.denoise, 0, off)]
        let plain = try Self.render(VoiceSettings(), noisy, rate: rate)
        let (switched, latency) = try Self.renderReportingLatency(VoiceSettings(), noisy, rate: rate, events: events)
        #expect(switched.count == noisy.count)

        // Nothing changes before the event's frame; the change lands within one block after it, and
        // where the stream is resampled, within the frames the node runs ahead by besides.
        let landed = try #require(Self.firstDifference(switched, plain))
        let within = VoiceNode.blockLength + (rate == 48000 ? 0 : latency)
        #expect(landed >= Int(on) && landed < Int(on) + within, "the change landed at frame \(landed), the event is at \(on)")

        // While it runs, the noise in the pauses is at least 9 dB lower than without it.
        let (clean, noisePowers, out) = (VoiceSignals.framePowers(speech, rate: rate), VoiceSignals.framePowers(noise, rate: rate),
                                         VoiceSignals.framePowers(switched, rate: rate))
        let loudest = clean.max() ?? 0
        let quiet = clean.map { $0 < loudest * 1e-6 }
        let frameLength = rate / 50
        let pauses = quiet.indices.map { index in
            index * frameLength >= Int(on) + rate / 2 && (index + 1) * frameLength < Int(off)
                && (max(0, index - 5)...min(quiet.count - 1, index + 5)).allSatisfy { quiet[$0] }
        }
        #expect(pauses.filter { $0 }.count >= 10, "the speech has pauses to measure while the suppression runs")
        let reduction = VoiceSignals.level(noisePowers, pauses) - VoiceSignals.level(out, pauses)
        print("voice noise suppression switched on by an event at \(rate) Hz: noise in pauses \(reduction) dB lower, landed at frame \(landed)")
        #expect(reduction >= 9)

        // It lines up with a node that suppresses noise from the start.
        let always = try Self.render(VoiceSettings(noiseSuppression: .veryHigh), noisy, rate: rate)
        let from = Int(on) + rate, count = rate / 2
        var best = (lag: Int.min, value: -Double.infinity)
        for lag in -400...400 {
            var sum = 0.0
            for index in from..<from + count { sum += Double(always[index]) * Double(switched[index + lag]) }
            if sum > best.value { best = (lag, sum) }
        }
        #expect(best.lag == 0)

        // Switched off again (every stage off), it gives exactly what a node without it gives once
        // the change has landed and the resampler's filter has run past it.
        let settled = Int(off) + within + rate / 10
        #expect(Array(switched[settled...]) == Array(plain[settled...]),
                "first difference after \(settled): \(String(describing: Self.firstDifference(Array(switched[settled...]), Array(plain[settled...]))))")

        for slice in [1, 65, 441, 1000] {
            let sliced = try Self.render(VoiceSettings(), noisy, rate: rate, events: events, sliceSize: slice)
            #expect(sliced == switched, "slice \(slice): first difference at \(String(describing: Self.firstDifference(sliced, switched)))")
        }
    }

    @Test func aNewGainControlTargetMovesTheSpeechsPeaks() throws {
        let rate = 16000
        let speech = VoiceSignals.scaled(try VoiceNodeTests.paddedSpeech(rate: rate), toActiveLevel: -35, rate: rate)
        let change = Int64(speech.count / 2)
        let steady = try Self.render(VoiceSettings(gainTarget: -3), speech, rate: rate)
        let moved = try Self.render(VoiceSettings(gainTarget: -3), speech, rate: rate, events: [(.agc, -20, change)])
        #expect(Array(moved[..<Int(change)]) == Array(steady[..<Int(change)]))
        let later = Int(change) + rate
        let (before, after) = (VoiceSignals.speechPeakLevel(steady, speech: speech, rate: rate, from: later).level,
                               VoiceSignals.speechPeakLevel(moved, speech: speech, rate: rate, from: later).level)
        print("voice gain control moved from -3 to -20 dBFS by an event: speech peaks \(before) -> \(after) dBFS")
        #expect(before - after >= 6)
    }

    @Test func theGainControlsTargetIsFixedOnANodeWithoutGainControl() throws {
        let harness = try NodeHarness(node: try VoiceNode(settings: VoiceSettings(noiseSuppression: .low)), channels: [[Float](repeating: 0, count: 4800)],
                                      sampleRate: 48000)
        #expect(throws: GraphError.parameterFixedWhileRendering(node: "voice", name: "agc")) {
            try harness.graph.scheduleParameter(VoiceNode.Parameter.agc.rawValue, on: harness.node, value: -9, atFrame: 100)
        }
    }

    @Test(arguments: [44100, 48000])
    func changingLevelsWhileRenderingAllocatesNothing(rate: Int) throws {
        let (allocations, slices) = try steadyStateAllocations(sliceSize: 512) {
            let (node, signal) = try VoiceNodeTests.everythingOn(rate: rate, farRate: 22050)
            let harness = try NodeHarness(node: node, channels: [signal], sampleRate: Double(rate))
            let changes: [(VoiceNode.Parameter, Float)] = [(.denoise, 1), (.agc, -12), (.agcCompression, 20), (.echoSuppression, 2), (.denoise, 4)]
            for (index, (parameter, value)) in changes.enumerated() {
                try harness.graph.scheduleParameter(parameter.rawValue, on: node, value: value, atFrame: Int64((index + 1) * rate / 4))
            }
            return harness
        }
        #expect(slices > 100)
        #expect(allocations == 0)
    }
}
