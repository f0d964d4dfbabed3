import Aurender
import Foundation
import TestSupport
import Testing

/// Each fact once: a range a node kind declares is read by the command (its help, its checks, its
/// errors), never written again there. Checked on the sources, as `FrontDoorTests` checks the front
/// door: no file of `Sources/AurenderCLI` writes a kind's range as a literal (`-60...24`) or in a
/// text (`from -60 to 24 dB`, `-1 (left) to 1 (right)`).
@Suite struct KindRangeTests {
    /// A range's two ends.
    struct Bounds: Hashable, CustomStringConvertible {
        let lower: Double
        let upper: Double
        var description: String { "\(lower)...\(upper)" }
    }

    /// Every range the catalogue's kinds declare, with where: their parameters' (switches and
    /// choices aside, whose ranges are their choices) and their number settings', a list's fields too.
    static func declaredRanges() -> [Bounds: String] {
        var ranges: [Bounds: String] = [:]
        func add(_ settings: [SettingDescription], of kind: String, in path: String) {
            for setting in settings {
                switch setting.type {
                case .number(_, let range): ranges[Bounds(lower: range.lowerBound, upper: range.upperBound)] = "\(kind) \(path)\(setting.name)"
                case .integer(let range): ranges[Bounds(lower: Double(range.lowerBound), upper: Double(range.upperBound))] = "\(kind) \(path)\(setting.name)"
                case .list(let fields): add(fields, of: kind, in: "\(path)\(setting.name).")
                default: break
                }
            }
        }
        for kind in NodeCatalogue.kinds {
            for parameter in kind.parameters where !parameter.unit.isDiscrete {
                ranges[Bounds(lower: Double(parameter.range.lowerBound), upper: Double(parameter.range.upperBound))] = "\(kind.name) \(parameter.name)"
            }
            add(kind.settings, of: kind.name, in: "")
        }
        return ranges
    }

    /// A number as source or prose writes it: `-96`, `0.25`, `1_048_576`.
    static let number = #"(-?\d[\d_]*(?:\.\d+)?)"#

    /// The ranges written in `text`: literals (`-96...24`, `-96.0...24.0`) and prose (`-96 to 24`,
    /// `-1 (left) to 1 (right)`), each with what was written.
    static func writtenRanges(in text: String) throws -> [(written: String, bounds: Bounds)] {
        let patterns = [try Regex(number + #"\s*\.\.\.\s*"# + number), try Regex(number + #"(?: \([a-z ]+\))? to "# + number)]
        return patterns.flatMap { pattern in
            text.matches(of: pattern).compactMap { match -> (String, Bounds)? in
                func value(_ index: Int) -> Double? { match.output[index].substring.flatMap { Double($0.replacingOccurrences(of: "_", with: "")) } }
                guard let lower = value(1), let upper = value(2) else { return nil }
                return (String(text[match.range]), Bounds(lower: lower, upper: upper))
            }
        }
    }

    @Test func theKindsDeclareTheRangesTheRuleLooksFor() {
        let ranges = Self.declaredRanges()
        for (lower, upper) in [(-60.0, 24.0), (-96, 24), (-96, 96), (-24, 48), (-31, 0), (0.25, 4), (-1, 1), (-180, 180)] {
            #expect(ranges[Bounds(lower: lower, upper: upper)] != nil, "some kind declares \(lower)...\(upper)")
        }
    }

    @Test func theRuleFindsARangeWrittenEitherWay() throws {
        let written = try Self.writtenRanges(in: """
            guard (-60...24).contains(value), (-96.0...24.0).contains(gain), (1...1_048_576).contains(frames) else {
                throw ValidationError("the drive must be from -24 to 48 dB; pan=P  -1 (left) to 1 (right)")
            }
            for index in 0..<count where (1...StreamFormat.maximumChannelCount).contains(index) {}
            """)
        #expect(written.map(\.bounds) == [Bounds(lower: -60, upper: 24), Bounds(lower: -96, upper: 24), Bounds(lower: 1, upper: 1_048_576),
                                          Bounds(lower: -24, upper: 48), Bounds(lower: -1, upper: 1)])
        #expect(written.map(\.written).last == "-1 (left) to 1")
    }

    @Test func noFileOfTheCommandRestatesAKindsRange() throws {
        let ranges = Self.declaredRanges()
        for (path, text) in try FrontDoorTests.commandFiles() {
            for (written, bounds) in try Self.writtenRanges(in: text) {
                if let owner = ranges[bounds] {
                    Issue.record("\(path) writes '\(written)', the range of \(owner): read it from the kind (KindRanges)")
                }
            }
        }
    }
}
