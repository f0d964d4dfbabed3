/// The one mapping between tag systems that TagLib's property map leaves to aurender: track and
/// disc numbers with their totals, and the keys a render does not carry.
///
/// TagLib maps every other key itself (its per-format tables are the mapping; the guide lists
/// them). Numbers differ in shape, not name: ID3v2's `TRCK` and MP4's `trkn` hold `3/12` in one
/// field, while Vorbis comments hold `TRACKNUMBER=3` and `TRACKTOTAL=12` (`TOTALTRACKS` in some
/// writers). Written to ID3v2 or MP4, a number and its total are joined; written to Vorbis
/// comments, `3/12` is split.
public enum TagMapping {
    /// The number keys and the total keys that go with them, the first the one written.
    static let numbers: [(number: String, totals: [String])] = [
        ("TRACKNUMBER", ["TRACKTOTAL", "TOTALTRACKS"]),
        ("DISCNUMBER", ["DISCTOTAL", "TOTALDISCS"]),
    ]

    /// The keys that describe how the input was encoded, not what it is: its encoder (`ENCODING`,
    /// TagLib's name for ID3v2's `TSSE` and MP4's `©too`; Vorbis comments' `ENCODER` and opusenc's
    /// `ENCODER_OPTIONS`) and its length in milliseconds (`LENGTH`, ID3v2's `TLEN`). A render
    /// re-encodes and may change the length, so these would be false of its output: they are not carried.
    public static let encodingDescriptions: Set<String> = ["ENCODING", "ENCODER", "ENCODER_OPTIONS", "LENGTH"]

    /// `tags` without the keys that describe the input's encoding (`encodingDescriptions`): what a render carries.
    public static func carried(_ tags: Tags) -> Tags {
        var carried = tags
        for key in tags.keys where encodingDescriptions.contains(key) { carried[key] = [] }
        return carried
    }

    /// `tags` in the shape `system` stores them.
    public static func tags(_ tags: Tags, for system: TagSystem) -> Tags {
        var mapped = tags
        for (numberKey, totalKeys) in numbers {
            guard let number = mapped[numberKey].first else { continue }
            switch system {
            case .id3v2, .mp4:
                guard !number.contains("/"), let total = totalKeys.lazy.compactMap({ mapped[$0].first }).first else { continue }
                mapped[numberKey] = ["\(number)/\(total)"] + mapped[numberKey].dropFirst()
                for key in totalKeys { mapped[key] = [] }
            case .vorbisComments:
                let parts = number.split(separator: "/", omittingEmptySubsequences: false)
                guard parts.count == 2, totalKeys.allSatisfy({ mapped[$0].isEmpty }) else { continue }
                mapped[numberKey] = [String(parts[0])] + mapped[numberKey].dropFirst()
                if !parts[1].isEmpty { mapped[totalKeys[0]] = [String(parts[1])] }
            }
        }
        return mapped
    }

    /// Whether two values of `key` say the same: the same text, or for track and disc numbers
    /// the same numbers (`03/12` is `3/12`).
    static func same(_ a: String, _ b: String, key: String) -> Bool {
        guard a != b else { return true }
        guard numbers.contains(where: { $0.number == key || $0.totals.contains(key) }) else { return false }
        let numbers = { (text: String) in text.split(separator: "/", omittingEmptySubsequences: false).map { Int($0) } }
        return numbers(a) == numbers(b)
    }
}
