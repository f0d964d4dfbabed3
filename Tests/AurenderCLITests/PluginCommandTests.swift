import Foundation
import TestSupport
import Testing

/// `--plugin`, `--tail`, `aurender plugins` and plugin nodes in graph files, end to end with
/// the plugins `make deps` installs (ladspa-sdk, lv2-examples) and aurender's own LV2 test plugin.
@Suite struct PluginCommandTests {
    /// The music fixture as 32-bit float, so that a plugin's arithmetic is all that changes it.
    func floatInput(_ folder: TemporaryFolder) throws -> String {
        let path = folder.file("in.wav")
        #expect(try aurender([fixture("music.wav"), path, "--bits", "float"]).status == 0)
        return path
    }

    @Test func ampStereoAtMinus6dBGivesExactlyTheGain() throws {
        let folder = try TemporaryFolder()
        let input = try floatInput(folder)
        let gain = Float(pow(10, -6.0 / 20))
        let result = try aurender(["--plugin", "ladspa:amp_stereo@gain=\(gain)", input, folder.file("out.wav"), "--bits", "float"])
        #expect(result.status == 0, "\(result.standardError)")
        let before = try samples(of: input).samples, after = try samples(of: folder.file("out.wav")).samples
        #expect(after.count == 132_300 * 2)
        #expect(after == before.map { $0 * gain })
    }

    @Test func controlsAreFoundBySymbolOrNameWhateverTheirCase() throws {
        let folder = try TemporaryFolder()
        let input = try floatInput(folder)
        let bySymbol = try aurender(["--plugin", "ladspa:amp_stereo@gain=0.5", input, folder.file("symbol.wav"), "--bits", "float"])
        #expect(bySymbol.status == 0, "\(bySymbol.standardError)")
        let expected = try samples(of: input).samples.map { $0 * 0.5 }
        #expect(try samples(of: folder.file("symbol.wav")).samples == expected)
        for spelling in ["Gain", "GAIN"] {
            let result = try aurender(["--plugin", "ladspa:amp_stereo@\(spelling)=0.5", input, folder.file("\(spelling).wav"), "--bits", "float"])
            #expect(result.status == 0, "\(spelling): \(result.standardError)")
            #expect(try samples(of: folder.file("\(spelling).wav")).samples == expected, "\(spelling) is the port 'gain'")
        }
        let byName = try aurender(["--plugin", "ladspa:delay_5s@Delay (Seconds)=0.25,dry/wet balance=1", input, folder.file("delay.wav"),
                                   "--bits", "float", "--tail", "0"])
        #expect(byName.status == 0, "\(byName.standardError)")
        let delayed = try samples(of: folder.file("delay.wav")).samples
        #expect(delayed.count == 132_300 * 2)
        #expect(delayed.prefix(11_025 * 2).allSatisfy { $0 == 0 }, "fully wet, the first 0.25 s is the delay's silence")
        let unknown = try aurender(["--plugin", "ladspa:amp_stereo@volume=0.5", input, folder.file("unknown.wav")])
        #expect(unknown.status == 64)
        #expect(unknown.standardError == "aurender: plugin 'ladspa:amp.so:amp_stereo': control 'volume' does not exist (it has gain)\n")
    }

    @Test func ourLV2PluginsLatencyIsCompensatedWhateverTheSliceSize() throws {
        let folder = try TemporaryFolder()
        let input = try floatInput(folder)
        let path = try TestPluginBundle.folder() + ":/usr/lib/lv2"
        for slice in ["65", "4096"] {
            let result = try aurender(["--plugin", TestPluginBundle.uri, input, folder.file("out\(slice).wav"), "--bits", "float",
                                       "--frames-per-slice", slice], environment: ["LV2_PATH": path])
            #expect(result.status == 0, "\(result.standardError)")
            #expect(try samples(of: folder.file("out\(slice).wav")).samples == samples(of: input).samples.map { $0 * 0.5 })
        }
    }

    @Test func theDelaysTailIsRenderedUpToTheTailLimit() throws {
        let folder = try TemporaryFolder()
        let input = try floatInput(folder)
        let full = try aurender(["--plugin", "ladspa:delay_5s@delay_seconds=0.5", input, folder.file("full.wav"), "--bits", "float"])
        #expect(full.status == 0, "\(full.standardError)")
        let fullSamples = try samples(of: folder.file("full.wav")).samples
        #expect(fullSamples.count > (132_300 + 22_050 - 1024) * 2 && fullSamples.count <= (132_300 + 22_050) * 2)
        let cut = try aurender(["--plugin", "ladspa:delay_5s@delay_seconds=0.5", "--tail", "0.1s", input, folder.file("cut.wav"), "--bits", "float"])
        #expect(cut.status == 0)
        #expect(try samples(of: folder.file("cut.wav")).samples == Array(fullSamples.prefix((132_300 + 4410) * 2)))
    }

