import AudioGraph
import AudioNodes
import Foundation
import GraphTestSupport
import TestSupport
import Testing

@Suite struct GainNodeTests {
    let signal = [Signal.sine(frequency: 440, sampleRate: 48000, frames: 5000, amplitude: 0.25),
                  Signal.noise(frames: 5000, amplitude: 0.25)]

    @Test func theGainScalesEverySampleOfEveryChannel() throws {
        let gain = 20 * log10(3.0)
        let rendered = try NodeHarness(node: GainNode(decibels: gain), channels: signal, sampleRate: 48000).render(sliceSize: 777)
        for channel in 0..<2 {
            #expect(rendered[channel].count == 5000)
            for frame in stride(from: 0, to: 5000, by: 97) {
                #expect(abs(rendered[channel][frame] - 3 * signal[channel][frame]) <= 1e-6)
            }
        }
    }

    @Test func zeroDecibelsPassesSamplesUntouched() throws {
        let rendered = try NodeHarness(node: GainNode(decibels: 0), channels: signal, sampleRate: 48000).render()
        #expect(rendered == signal)
    }

    @Test func renderingAllocatesNothing() throws {
        let (allocations, slices) = try steadyStateAllocations(sliceSize: 512) {
            try NodeHarness(node: GainNode(decibels: -6), channels: signal, sampleRate: 48000)
        }
        #expect(slices > 5)
        #expect(allocations == 0)
    }
}
