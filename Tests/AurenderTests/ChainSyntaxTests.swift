import Aurender
import Testing

/// The chain's text and order in the library: what `--chain` and the flags hand it.
@Suite struct ChainSyntaxTests {
    @Test func stagesAreKindsWithTheirFieldsTypedAsGraphFilesHoldThem() throws {
        let stages = try ChainSyntax.parse(#"highpass frequency=80 | eq preset="Bass Booster" | reverb preset='large hall' wet=30 | gain gain=-3dB"#)
        #expect(stages.map(\.kind) == ["filter", "eq", "reverb", "gain"])
        #expect(stages.map(\.name) == ["highpass", "eq", "reverb", "gain"])
        #expect(stages[0].fields == ["bands": [["type": "highpass", "frequency": 80]]])
        #expect(stages[1].fields == ["preset": "Bass Booster"])
        #expect(stages[2].fields == ["preset": "large hall", "wet": 30])
        #expect(stages[3].fields == ["gain": "-3dB"])
    }

    @Test func aKindGivenAgainIsNumberedAndAQuotedNumberStaysText() throws {
        let stages = try ChainSyntax.parse(#"eq preset=Rock | eq preset="1" | eq preset=Pop"#)
        #expect(stages.map(\.name) == ["eq", "eq 2", "eq 3"])
        #expect(stages[1].fields == ["preset": "1"])
    }

    @Test func theDefaultOrderIsTheLibrarysWhateverTheOrderGiven() {
        let given = [ChainStage("reverb"), ChainStage("eq"), ChainStage("plugin", name: "plugin 1"), ChainStage("gain"), ChainStage("voice"),
                     ChainStage("plugin", name: "plugin 2"), ChainStage("filter")]
        #expect(ChainOrder.ordered(given).map(\.name) == ["voice", "plugin 1", "plugin 2", "filter", "eq", "gain", "reverb"])
        #expect(ChainOrder.ordered(given, pluginsAfterEQ: true).map(\.name) == ["voice", "filter", "eq", "plugin 1", "plugin 2", "gain", "reverb"])
    }

    @Test func aMistakeNamesThePositionTheKindAndTheField() {
        #expect(throws: ChainError(position: 2, kind: "delay", field: "feedback", problem: "must be from -100 to 100, not 150")) {
            try ChainSyntax.parse("gain gain=-3 | delay time=0.1 feedback=150")
        }
        #expect(throws: ChainError(position: 1, kind: "lowpass", field: "frequency", problem: "must be a number in Hz, not 'high'")) {
            try ChainSyntax.parse("lowpass frequency=high")
        }
    }
}
