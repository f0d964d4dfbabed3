import Foundation
import SoundFile
import TestSupport
import Testing

@Suite struct EqualizerCommandTests {
    /// Writes a mono 16-bit WAV holding a sine of `frequency` Hz at `amplitude`.
    func writeSine(_ path: String, frequency: Double, amplitude: Double = 0.25, sampleRate: Int = 44100) throws {
        let frames = sampleRate * 2
        let shorts = (0..<frames).map { Int16((amplitude * 32767 * sin(2 * Double.pi * frequency * Double($0) / Double(sampleRate))).rounded()) }
        try WaveFile.write(WaveFile.bytes(channels: 1, sampleRate: UInt32(sampleRate), data: WaveFile.pcm16(shorts)), to: path)
    }

    /// The RMS level change in dB from `input` to `output`, skipping the first half second.
    func gainChange(_ input: String, _ output: String) throws -> Double {
        let before = try samples(of: input).samples.dropFirst(22050)
        let after = try samples(of: output).samples.dropFirst(22050)
        return 20 * log10(Signal.rms(Array(after)) / Signal.rms(Array(before)))
    }

    @Test(arguments: [(64.0, 4.25), (1000.0, 0.0), (250.0, 2.5)])
    func bassBoosterLiftsEachBandByItsGain(frequency: Double, gain: Double) throws {
        let folder = try TemporaryFolder()
        try writeSine(folder.file("in.wav"), frequency: frequency)
        let result = try aurender(["--eq", "Bass Booster", folder.file("in.wav"), folder.file("out.wav")])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(abs(try gainChange(folder.file("in.wav"), folder.file("out.wav")) - gain) < 0.1)
    }

    @Test func classicModeMissesTheBandGain() throws {
        let folder = try TemporaryFolder()
        try writeSine(folder.file("in.wav"), frequency: 64)
        #expect(try aurender(["--eq", "bass-booster", "--eq-mode", "classic", folder.file("in.wav"), folder.file("out.wav")]).status == 0)
        let change = try gainChange(folder.file("in.wav"), folder.file("out.wav"))
        #expect(change > 5.5, "the overlapping bands add up: \(change) dB at 64 Hz")
    }

    @Test func flatPresetIsTransparent() throws {
        let folder = try TemporaryFolder()
        let result = try aurender(["--eq", "flat", "--verbose", fixture("music.wav"), folder.file("out.wav")])
        #expect(result.status == 0)
        #expect(result.standardError.contains("the equalizer drops out of the graph"))
        #expect(try samples(of: folder.file("out.wav")).samples == samples(of: fixture("music.wav")).samples)
    }

    @Test(arguments: [["--eq", "rock"], ["--eq", "rock", "--normalize", "-20"], ["--eq", "flat"]])
    func verboseDescribesTheEQOncePerRender(options: [String]) throws {
        let folder = try TemporaryFolder()
        let result = try aurender(options + ["--verbose", fixture("music.wav"), folder.file("out.wav")])
        #expect(result.status == 0, "\(result.standardError)")
        let lines = result.standardError.split(separator: "\n")
        let described = lines.filter { $0.hasPrefix("aurender: eq: ") }
        #expect(described.count == 1, "\(result.standardError)")
        let expected = options[1] == "flat" ? "aurender: eq: preset 'Flat' is flat: the equalizer drops out of the graph"
            : "aurender: eq: preset 'Rock' (accurate), band gains dB: +5.00 +4.00 +3.00 +1.50 -0.50 -1.00 +0.50 +2.50 +3.50 +4.50, preamp +0.00 dB"
        #expect(described.first.map(String.init) == expected)
        #expect(lines.firstIndex { $0.hasPrefix("aurender: eq: ") } == 0, "before the plan: \(result.standardError)")
    }

    @Test func unknownPresetListsTheNearest() throws {
        let folder = try TemporaryFolder()
        let result = try aurender(["--eq", "Bass Boster", fixture("music.wav"), folder.file("out.wav")])
        #expect(result.status == 64)
        #expect(result.standardError == "aurender: unknown EQ preset 'Bass Boster'; did you mean 'Bass Booster', 'Bass Reducer', 'Vocal Booster'? ('aurender presets' lists them all)\n")
        #expect(folder.contents().isEmpty)
    }

