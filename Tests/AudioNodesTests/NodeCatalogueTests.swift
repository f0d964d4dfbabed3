import AudioGraph
import AudioNodes
import Testing

@Suite struct NodeCatalogueTests {
    let context = NodeContext(sampleRate: 44100, connectedInputBuses: 2,
                              findPreset: { name in
                                  guard let preset = try EQPresetLibrary.find(name, in: EQPresetLibrary.builtIn) else { throw PresetError(source: name, field: nil, problem: "unknown") }
                                  return preset
                              })

    func kind(_ name: String) throws -> NodeKind { try #require(NodeCatalogue.kind(named: name)) }

    @Test func everyKindIsRegisteredOnceWithASummaryAndDescribedSettings() {
        let names = NodeCatalogue.kindNames
        #expect(names == ["file", "converter", "eq", "mixer", "gain", "filter", "gate", "compressor", "distortion", "delay", "reverb", "limiter", "silence", "timepitch", "voice", "convolution", "spatial", "plugin", "output"])
        for kind in NodeCatalogue.kinds {
            #expect(!kind.summary.isEmpty)
            #expect(kind.settings.allSatisfy { !$0.summary.isEmpty })
        }
    }

    @Test func aMixerIsMadeFromItsSettingsWithUnits() throws {
        let node = try NodeCatalogue.make("mix", kind: try kind("mixer"), fields: [
            "rate": "48kHz", "channels": 1, "volume": "-6dB",
            "buses": [["gain": "-3dB", "pan": -0.5, "start": "500ms"], ["mute": true, "enabled": false]],
        ], context: context)
        let mixer = try #require(node as? MixerNode)
        #expect(mixer.streamFormat(scope: .output) == .canonical(sampleRate: 48000, channelCount: 1))
        #expect(mixer.inputBusCount == 2)
        #expect(try mixer.parameter(named: "volume") == -6)
        #expect(try mixer.parameter(named: "gain[0]") == -3)
        #expect(try mixer.parameter(named: "pan[0]") == -0.5)
        #expect(try mixer.parameter(named: "mute[1]") == 1)
        #expect(try mixer.parameter(named: "enable[1]") == 0)
    }

    @Test func anEQTakesItsPresetLooselyAndKeepsTheScheduledOnesReady() throws {
        var withEvents = context
        withEvents.scheduledChoices = ["preset": ["pop", "Rock"]]
        let node = try NodeCatalogue.make("eq", kind: try kind("eq"), fields: ["preset": "bass-booster", "preamp": "-3 dB"], context: withEvents)
        let eq = try #require(node as? GraphicEQNode)
        #expect(eq.presets.map(\.name) == ["Bass Booster", "Pop", "Rock"])
        #expect(eq.currentPreset.name == "Bass Booster")
        #expect(try eq.parameter(named: "preamp") == -3)
        try eq.setParameter(named: "preset", choice: "rock")
        #expect(eq.currentPreset.name == "Rock")
        try eq.selectPreset(named: "POP")
        #expect(eq.currentPreset.name == "Pop")
    }

    /// The error making node `name` of `kind` from `fields` gives.
    func makingError(_ name: String, _ kind: String, _ fields: [String: SettingValue]) throws -> String {
        let kind = try self.kind(kind)
        do {
            _ = try NodeCatalogue.make(name, kind: kind, fields: fields, context: context)
            return "no error"
        } catch {
            return "\(error)"
        }
    }

    @Test func badFieldsAreNamedWithTheirNodeAndProblem() throws {
        #expect(try makingError("beats eq", "eq", ["presett": "Rock"])
                == "node 'beats eq' (eq): field 'presett': unknown field (eq takes preset, mode or preamp)")
        #expect(try makingError("beats eq", "eq", [:]).hasPrefix("node 'beats eq' (eq): field 'preset': missing"))
        #expect(try makingError("m", "mixer", ["channels": 1.5])
                == "node 'm' (mixer): field 'channels': must be a whole number from 1 to \(StreamFormat.maximumChannelCount), not 1.5")
        #expect(try makingError("m", "mixer", ["buses": [["pan": 2]]]) == "node 'm' (mixer): field 'buses[0].pan': must be from -1 to 1, not 2")
        #expect(try makingError("m", "mixer", ["buses": [["gian": 2]]])
                == "node 'm' (mixer): field 'buses[0].gian': unknown field (it takes gain, pan, start, mute or enabled)")
        #expect(try makingError("m", "mixer", ["buses": [["start": "soon"]]])
                == "node 'm' (mixer): field 'buses[0].start': must be a time like 90, 1.5s, 500ms, 441000f or 1:30, not 'soon'")
        #expect(try makingError("c", "converter", ["quality": "superb"])
                == "node 'c' (converter): field 'quality': must be best, high, medium, fastest, zoh or linear, not 'superb'")
        #expect(try makingError("c", "converter", ["rate": true]) == "node 'c' (converter): field 'rate': must be a number in Hz, not true")
        #expect(try makingError("e", "eq", ["preset": "Rock", "preamp": 30]) == "node 'e' (eq): field 'preamp': must be from -60 to 24, not 30")
    }

    @Test func anIndexedParameterTakesChoicesNotFractions() throws {
        let eq = try GraphicEQNode(presets: [EQPresetLibrary.builtIn[0], EQPresetLibrary.builtIn[1]])
        #expect(throws: GraphError.parameterNotWhole(node: "eq", name: "preset", value: 0.5)) { try eq.setParameter(GraphicEQNode.Parameter.preset, 0.5) }
        #expect(throws: GraphError.noParameterNamed(node: "eq", name: "gain", known: ["preset", "preamp"])) { try eq.setParameter(named: "gain", 1) }
        let names = try EQPresetLibrary.builtIn.prefix(2).map(\.name)
        #expect(throws: GraphError.noSuchChoice(node: "eq", parameter: "preset", choice: "Jazzz", known: names)) {
            try eq.setParameter(named: "preset", choice: "Jazzz")
        }
        let description = try eq.parameterDescription(named: "preset")
        #expect(description.describe(1) == "'\(names[1])'")
        #expect(try eq.parameterDescription(named: "preamp").describe(-3.5) == "-3.5 dB")
    }

    @Test(arguments: [
        ("90", TimeValue.seconds(90)), ("1.5s", .seconds(1.5)), ("500ms", .seconds(0.5)), ("441000f", .frames(441_000)),
        ("1:30", .seconds(90)), ("1:02:03.5", .seconds(3723.5)), ("0:00.25", .seconds(0.25)),
    ])
    func timesAreReadInEverySyntax(text: String, expected: TimeValue) {
        #expect(TimeValue(text) == expected)
    }

    @Test(arguments: ["", "-1s", "1:60", "1:2:3:4", "abc", "10x", "1:75:00"])
    func malformedTimesAreRefused(text: String) {
        #expect(TimeValue(text) == nil)
    }

    @Test func levelsAndFrequenciesTakeTheirUnits() {
        #expect(ValueSyntax.level("-3dB") == -3)
        #expect(ValueSyntax.level("-14 LUFS") == -14)
        #expect(ValueSyntax.level("-1dBTP") == -1)
        #expect(ValueSyntax.level("-0.5dBFS") == -0.5)
        #expect(ValueSyntax.level("loud") == nil)
        #expect(ValueSyntax.hertz("48kHz") == 48000)
        #expect(ValueSyntax.hertz("44100Hz") == 44100)
        #expect(ValueSyntax.hertz("fast") == nil)
    }

    @Test func aSettingThatIsAlsoAParameterTakesWhatTheParameterTakes() throws {
        let mixer = try kind("mixer")
        #expect(mixer.range("volume") == -96...24)
        #expect(mixer.range("buses.gain") == -96...24)
        #expect(mixer.range("buses.pan") == -1...1)
        #expect(mixer.range("buses.start") == nil, "a time has no range")
        #expect(mixer.range("tempo") == nil)
        #expect(try kind("filter").range("bands.q") == 0.01...100, "as written, not 0.009999999776482582")
        #expect(try kind("spatial").range("buses.azimuth") == -180...180)
        #expect(try kind("gain").range("gain") == -96...96)

        let gain = SettingDescription("gain", as: MixerNode.description(.gain, bus: 0, index: "N"), "a gain")
        guard case .number(.decibels, let range) = gain.type else { Issue.record("a gain in dB, not \(gain.type)"); return }
        #expect(range == -96...24)
        guard case .flag = SettingDescription("mute", as: MixerNode.description(.mute, bus: 0, index: "N"), "muted").type else {
            Issue.record("a switch is a flag"); return
        }
        let detection = try #require(try kind("compressor").parameters.first { $0.name == "detection" })
        let choice = SettingDescription("detection", as: detection, "how")
        guard case .choice(let names) = choice.type else { Issue.record("a choice, not \(choice.type)"); return }
        #expect(names == ["peak", "rms"])
        #expect(try makingError("m", "mixer", ["buses": [["gain": 30]]]) == "node 'm' (mixer): field 'buses[0].gain': must be from -96 to 24 dB, not 30")
    }
}
