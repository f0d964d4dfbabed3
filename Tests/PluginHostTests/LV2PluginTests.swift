import AudioGraph
import Foundation
import GraphTestSupport
import PluginHost
import TestSupport
import Testing

/// LV2 plugins through lilv: lv2-examples' eg-amp, fomp's parametric EQ (`make deps` installs
/// both) and aurender's own test plugin, compiled by the test.
@Suite struct LV2PluginTests {
    @Test func egAmpAtMinus6dBGivesExactlyTheGain() throws {
        let input = testSignal(frames: 10_000, channels: 2)
        let node = try pluginNode("http://lv2plug.in/plugins/eg-amp@gain=-6")
        let output = try NodeHarness(node: node, channels: input).render(sliceSize: 1000)
        let gain = powf(10, Float(-6) * 0.05)
        #expect(output == input.map { $0.map { $0 * gain } })
        #expect(node.planDetail?.contains("one instance per channel") == true)
    }

    @Test(arguments: [1, 64, 65, 4096])
    func egAmpIsTheSameForAnySliceSize(sliceSize: Int) throws {
        let input = testSignal(frames: 6000, channels: 1)
        let reference = try NodeHarness(node: try pluginNode("http://lv2plug.in/plugins/eg-amp@gain=3.5"), channels: input).render()
        let sliced = try NodeHarness(node: try pluginNode("http://lv2plug.in/plugins/eg-amp@gain=3.5"), channels: input).render(sliceSize: sliceSize)
        #expect(sliced == reference)
        #expect(reference[0].count == 6000)
    }

    @Test func fompParametricBoostsItsBandByItsGain() throws {
        func level(at frequency: Double) throws -> Double {
            let frames = 44100
            let input: [[Float]] = [(0..<frames).map { Float(0.25 * sin(2 * Double.pi * frequency * Double($0) / 44100)) }]
            let node = try pluginNode("http://drobilla.net/plugins/fomp/parametric1@filter=1,sec_1=1,freq_1=1000,bw_1=1,gain_1=12")
            let output = try NodeHarness(node: node, channels: input).render()
            let range = 22050..<44100
            let rms = { (samples: [Float]) in (range.map { Double(samples[$0] * samples[$0]) }.reduce(0, +) / Double(range.count)).squareRoot() }
            return 20 * log10(rms(output[0]) / rms(input[0]))
        }
        #expect(abs(try level(at: 1000) - 12) < 0.1)
        #expect(abs(try level(at: 50)) < 0.2)
    }

    @Test(arguments: [1, 64, 65, 4096])
    func ourPluginGetsItsFeaturesAFixedBlockAndHasItsLatencyCompensated(sliceSize: Int) throws {
        PluginRegistry.loadLV2Bundle(try TestPluginBundle.folder() + "/aurender-test.lv2")
        let input = testSignal(frames: 5000, channels: 2)
        let node = try pluginNode(TestPluginBundle.uri + "@level=1")
        let output = try NodeHarness(node: node, channels: input).render(sliceSize: sliceSize)
        #expect(output[0].count == 5000)
        #expect(output == input.map { $0.map { $0 * 0.5 } })
        #expect(node.planDetail?.contains("blocks of 1024") == true)
    }

    @Test func aPresetIsFoundByLabelAndSetsItsControls() throws {
        PluginRegistry.loadLV2Bundle(try TestPluginBundle.folder() + "/aurender-test.lv2")
        let node = try pluginNode(TestPluginBundle.uri + "@preset=quiet")
        #expect(try node.parameter(named: "level") == 0.25)
        let input = testSignal(frames: 3000, channels: 1)
        #expect(try NodeHarness(node: node, channels: input).render() == input.map { $0.map { $0 * 0.125 } })
        #expect(throws: PluginError.noSuchPreset(plugin: TestPluginBundle.uri, preset: "Loud", known: ["Quiet"])) {
            try pluginNode(TestPluginBundle.uri + "@preset=Loud")
        }
    }

    @Test func pluginsThatAreNoEffectsAreRefusedWithTheReason() throws {
        #expect(throws: PluginError.refused(plugin: "http://lv2plug.in/plugins/eg-fifths", reason: "it has no audio ports (a GUI-only or MIDI plugin)")) {
            try pluginNode("http://lv2plug.in/plugins/eg-fifths")
        }
        #expect(throws: PluginError.refused(plugin: "http://lv2plug.in/plugins/eg-sampler", reason: "it has no audio input (a generator)")) {
            try pluginNode("http://lv2plug.in/plugins/eg-sampler")
        }
        #expect(throws: PluginError.refused(plugin: "http://lv2plug.in/plugins/eg-scope#Mono",
                                            reason: "its atom port 'control' must be connected, and aurender connects only audio and control ports")) {
            try pluginNode("http://lv2plug.in/plugins/eg-scope#Mono")
        }
        #expect(throws: PluginError.badControl(plugin: "http://lv2plug.in/plugins/eg-amp", control: "gain", problem: "must be from -90 to 24, not 30")) {
            try pluginNode("http://lv2plug.in/plugins/eg-amp@gain=30")
        }
        do {
            _ = try pluginNode("http://lv2plug.in/plugins/eg-ampp")
            Issue.record("an unknown plugin was found")
        } catch {
            guard case .notInstalled(let id, let nearest) = error else { Issue.record("\(error)"); return }
            #expect(id == "http://lv2plug.in/plugins/eg-ampp")
            #expect(nearest.first == "http://lv2plug.in/plugins/eg-amp")
            #expect(error.description.hasPrefix("plugin 'http://lv2plug.in/plugins/eg-ampp' is not installed (nearest: http://lv2plug.in/plugins/eg-amp, "))
        }
    }
}
