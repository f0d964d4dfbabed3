import AudioFormats
import Testing

/// `StatedLength` holds reads to a stated length and turns an early end into a shortfall.
@Suite struct StatedLengthTests {
    /// Reads `parts` (frames got for 1,000 asked each) until one comes short; the error, if any.
    static func read(_ stated: inout StatedLength, _ parts: [Int]) -> AudioFormatError? {
        do {
            for got in parts { try stated.count(got, of: 1_000, path: "x.mkv") }
            return nil
        } catch {
            return error
        }
    }

    @Test func anExactLengthStopsReadsAndNamesBothCounts() {
        var stated = StatedLength(.exact(2_500))
        #expect(stated.framesToRead(1_000) == 1_000)
        let error = Self.read(&stated, [1_000, 1_000, 300])
        #expect(error?.shortfall == Shortfall(stated: 2_500, found: 2_300))
        #expect(error?.description == "x.mkv: the file states 2500 frames but holds only 2300 (truncated or damaged)")
        var whole = StatedLength(.exact(2_500))
        #expect(Self.read(&whole, [1_000, 1_000]) == nil)
        #expect(whole.framesToRead(1_000) == 500)
    }

    @Test func aRoughLengthFailsOnlyBeyondItsTolerance() {
        var shortByLittle = StatedLength(.estimated(10_000), roughly: (10_000, 1_100))
        #expect(Self.read(&shortByLittle, [1_000, 1_000, 1_000, 1_000, 1_000, 1_000, 1_000, 1_000, 1_000, 0]) == nil,
                "a whole file ending within a codec frame of its rounded duration passes")
        var cut = StatedLength(.estimated(10_000), roughly: (10_000, 1_100))
        let error = Self.read(&cut, [1_000, 1_000, 400])
        #expect(error?.shortfall == Shortfall(stated: 10_000, found: 2_400, isRough: true))
        #expect(error?.description == "x.mkv: the file states about 10000 frames but holds only 2400 (truncated or damaged)")
    }

    @Test func anExactLengthOverridesARoughOne() {
        var stated = StatedLength(.exact(2_000), roughly: (10_000, 1_100))
        #expect(Self.read(&stated, [1_000, 1_000]) == nil)
    }

    @Test func anInputFoundCutShortFailsWhereItEndsWithoutAStatedLength() {
        var estimated = StatedLength(.estimated(9_000))
        #expect(Self.read(&estimated, [1_000, 500]) == nil, "an estimate alone is no statement")
        var marked = StatedLength(.estimated(9_000))
        marked.markCutShort()
        let error = Self.read(&marked, [1_000, 500])
        #expect(error?.shortfall == Shortfall(stated: nil, found: 1_500))
        #expect(error?.description == "x.mkv: the file ends early, without the end of its stream, after 1500 frames (truncated or damaged)")
        var atOpen = StatedLength(.unknown, cutShort: true)
        #expect(Self.read(&atOpen, [700])?.shortfall == Shortfall(stated: nil, found: 700))
    }

    @Test func anInputClaimingAudioOfWhichNoneDecodesFails() {
        var stated = StatedLength(.estimated(9_000))
        #expect(Self.read(&stated, [0])?.description == "x.mkv: the file claims audio but none of it decodes (truncated or damaged)")
        var unknown = StatedLength(.unknown)
        #expect(Self.read(&unknown, [0]) == nil, "an input that claims nothing may be empty")
    }

    @Test func rewindingCountsAgain() {
        var stated = StatedLength(.exact(1_500))
        #expect(Self.read(&stated, [1_000]) == nil)
        stated.rewind()
        #expect(stated.position == 0 && stated.framesToRead(1_000) == 1_000)
    }
}