    @Test func pluginsGoBeforeTheEQUnlessAskedOtherwise() throws {
        let before = try aurender(["--plugin", "ladspa:amp_mono", "--eq", "Rock", "--dry-run", fixture("music.wav"), "/tmp/x.wav"])
        #expect(before.status == 0)
        let lines = before.output.split(separator: "\n").map(String.init)
        #expect(lines.firstIndex { $0.contains("plugin 1") }! < lines.firstIndex { $0.contains("--> eq") }!)
        let after = try aurender(["--plugin", "ladspa:amp_mono", "--plugin-after-eq", "--eq", "Rock", "--dry-run", fixture("music.wav"), "/tmp/x.wav"])
        let afterLines = after.output.split(separator: "\n").map(String.init)
        #expect(afterLines.firstIndex { $0.contains("plugin 1") }! > afterLines.firstIndex { $0.contains("--> eq") }!)
    }

    @Test func errorsNameThePluginAndWriteNothing() throws {
        let folder = try TemporaryFolder()
        let unknown = try aurender(["--plugin", "ladspa:amp_sterio", fixture("music.wav"), folder.file("out.wav")])
        #expect(unknown.status == 64)
        #expect(unknown.standardError == "aurender: plugin 'ladspa:amp_sterio' is not installed (nearest: ladspa:amp_stereo, "
                + "ladspa:amp_mono, ladspa:hpf) ('aurender plugins' lists them all)\n")
        let range = try aurender(["--plugin", "http://lv2plug.in/plugins/eg-amp@gain=50", fixture("music.wav"), folder.file("out.wav")])
        #expect(range.status == 64)
        #expect(range.standardError == "aurender: plugin 'http://lv2plug.in/plugins/eg-amp': control 'gain' must be from -90 to 24, not 50\n")
        let instrument = try aurender(["--plugin", "http://lv2plug.in/plugins/eg-sampler", fixture("music.wav"), folder.file("out.wav")])
        #expect(instrument.status == 64)
        #expect(instrument.standardError.contains("plugin 'http://lv2plug.in/plugins/eg-sampler' cannot be used: it has no audio input"))
        #expect(folder.contents() == [])
        let stray = try aurender(["--tail", "1", fixture("music.wav"), folder.file("out.wav")])
        #expect(stray.status == 64)
        #expect(stray.standardError.contains("--tail needs --plugin"))
    }

    @Test func pluginsListsPortsRangesDefaultsAndLatency() throws {
        let result = try aurender(["plugins", "--json"], environment: ["LV2_PATH": try TestPluginBundle.folder() + ":/usr/lib/lv2"])
        #expect(result.status == 0)
        let plugins = try #require(try JSONSerialization.jsonObject(with: result.standardOutput) as? [[String: Any]])
        let amp = try #require(plugins.first { $0["id"] as? String == "ladspa:amp.so:amp_stereo" })
        let gain = try #require((amp["ports"] as? [[String: Any]])?.first)
        #expect(gain["symbol"] as? String == "gain" && gain["minimum"] as? Double == 0 && gain["defaultValue"] as? Double == 1)
        #expect(gain["maximum"] == nil)
        let ours = try #require(plugins.first { $0["id"] as? String == TestPluginBundle.uri })
        #expect(ours["reportsLatency"] as? Bool == true)
        #expect(ours["fixedBlockLength"] as? Int == 1024)
        let egAmp = try #require(plugins.first { $0["id"] as? String == "http://lv2plug.in/plugins/eg-amp" })
        let egGain = try #require((egAmp["ports"] as? [[String: Any]])?.first)
        #expect(egGain["minimum"] as? Double == -90 && egGain["maximum"] as? Double == 24 && egGain["defaultValue"] as? Double == 0)
        let text = try aurender(["plugins"])
        #expect(text.output.contains("ladspa:delay.so:delay_5s  Simple Delay Line (LADSPA)\n  audio: 1 in, 1 out\n"
                                     + "  delay_seconds  Delay (Seconds): 0 to 5, default 1\n"))
    }

    @Test func aGraphFilesPluginNodeTakesControlsAndEvents() throws {
        let folder = try TemporaryFolder()
        let input = try floatInput(folder)
        let graph = """
            {
              "nodes": [
                {"name": "in", "type": "file", "path": "\(input)"},
                {"name": "amp", "type": "plugin", "plugin": "ladspa:amp_stereo", "controls": "gain=0.25"},
                {"name": "out", "type": "output", "path": "out.wav", "bits": "float"}
              ],
              "connections": [{"from": "in", "to": "amp"}, {"from": "amp", "to": "out"}],
              "events": [{"at": "44100f", "node": "amp", "parameter": "gain", "value": 0.5}]
            }
            """
        try Data(graph.utf8).write(to: URL(fileURLWithPath: folder.file("graph.json")))
        let result = try aurender(["render", folder.file("graph.json")])
        #expect(result.status == 0, "\(result.standardError)")
        let before = try samples(of: input).samples, after = try samples(of: folder.file("out.wav")).samples
        #expect(after.count == before.count)
        #expect(Array(after.prefix(88200)) == before.prefix(88200).map { $0 * 0.25 })
        #expect(Array(after.dropFirst(88200)) == before.dropFirst(88200).map { $0 * 0.5 })
        try Data(graph.replacingOccurrences(of: "gain=0.25", with: "gain=-1").utf8).write(to: URL(fileURLWithPath: folder.file("bad.json")))
        let bad = try aurender(["render", folder.file("bad.json")])
        #expect(bad.status == 64)
        #expect(bad.standardError == "aurender: graph: plugin 'ladspa:amp.so:amp_stereo': control 'gain' must be from 0 to inf, not -1\n")
    }
}
