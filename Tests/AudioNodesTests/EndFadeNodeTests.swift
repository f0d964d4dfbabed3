import AudioGraph
import AudioNodes
import GraphTestSupport
import TestSupport
import Testing

/// The fade-out that follows a stream to its real end: untouched until the last `fadeOutFrames`
/// frames, the ramp over them to 0 on the last, the same for every slice size, and no allocation.
@Suite struct EndFadeNodeTests {
    let signal = [Signal.sine(frequency: 440, sampleRate: 48000, frames: 20000, amplitude: 0.25),
                  Signal.noise(frames: 20000, amplitude: 0.25)]

    @Test(arguments: [1, 7, 512, 4096])
    func theLastFramesRampToSilenceAndTheRestPassUntouched(sliceSize: Int) throws {
        let fade = 3000
        let rendered = try NodeHarness(node: EndFadeNode(fadeOutFrames: Int64(fade)), channels: signal, sampleRate: 48000).render(sliceSize: sliceSize)
        for channel in 0..<2 {
            #expect(rendered[channel].count == 20000)
            #expect(Array(rendered[channel][..<(20000 - fade)]) == Array(signal[channel][..<(20000 - fade)]))
            for frame in (20000 - fade)..<20000 {
                let gain = Float(20000 - frame - 1) / Float(fade - 1)
                #expect(abs(rendered[channel][frame] - signal[channel][frame] * gain) <= 1e-7)
            }
            #expect(rendered[channel][19999] == 0)
        }
    }

    @Test func aFadeLongerThanTheStreamRampsFromWhereItWouldHaveStarted() throws {
        let rendered = try NodeHarness(node: EndFadeNode(fadeOutFrames: 30000), channels: [[Float](repeating: 1, count: 10000)], sampleRate: 48000)
            .render(sliceSize: 1000)[0]
        #expect(rendered.count == 10000)
        #expect(abs(rendered[0] - Float(9999) / Float(29999)) <= 1e-7)
        #expect(rendered[9999] == 0)
    }

    @Test(arguments: [(1, 4000, 3000), (7, 4000, 3000), (4096, 4000, 3000), (512, 15000, 12000), (4096, 0, 3000), (333, 2500, 0)])
    func fadingBothWaysGivesTheSamplesAFadeNodeOfTheKnownLengthGives(sliceSize: Int, fadeIn: Int, fadeOut: Int) throws {
        let held = try NodeHarness(node: EndFadeNode(fadeInFrames: Int64(fadeIn), fadeOutFrames: Int64(fadeOut)), channels: signal, sampleRate: 48000)
            .render(sliceSize: sliceSize)
        let known = try NodeHarness(node: FadeNode(fadeInFrames: Int64(fadeIn), fadeOutFrames: Int64(fadeOut), totalFrames: 20000),
                                    channels: signal, sampleRate: 48000).render(sliceSize: 4096)
        #expect(held == known, "fades of \(fadeIn) and \(fadeOut) frames, overlapping when they add up to more than 20000")
        #expect(held != signal, "the fades changed the stream")
        #expect(held[1][19999] == 0 || fadeOut == 0)
    }

    @Test func renderingAllocatesNothing() throws {
        let (allocations, slices) = try steadyStateAllocations(sliceSize: 512) {
            try NodeHarness(node: EndFadeNode(fadeOutFrames: 4000), channels: signal, sampleRate: 48000)
        }
        #expect(slices > 20)
        #expect(allocations == 0)
    }
}
