/// How far apart two names are, for suggesting the one a user meant (a preset, a plugin).
public enum EditDistance {
    /// The Levenshtein distance: the fewest single-character insertions, deletions and
    /// substitutions that turn `a` into `b`.
    public static func between(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        guard !a.isEmpty else { return b.count }
        var previous = Array(0...b.count)
        for i in 1...a.count {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in 1...max(1, b.count) where !b.isEmpty {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            previous = current
        }
        return previous[b.count]
    }
}
