/// A file's tags as TagLib's property map names them: upper-case keys (`TITLE`, `ARTIST`,
/// `TRACKNUMBER`, `MUSICBRAINZ_TRACKID`), each with one or more values, in the order read.
///
/// One set of names for every tag system (ID3v2 frames, Vorbis comments, MP4 atoms, APE items,
/// RIFF INFO), so carrying tags from one format to another is mapping through this set once.
public struct Tags: Equatable, Sendable {
    /// One key with its values, in order.
    public struct Entry: Equatable, Sendable {
        /// The upper-case key.
        public let key: String
        /// Its values, in order; never empty.
        public var values: [String]
    }

    /// The keys and their values, in the order they were read or set.
    public private(set) var entries: [Entry] = []

    /// No tags.
    public init() {}

    /// Tags from key–value pairs: a key given more than once keeps every value, in order.
    public init(_ pairs: [(key: String, value: String)]) {
        for (key, value) in pairs { append(value, to: key) }
    }

    /// Whether there are no tags.
    public var isEmpty: Bool { entries.isEmpty }

    /// The keys, in order.
    public var keys: [String] { entries.map(\.key) }

    /// Every key–value pair, a key's values in order.
    public var pairs: [(key: String, value: String)] { entries.flatMap { entry in entry.values.map { (entry.key, $0) } } }

    /// The values of `key` (any case), empty when it has none; setting an empty list removes it,
    /// setting values to a new key adds it last.
    public subscript(key: String) -> [String] {
        get { entries.first { $0.key == key.uppercased() }?.values ?? [] }
        set {
            let key = key.uppercased()
            if let index = entries.firstIndex(where: { $0.key == key }) {
                if newValue.isEmpty { entries.remove(at: index) } else { entries[index].values = newValue }
            } else if !newValue.isEmpty {
                entries.append(Entry(key: key, values: newValue))
            }
        }
    }

    /// Adds `value` after `key`'s values.
    public mutating func append(_ value: String, to key: String) {
        self[key] = self[key] + [value]
    }
}
