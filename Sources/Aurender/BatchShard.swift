extension BatchJob {
    /// One of `count` shares of a batch's inputs, numbered from 1: what `aurender --shard 2/4` takes.
    ///
    /// N machines that each render one share of the same batch render every input exactly once.
    /// The inputs are ordered by relative path (an input found in a folder by its path inside
    /// that folder, an input named directly by its file name), compared byte by byte as
    /// `LC_ALL=C sort` does, and dealt out in turn: the first to share 1, the second to share 2,
    /// the N+1th to share 1 again. So every machine that sees the same tree computes the same
    /// shares whatever order the inputs were listed in, and shares differ by at most one input.
    public struct Shard: Equatable, Sendable, CustomStringConvertible {
        /// Which share, from 1 to `count`.
        public let number: Int
        /// How many shares the batch is split into.
        public let count: Int

        /// Share `number` (1-based) of `count`; refused unless `1 <= number <= count`.
        public init(number: Int, count: Int) throws(BatchError) {
            guard count >= 1, (1...count).contains(number) else { throw .badShard("\(number)/\(count)") }
            self.number = number
            self.count = count
        }

        /// The share written `K/N` (`2/4`: the second of four), as job arrays pass it.
        public init(parsing text: String) throws(BatchError) {
            let parts = text.split(separator: "/", omittingEmptySubsequences: false)
            guard parts.count == 2, let number = Int(parts[0]), let count = Int(parts[1]) else { throw .badShard(text) }
            do { try self.init(number: number, count: count) } catch { throw .badShard(text) }
        }

        /// `K/N`.
        public var description: String { "\(number)/\(count)" }

        /// The indices into `relativePaths` that fall in this share, in ascending order: the
        /// positions, in byte order of the paths (ties by index), congruent to `number - 1`
        /// modulo `count`.
        public func indices(of relativePaths: [String]) -> [Int] {
            let ordered = relativePaths.indices.sorted { left, right in
                let a = relativePaths[left].utf8, b = relativePaths[right].utf8
                return a.elementsEqual(b) ? left < right : a.lexicographicallyPrecedes(b)
            }
            return stride(from: number - 1, to: ordered.count, by: count).map { ordered[$0] }.sorted()
        }
    }
}

extension BatchJob.Shard {
    /// The positions of a list of `count` items, in order, that fall in this share: the Kth, the
    /// K+Nth and so on, as a manifest's lines are dealt out (its order is the same on every machine).
    public func indices(count itemCount: Int) -> [Int] {
        Array(stride(from: number - 1, to: itemCount, by: count))
    }
}
