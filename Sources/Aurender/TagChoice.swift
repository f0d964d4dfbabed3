import AudioMetadata

/// What a render writes into its output besides the samples: the input's tags and pictures
/// (the default for a render of one file), another file's, or none, with keys set or removed.
public struct TagChoice: Equatable, Sendable {
    /// One change to the carried tags: `values` replace the key's (all changes of one key
    /// together, in order); no values removes the key.
    public struct Edit: Equatable, Sendable {
        /// The key, upper-cased (`TITLE`).
        public var key: String
        /// The values it gets; empty removes it.
        public var values: [String]

        /// Sets `key` to `values`, or removes it when there are none.
        public init(key: String, values: [String]) {
            self.key = key.uppercased()
            self.values = values
        }
    }

    /// Whether anything is carried: false writes no tags or pictures (and says nothing of them).
    public var carries = true
    /// The file whose tags and pictures are carried instead of the input's (a mix carries none
    /// without one).
    public var source: String?
    /// The keys set or removed, after reading.
    public var edits: [Edit] = []
    /// The software named on a line added to the carried `bext`'s coding history for the render
    /// (`aurender 1.2`), which states the output's format; nil adds none. A render whose input
    /// has no `bext` is refused.
    public var codingHistory: String?

    /// The input's tags and pictures, unchanged.
    public init() {}

    /// Whether anything was asked beyond the default: a source, edits, or nothing at all.
    public var isDefault: Bool { self == TagChoice() }

    /// `tags` with the edits made: each key's values replaced, or the key removed.
    func edited(_ tags: Tags) -> Tags {
        var edited = tags
        for edit in edits { edited[edit.key] = edit.values }
        return edited
    }
}
