@testable import AurenderCLI
import Testing

/// The pieces of the progress line and the level arguments.
@Suite struct ConsoleTextTests {
    @Test func clockTimesRoundUpToWholeSeconds() {
        #expect(clockTime(0) == "0:00")
        #expect(clockTime(1.2) == "0:02")
        #expect(clockTime(59.5) == "1:00")
        #expect(clockTime(3725) == "1:02:05")
    }

    @Test func realtimeFactorsKeepOneDecimalBelowTen() {
        #expect(realtimeText(audioSeconds: 60, wallSeconds: 0.5) == "120× realtime")
        #expect(realtimeText(audioSeconds: 3, wallSeconds: 2) == "1.5× realtime")
        #expect(realtimeText(audioSeconds: 3, wallSeconds: 0) == "-")
    }

    @Test func columnsArePaddedOnEitherSideAndLongTextIsKeptWhole() {
        #expect("wav".padded(to: 6) == "wav   ")
        #expect("-3.5".padded(to: 7, alignedRight: true) == "   -3.5")
        #expect(String(7).padded(to: 3, fill: "0", alignedRight: true) == "007")
        #expect("Bass Booster".padded(to: 4) == "Bass Booster")
    }

    @Test func levelsTakeTheirUnitOrNone() {
        #expect(LevelArgument<LUFSUnit>(argument: "-14LUFS")?.value == -14)
        #expect(LevelArgument<LUFSUnit>(argument: "-14 lufs")?.value == -14)
        #expect(LevelArgument<LUFSUnit>(argument: "-23.5")?.value == -23.5)
        #expect(LevelArgument<DBTPUnit>(argument: "-1dBTP")?.value == -1)
        #expect(LevelArgument<LUFSUnit>(argument: "-14dB") == nil)
        #expect(LevelArgument<LUFSUnit>(argument: "+3LUFS") == nil, "louder than full scale")
        #expect(LevelArgument<DBTPUnit>(argument: "-1LUFS") == nil, "the wrong unit")
    }

    @Test func aBatchLineCountsFilesAndAProgressLineNamesTheFile() {
        let batch = ProgressDisplay(.batch(fileCount: 20, totalSeconds: 1200))
        defer { batch.stop() }
        #expect(batch.line().hasPrefix("aurender: 0/20 files  0%  "))
        let single = ProgressDisplay(.file("take.wav"))
        defer { single.stop() }
        #expect(single.line().hasPrefix("aurender: take.wav  0:00 of audio  "), "no render has said its length yet")
        let one = ProgressDisplay(.batch(fileCount: 1, totalSeconds: 60))
        defer { one.stop() }
        #expect(one.line().hasPrefix("aurender: 0/1 files  0%  "), "a batch of one is still counted in files")
    }
}