    @Test func customPresetFiles() throws {
        let folder = try TemporaryFolder()
        try writeSine(folder.file("in.wav"), frequency: 1000)
        try Data(#"{"bands": [{"frequency": 1000, "gain": -6, "q": 2}]}"#.utf8).write(to: URL(fileURLWithPath: folder.file("notch.json")))
        let result = try aurender(["--eq", folder.file("notch.json"), folder.file("in.wav"), folder.file("out.wav")])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(abs(try gainChange(folder.file("in.wav"), folder.file("out.wav")) + 6) < 0.05)

        try Data(#"{"gains": [1, 2]}"#.utf8).write(to: URL(fileURLWithPath: folder.file("bad.json")))
        let bad = try aurender(["--eq", folder.file("bad.json"), folder.file("in.wav"), folder.file("bad.wav")])
        #expect(bad.status == 64)
        #expect(bad.standardError == "aurender: \(folder.file("bad.json")): field 'gains': expected 10 gains in dB (one per iPod band), found 2\n")
        #expect(!FileManager.default.fileExists(atPath: folder.file("bad.wav")))
    }

    @Test func userPresetsAreFoundByName() throws {
        let folder = try TemporaryFolder()
        try FileManager.default.createDirectory(atPath: folder.file("presets"), withIntermediateDirectories: true)
        try Data(#"{"name": "Studio Cut", "gains": [-3, -3, -3, -3, -3, -3, -3, -3, -3, -3]}"#.utf8)
            .write(to: URL(fileURLWithPath: folder.file("presets/cut.json")))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: aurenderPath)
        process.arguments = ["presets"]
        process.environment = ["AURENDER_PRESETS": folder.file("presets")]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let listing = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(listing.contains("Studio Cut"))
        #expect(listing.contains("Bass Booster"))
    }

    @Test func preampAutoAndClipping() throws {
        let folder = try TemporaryFolder()
        try writeSine(folder.file("loud.wav"), frequency: 64, amplitude: 0.9)
        let warned = try aurender(["--eq", "Bass Booster", folder.file("loud.wav"), folder.file("warn.wav")])
        #expect(warned.status == 0)
        #expect(warned.standardError.hasPrefix("aurender: \(folder.file("warn.wav")): "))
        #expect(warned.standardError.contains(" samples clipped; try --preamp -"))

        let failed = try aurender(["--eq", "Bass Booster", "--on-clip", "fail", folder.file("loud.wav"), folder.file("fail.wav")])
        #expect(failed.status == 3)
        #expect(failed.standardError.contains("samples would clip; not written (try --preamp -"))
        #expect(!FileManager.default.fileExists(atPath: folder.file("fail.wav")))

        let auto = try aurender(["--eq", "Bass Booster", "--preamp", "auto", "--on-clip", "fail", folder.file("loud.wav"), folder.file("auto.wav")])
        #expect(auto.status == 0, "\(auto.standardError)")
        #expect(abs(try gainChange(folder.file("loud.wav"), folder.file("auto.wav")) - (4.25 - 5.5)) < 0.1)

        let float = try aurender(["--eq", "Bass Booster", "--bits", "float", folder.file("loud.wav"), folder.file("float.wav")])
        #expect(float.status == 0)
        #expect(float.standardError.contains("beyond full scale (kept in the float output)"))
        #expect(try samples(of: folder.file("float.wav")).samples.contains { abs($0) > 1 })
    }

    @Test func badEqualizerOptions() throws {
        let folder = try TemporaryFolder()
        for (arguments, text) in [
            (["--preamp", "-3"], "--preamp needs --eq"),
            (["--eq", "rock", "--preamp", "loud"], "--preamp"),
            (["--eq", "rock", "--eq-mode", "exact"], "--eq-mode"),
            (["--eq", "rock", "--on-clip", "ignore"], "--on-clip"),
        ] {
            let result = try aurender(arguments + [fixture("speech.wav"), folder.file("out.wav")])
            #expect(result.status == 64, "\(arguments)")
            #expect(result.standardError.contains(text), "\(result.standardError)")
        }
        #expect(folder.contents().isEmpty)
    }

    @Test func presetsCommand() throws {
        let table = try aurender(["presets"])
        #expect(table.status == 0)
        let lines = table.output.split(separator: "\n")
        #expect(lines.count == 23)
        #expect(lines[0].hasPrefix("preset (dB)") && lines[0].hasSuffix("16k"))
        #expect(lines.contains { $0.hasPrefix("Bass Booster") && $0.contains("+5.50  +4.25") })

        let json = try aurender(["presets", "--json"])
        let parsed = try #require(try JSONSerialization.jsonObject(with: json.standardOutput) as? [[String: Any]])
        #expect(parsed.count == 22)
        #expect(parsed.first { $0["name"] as? String == "Loudness" }?["gains"] as? [Double] == [6, 4, 0, 0, -2, 0, -1, -5, 5, 1])
        #expect(parsed.first { $0["name"] as? String == "Vocal Booster" }?["aliases"] as? [String] == ["Increase Vocals"])

        let rock = try aurender(["presets", "Rock"])
        #expect(rock.status == 0, "\(rock.standardError)")
        #expect(rock.output == "preset (dB)          32     64    125    250    500     1k     2k     4k     8k    16k\n"
                + "Rock              +5.00  +4.00  +3.00  +1.50  -0.50  -1.00  +0.50  +2.50  +3.50  +4.50\n")
        let byAlias = try aurender(["presets", "--json", "increase bass", "Pop"])
        let named = try #require(try JSONSerialization.jsonObject(with: byAlias.standardOutput) as? [[String: Any]])
        #expect(named.map { $0["name"] as? String } == ["Bass Booster", "Pop"])
        #expect(named.first?["gains"] as? [Double] == [5.5, 4.25, 3.5, 2.5, 1.25, 0, 0, 0, 0, 0])
        let misspelt = try aurender(["presets", "Rokc"])
        #expect(misspelt.status == 64)
        #expect(misspelt.standardError.contains("unknown EQ preset 'Rokc'; did you mean 'Rock'"), "\(misspelt.standardError)")

        let folder = try TemporaryFolder()
        let plot = try aurender(["presets", "--plot", folder.file("eq.svg"), "bass booster", "Rock"])
        #expect(plot.status == 0, "\(plot.standardError)")
        let svg = try String(contentsOfFile: folder.file("eq.svg"), encoding: .utf8)
        #expect(svg.hasPrefix("<svg") && svg.hasSuffix("</svg>\n"))
        #expect(svg.contains(">Bass Booster</text>") && svg.contains(">Rock</text>"))
        #expect(svg.components(separatedBy: "<polyline").count == 3)
        #expect(svg.components(separatedBy: "<circle").count == 21)

        let unknown = try aurender(["presets", "--plot", folder.file("x.svg"), "Polka"])
        #expect(unknown.status == 64)
        #expect(unknown.standardError.hasPrefix("aurender: unknown EQ preset 'Polka'"))
    }
}
