import AudioDSP
import AudioNodes
import Foundation
import TestSupport
import Testing

@Suite struct EQPresetLibraryTests {
    @Test func embeddedPresetsAreThePresetFiles() throws {
        let folder = packageRoot + "/presets"
        let fromFiles = try EQPresetLibrary.presets(inFolder: folder)
        #expect(!fromFiles.isEmpty)
        #expect(try EQPresetLibrary.builtIn == fromFiles, "the build embeds presets/; rebuild if this fails")
    }

    /// A table that does not parse is an error wherever the built-in presets are asked for, not
    /// a library with that table's presets missing.
    @Test func aBrokenEmbeddedTableIsAnErrorNotFewerPresets() throws {
        let good = (file: "presets/good.tsv", text: "# two bands\nname\t100\t1000\nOne\t1\t2\n")
        let broken = (file: "presets/broken.tsv", text: "name\t100\t1000\nTwo\t1\n")
        #expect(try EQPresetLibrary.builtIn(from: [good, good]).map(\.name) == ["One", "One"])
        #expect(throws: PresetError(source: "presets/broken.tsv", field: "line 2", problem: "expected a name and 2 gains in dB, tab-separated")) {
            try EQPresetLibrary.builtIn(from: [good, broken])
        }
    }

    @Test func theTwentyTwoIPodPresets() throws {
        let presets = try EQPresetLibrary.builtIn
        #expect(presets.count == 22)
        #expect(presets.map(\.name).contains("Hip-Hop"))
        let bass = try #require(EQPresetLibrary.find("Bass Booster", in: presets))
        #expect(bass.gains == [5.5, 4.25, 3.5, 2.5, 1.25, 0, 0, 0, 0, 0])
        #expect(bass.bands == EQPreset.iPodBands)
        #expect(bass.largestBoost == 5.5)
        #expect(try #require(EQPresetLibrary.find("flat", in: presets)).isFlat)
        #expect(presets.filter(\.isFlat).count == 1)
    }

    @Test(arguments: ["Bass Booster", "bass booster", "BassBooster", "bass-booster", "BASS_BOOSTER", " bass booster "])
    func namesMatchLoosely(_ name: String) throws {
        #expect(try EQPresetLibrary.find(name, in: EQPresetLibrary.builtIn)?.name == "Bass Booster")
    }

    /// Apple's stored values to 1/100 dB, not the 0.5 dB roundings that circulate.
    @Test func presetsAreApplesStoredValues() throws {
        let presets = try EQPresetLibrary.builtIn
        #expect(try #require(EQPresetLibrary.find("R&B", in: presets)).gains == [2.62, 6.92, 5.65, 1.33, -2.19, -1.5, 2.32, 2.65, 3, 3.75])
        #expect(try #require(EQPresetLibrary.find("Spoken Word", in: presets)).gains == [-3.46, -0.47, 0, 0.69, 3.46, 4.61, 4.84, 4.28, 2.54, 0])
        #expect(try #require(EQPresetLibrary.find("Rock", in: presets)).gains == [5, 4, 3, 1.5, -0.5, -1, 0.5, 2.5, 3.5, 4.5])
    }

    @Test(arguments: [("Increase Bass", "Bass Booster"), ("reduce-bass", "Bass Reducer"), ("IncreaseTreble", "Treble Booster"),
                      ("reduce treble", "Treble Reducer"), ("Increase Vocals", "Vocal Booster")])
    func theMusicAppsNewerNamesAreAliases(alias: String, name: String) throws {
        let preset = try #require(EQPresetLibrary.find(alias, in: EQPresetLibrary.builtIn))
        #expect(preset.name == name)
        #expect(try EQPresetLibrary.builtIn.filter { !$0.aliases.isEmpty }.count == 5)
    }

    @Test func tablesMayCarryAliases() throws {
        let table = "name\t100\t1000\taliases\nOne\t1\t-1\tFirst, Uno\nTwo\t2\t0\t\nThree\t3\t0\n"
        let presets = try EQPresetLibrary.parseTable(table, source: "t.tsv")
        #expect(presets.map(\.aliases) == [["First", "Uno"], [], []])
        #expect(presets[0].bands.map(\.frequency) == [100, 1000])
        #expect(EQPresetLibrary.find("uno", in: presets)?.name == "One")
        #expect(throws: PresetError(source: "t.tsv", field: "line 2",
                                    problem: "expected a name and 2 gains in dB (then optionally aliases), tab-separated")) {
            try EQPresetLibrary.parseTable("name\t100\t1000\taliases\nOne\t1\n", source: "t.tsv")
        }
    }

    /// A table saved with Windows line ends reads as the same table, and names and aliases outside
    /// ASCII keep every character, spaces inside them too.
    @Test func aTableReadsAlikeWithCRLFLinesAndKeepsNamesWholeOutsideASCII() throws {
        let table = "# comment\nname\t100\t1000\taliases\nÉlectro Süß\t1.5\t-1\t Ünï, Café Noir \n  Two\t2\t0\t\n"
        let presets = try EQPresetLibrary.parseTable(table, source: "t.tsv")
        #expect(presets.map(\.name) == ["Électro Süß", "Two"])
        #expect(presets.map(\.aliases) == [["Ünï", "Café Noir"], []])
        #expect(presets.map(\.gains) == [[1.5, -1], [2, 0]])
        let windows = try EQPresetLibrary.parseTable(table.replacingOccurrences(of: "\n", with: "\r\n"), source: "t.tsv")
        #expect(windows.map(\.name) == presets.map(\.name))
        #expect(windows.map(\.aliases) == presets.map(\.aliases))
        #expect(windows.map(\.gains) == presets.map(\.gains))
    }

    @Test func punctuationInNamesIsIgnored() throws {
        #expect(try EQPresetLibrary.find("rnb", in: EQPresetLibrary.builtIn) == nil)
        #expect(try EQPresetLibrary.find("r&b", in: EQPresetLibrary.builtIn)?.name == "R&B")
        #expect(try EQPresetLibrary.find("RB", in: EQPresetLibrary.builtIn)?.name == "R&B")
        #expect(try EQPresetLibrary.find("hip hop", in: EQPresetLibrary.builtIn)?.name == "Hip-Hop")
        #expect(try EQPresetLibrary.find("nope", in: EQPresetLibrary.builtIn) == nil)
    }

    @Test func nearestNamesHelpWithTypos() throws {
        #expect(try EQPresetLibrary.nearestNames(to: "bas boster", in: EQPresetLibrary.builtIn).first == "Bass Booster")
        #expect(try EQPresetLibrary.nearestNames(to: "treble", in: EQPresetLibrary.builtIn).prefix(2) == ["Treble Booster", "Treble Reducer"])
        #expect(try EQPresetLibrary.nearestNames(to: "rokc", in: EQPresetLibrary.builtIn).first == "Rock")
    }

    func parse(_ json: String) throws(PresetError) -> EQPreset {
        try EQPresetLibrary.parseJSON(Data(json.utf8), source: "my.json", defaultName: "my")
    }

    @Test func customPresetsFromJSON() throws {
        let tenGains = try parse(#"{"name": "Warm", "gains": [3, 2, 1, 0, 0, 0, -1, -2, -2, -3], "preamp": -3}"#)
        #expect(tenGains == EQPreset(name: "Warm", gains: [3, 2, 1, 0, 0, 0, -1, -2, -2, -3], preamp: -3))
        let bands = try parse(#"{"bands": [{"frequency": 80, "gain": 4, "q": 0.7}, {"frequency": 3000, "gain": -2}]}"#)
        #expect(bands.name == "my")
        #expect(bands.bands == [.init(frequency: 80, q: 0.7), .init(frequency: 3000, q: EQPreset.iPodQ)])
        #expect(bands.gains == [4, -2])
    }

    @Test(arguments: [
        (#"{"gains": [1, 2, 3]}"#, "my.json: field 'gains': expected 10 gains in dB (one per iPod band), found 3"),
        (#"{"gains": [1, 2, "x", 4, 5, 6, 7, 8, 9, 10]}"#, "my.json: field 'gains[2]': expected a number"),
        (#"{"name": "x"}"#, "my.json: field 'gains': give either 'gains' (ten values) or 'bands'"),
        (#"{"bands": [{"frequency": 80}]}"#, "my.json: field 'bands[0].gain': missing"),
        (#"{"bands": [{"frequency": 80, "gain": 3, "q": -1}]}"#, "my.json: field 'bands[0].q': Q must be above 0 and at most 100, not -1.0"),
        (#"{"bands": [{"frequency": 0, "gain": 3}]}"#, "my.json: field 'bands[0].frequency': a band centre must be above 0 and at most 100000 Hz, not 0.0"),
        (#"{"gains": [99, 0, 0, 0, 0, 0, 0, 0, 0, 0]}"#, "my.json: field 'gains[0]': a gain must be from -40 to 40 dB, not 99.0"),
        (#"{"gains": [0, 0, 0, 0, 0, 0, 0, 0, 0, 0], "preamp": "loud"}"#, "my.json: field 'preamp': expected a number"),
        ("not json", "my.json: not valid JSON"),
    ])
    func malformedPresetsNameTheField(json: String, message: String) {
        #expect(throws: PresetError.self) { try parse(json) }
        do { _ = try parse(json) } catch { #expect(error.description == message) }
    }

    @Test func tablesAreParsedAndChecked() throws {
        let table = "# comment\nname\t100\t1000\nOne\t1\t-1\nTwo\t2.5\t0\n"
        let presets = try EQPresetLibrary.parseTable(table, source: "t.tsv")
        #expect(presets.map(\.name) == ["One", "Two"])
        #expect(presets[1].gains == [2.5, 0])
        #expect(presets[0].bands.map(\.frequency) == [100, 1000])
        #expect(throws: PresetError(source: "t.tsv", field: "line 3", problem: "expected a name and 2 gains in dB, tab-separated")) {
            try EQPresetLibrary.parseTable("name\t100\t1000\nOne\t1\t-1\nBad\t1\n", source: "t.tsv")
        }
        #expect(throws: PresetError.self) { try EQPresetLibrary.parseTable("title\tx\nOne\t1\n", source: "t.tsv") }
    }

    @Test func userPresetFolder() throws {
        #expect(EQPresetLibrary.userFolder(environment: ["AURENDER_PRESETS": "/p", "HOME": "/h"]) == "/p")
        #expect(EQPresetLibrary.userFolder(environment: ["HOME": "/h"]) == "/h/.config/aurender/presets")
        #expect(EQPresetLibrary.userFolder(environment: [:]) == nil)
        let folder = try TemporaryFolder()
        try Data(#"{"gains": [1, 1, 1, 1, 1, 1, 1, 1, 1, 1]}"#.utf8).write(to: URL(fileURLWithPath: folder.file("Gentle Lift.json")))
        try Data("name\t32\nSub\t6\n".utf8).write(to: URL(fileURLWithPath: folder.file("more.tsv")))
        try Data("ignored".utf8).write(to: URL(fileURLWithPath: folder.file("notes.txt")))
        let presets = try EQPresetLibrary.presets(inFolder: folder.path)
        #expect(presets.map(\.name) == ["Gentle Lift", "Sub"])
        #expect(try EQPresetLibrary.presets(inFolder: folder.file("missing")).isEmpty)
    }
}
