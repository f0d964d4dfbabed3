/// A point or span in time as a user writes it: seconds, or frames at whatever rate applies.
public enum TimeValue: Equatable, Sendable {
    case seconds(Double)
    case frames(Int64)

    /// The longest time accepted, in seconds (about 31.7 years): any longer time is a typing
    /// mistake, and this bound keeps every time in frames, at any rate a stream may have, well
    /// inside `Int64`.
    public static let maximumSeconds = 1_000_000_000.0

    /// Parses `90`, `1.5s`, `500ms`, `441000f`, `1:30` or `1:02:03.5`; nil when it is none of these,
    /// negative, or longer than `maximumSeconds`.
    public init?(_ text: String) {
        let text = text.trimmingSpaces.lowercased()
        let seconds: Double
        if text.contains(":") {
            let fields = text.split(separator: ":", omittingEmptySubsequences: false)
            guard (2...3).contains(fields.count), let last = Double(fields.last!), last >= 0, last < 60 else { return nil }
            let wholeFields = fields.dropLast().map { Int($0) }
            guard wholeFields.allSatisfy({ $0 != nil && $0! >= 0 }) else { return nil }
            if fields.count == 3, wholeFields[1]! >= 60 { return nil }
            seconds = wholeFields.reduce(0.0) { $0 * 60 + Double($1!) } * 60 + last
        } else if text.hasSuffix("ms"), let value = Double(text.dropLast(2)) {
            seconds = value / 1000
        } else if text.hasSuffix("s"), let value = Double(text.dropLast()) {
            seconds = value
        } else if text.hasSuffix("f"), let value = Int64(text.dropLast()) {
            guard value >= 0 else { return nil }
            self = .frames(value)
            return
        } else if let value = Double(text) {
            seconds = value
        } else {
            return nil
        }
        guard seconds >= 0, seconds <= Self.maximumSeconds else { return nil }
        self = .seconds(seconds)
    }

    /// The time in frames at `sampleRate`, rounded to the nearest frame.
    public func frames(at sampleRate: Double) -> Int64 {
        switch self {
        case .seconds(let value): Int64((value * sampleRate).rounded())
        case .frames(let value): value
        }
    }

    /// The time in seconds at `sampleRate`.
    public func seconds(at sampleRate: Double) -> Double {
        switch self {
        case .seconds(let value): value
        case .frames(let value): Double(value) / sampleRate
        }
    }
}

/// Numbers as users write them, with an optional unit suffix: levels (`-3dB`, `-14LUFS`,
/// `-1dBTP`, `-0.5dBFS`) and frequencies (`48000`, `48000Hz`, `48kHz`, `48k`).
public enum ValueSyntax {
    /// The suffixes a level may carry; a bare number is taken in the level's own unit.
    public static let levelSuffixes = ["dbfs", "dbtp", "lufs", "db", "lu"]

    /// A level in dB (or LUFS, dBTP, dBFS), with or without its unit; nil if not a finite number.
    public static func level(_ text: String) -> Double? {
        number(text.trimmingSpaces.lowercased(), droppingAnyOf: levelSuffixes)
    }

    /// A frequency in Hz (`48000`, `48000Hz`, `48kHz`, `48k`); nil if not a finite number.
    public static func hertz(_ text: String) -> Double? {
        let text = text.trimmingSpaces.lowercased()
        if text.hasSuffix("khz") { return number(String(text.dropLast(3)), droppingAnyOf: []).map { $0 * 1000 } }
        if text.hasSuffix("k") { return number(String(text.dropLast()), droppingAnyOf: []).map { $0 * 1000 } }
        return number(text, droppingAnyOf: ["hz"])
    }

    private static func number(_ text: String, droppingAnyOf suffixes: [String]) -> Double? {
        var body = Substring(text)
        if let suffix = suffixes.first(where: { body.hasSuffix($0) }) { body = body.dropLast(suffix.count) }
        guard let value = Double(body.trimmingSpaces), value.isFinite else { return nil }
        return value
    }
}

extension StringProtocol {
    /// The text without leading and trailing spaces.
    var trimmingSpaces: String {
        String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
    }
}
