import AudioGraph
import Foundation
import GraphTestSupport
import PluginHost
import Testing

/// LADSPA plugins from Debian's ladspa-sdk (`make deps` installs it): amp_stereo, amp_mono, delay_5s.
@Suite struct LADSPAPluginTests {
    @Test func ampStereoAtMinus6dBGivesExactlyTheGain() throws {
        let gain = Float(pow(10, -6.0 / 20))
        let input = testSignal(frames: 10_000, channels: 2)
        let output = try NodeHarness(node: try pluginNode("ladspa:amp_stereo@gain=\(gain)"), channels: input).render()
        #expect(output[0].count == 10_000)
        #expect(output[0] == input[0].map { $0 * gain })
        #expect(output[1] == input[1].map { $0 * gain })
    }

    @Test func aMonoPluginRunsOncePerChannel() throws {
        let input = testSignal(frames: 5000, channels: 2)
        let node = try pluginNode("ladspa:amp.so:amp_mono@gain=0.25")
        let output = try NodeHarness(node: node, channels: input).render(sliceSize: 300)
        #expect(output == input.map { $0.map { $0 * 0.25 } })
        #expect(node.planDetail?.contains("one instance per channel") == true)
    }

    @Test func theDelaysTailIsRenderedAfterTheInputEnds() throws {
        let input: [[Float]] = [Array(repeating: 0.25, count: 1000)]
        let output = try NodeHarness(node: try pluginNode("ladspa:delay_5s@delay_seconds=0.01,dry_wet_balance=1"), channels: input).render()
        #expect(output[0].count == 1000 + 441)
        #expect(output[0][..<441].allSatisfy { $0 == 0 })
        #expect(output[0][441...].allSatisfy { $0 == 0.25 })
    }

    @Test func aTailLimitCutsTheTail() throws {
        let input: [[Float]] = [Array(repeating: 0.25, count: 1000)]
        let cut = try NodeHarness(node: try pluginNode("ladspa:delay_5s@delay_seconds=0.01,dry_wet_balance=1", tail: 100), channels: input).render()
        #expect(cut[0].count == 1100)
        let none = try NodeHarness(node: try pluginNode("ladspa:delay_5s@delay_seconds=0.01,dry_wet_balance=1", tail: 0), channels: input).render()
        #expect(none[0].count == 1000)
    }

    @Test(arguments: [1, 64, 65, 4096])
    func outputIsTheSameForAnySliceSize(sliceSize: Int) throws {
        let input = testSignal(frames: 9000, channels: 1)
        let spec = "ladspa:delay_5s@delay_seconds=0.05,dry_wet_balance=0.5"
        let reference = try NodeHarness(node: try pluginNode(spec), channels: input).render(sliceSize: 4096)
        let sliced = try NodeHarness(node: try pluginNode(spec), channels: input).render(sliceSize: sliceSize)
        #expect(reference[0].count == 9000 + 2205)
        #expect(sliced == reference)
    }

    @Test func renderingAllocatesNothingAfterTheFirstSlice() throws {
        let (allocations, slices) = try steadyStateAllocations(sliceSize: 512) {
            try NodeHarness(node: try pluginNode("ladspa:amp_mono@gain=0.5"), channels: testSignal(frames: 20_000, channels: 2))
        }
        #expect(slices > 30)
        #expect(allocations == 0)
    }

    @Test func errorsNameThePlugin() throws {
        #expect(throws: PluginError.self) { try pluginNode("ladspa:amp_sterio") }
        do {
            _ = try pluginNode("ladspa:amp_sterio")
        } catch {
            guard case .notInstalled(let id, let nearest) = error else { Issue.record("\(error)"); return }
            #expect(id == "ladspa:amp_sterio")
            #expect(nearest.first == "ladspa:amp_stereo")
        }
        #expect(throws: PluginError.badControl(plugin: "ladspa:delay.so:delay_5s", control: "delay_seconds", problem: "must be from 0 to 5, not 7")) {
            try pluginNode("ladspa:delay_5s@delay_seconds=7")
        }
        #expect(throws: PluginError.badControl(plugin: "ladspa:delay.so:delay_5s", control: "delay",
                                               problem: "does not exist (it has delay_seconds, dry_wet_balance)")) {
            try pluginNode("ladspa:delay_5s@delay=1")
        }
        #expect(throws: PluginError.refused(plugin: "ladspa:sine_fcac", reason: "it has no audio input (a generator or instrument)")) {
            try pluginNode("ladspa:sine_fcac")
        }
    }

    @Test func aPluginThatDoesNotFitTheChannelsIsRefusedAtInitialize() throws {
        let node = try pluginNode("ladspa:amp_stereo")
        #expect(throws: GraphError.self) { try NodeHarness(node: node, channels: testSignal(frames: 10, channels: 3)) }
    }
}
