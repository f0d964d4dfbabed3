import AudioGraph
import Testing

@Suite struct EditDistanceTests {
    @Test(arguments: [
        ("", "", 0), ("", "abc", 3), ("abc", "", 3), ("rock", "rock", 0),
        ("rokc", "rock", 2), ("bass boster", "bass booster", 1), ("kitten", "sitting", 3),
    ])
    func countsTheFewestEdits(a: String, b: String, expected: Int) {
        #expect(EditDistance.between(a, b) == expected)
        #expect(EditDistance.between(b, a) == expected)
    }
}
