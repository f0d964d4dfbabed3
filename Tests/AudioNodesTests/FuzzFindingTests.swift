import AudioNodes
import Foundation
import TestSupport
import Testing

/// What `make fuzz` found in the value parsers, kept as fixtures in `fixtures/fuzz-findings/`
/// (each as the harness was given it: a selector byte, then the text).
@Suite struct FuzzFindingTests {
    /// The text a FuzzArguments finding holds, after its selector byte.
    func argumentsFinding(_ name: String) throws -> String {
        let bytes = try #require(FileManager.default.contents(atPath: fixture("fuzz-findings/" + name)))
        return String(decoding: bytes.dropFirst(), as: UTF8.self)
    }

    /// `00010000000000000000000000000000000003` (about 1e34 s) overflowed `Int64` in
    /// `frames(at:)` and trapped; times longer than `maximumSeconds` are now refused.
    @Test func aTimeBeyondInt64FramesIsRefused() throws {
        let text = try argumentsFinding("FuzzArguments-time-beyond-int64")
        #expect(text == "00010000000000000000000000000000000003")
        #expect(TimeValue(text) == nil)
        for tooLong in ["1e300s", "1e300", "1000000001", "1e13ms", "277778:00:00", "999999999999999999:00:00", "inf", "nan"] {
            #expect(TimeValue(tooLong) == nil, "\(tooLong)")
        }
    }

    @Test func theLongestTimeStillConvertsAtTheHighestRate() throws {
        let longest = try #require(TimeValue("1000000000s"))
        #expect(longest == .seconds(TimeValue.maximumSeconds))
        #expect(longest.frames(at: 3_072_000) == 3_072_000_000_000_000)
        #expect(TimeValue("277777:46:40") == .seconds(TimeValue.maximumSeconds))
    }
}
