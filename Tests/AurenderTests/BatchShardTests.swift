import Aurender
import Foundation
import TestSupport
import Testing

/// The library's shards: N shares of a batch cover every input once, whatever the listing order.
@Suite struct BatchShardTests {
    /// Relative paths in no particular order, with folders, case and non-ASCII names.
    static let paths = ["b.wav", "a.wav", "sub/c.flac", "Z.aiff", "sub/a.wav", "é.wav", "a b.wav", "10.wav", "9.wav", "sub/deep/x.ogg", "c.mp3"]

    @Test(arguments: 1...7)
    func theSharesOfNPartitionThePaths(count: Int) throws {
        let shares = try (1...count).map { try BatchJob.Shard(number: $0, count: count).indices(of: Self.paths) }
        #expect(shares.flatMap { $0 }.sorted() == Array(Self.paths.indices), "every path in exactly one share")
        #expect(shares.allSatisfy { $0 == $0.sorted() }, "each share in listing order")
        let sizes = shares.map(\.count)
        #expect(sizes.max()! - sizes.min()! <= 1, "shares differ by at most one: \(sizes)")
        for order in [Self.paths.reversed(), Self.paths.sorted(), Self.paths.shuffled()].map(Array.init) {
            let reordered = try (1...count).map { number in
                try BatchJob.Shard(number: number, count: count).indices(of: order).map { order[$0] }
            }
            #expect(reordered.map(Set.init) == shares.map { Set($0.map { Self.paths[$0] }) }, "the same paths whatever the listing order")
        }
    }

    @Test func pathsAreDealtOutInByteOrder() throws {
        // Byte order, as LC_ALL=C sort: 10.wav 9.wav Z.aiff "a b.wav" a.wav b.wav c.mp3 sub/a.wav sub/c.flac
        // sub/deep/x.ogg é.wav; share 1 of 3 takes the 1st, 4th, 7th and 10th, returned in listing order.
        let first = try BatchJob.Shard(parsing: "1/3").indices(of: Self.paths).map { Self.paths[$0] }
        #expect(first == ["a b.wav", "10.wav", "sub/deep/x.ogg", "c.mp3"])
        let third = try BatchJob.Shard(parsing: "3/3").indices(of: Self.paths).map { Self.paths[$0] }
        #expect(third == ["b.wav", "sub/c.flac", "Z.aiff"])
    }

    @Test func badSharesAreRefusedWithTheirText() {
        for text in ["0/4", "5/4", "3/0", "x", "1/4/2", "1/", "/4", "-1/4", ""] {
            #expect(throws: BatchError.badShard(text)) { try BatchJob.Shard(parsing: text) }
        }
        #expect(BatchError.badShard("0/4").description
                == "'0/4' is not a shard: give K/N, the Kth of N shares, with K from 1 to N (1/4 to 4/4)")
        #expect(throws: BatchError.badShard("2/1")) { try BatchJob.Shard(number: 2, count: 1) }
        #expect((try? BatchJob.Shard(parsing: "4/4"))?.description == "4/4")
    }

    @Test func aBatchKeepsItsShareOfFilesListedInAnyOrder() throws {
        let folder = try TemporaryFolder()
        let names = ["d.wav", "a.wav", "c.wav", "b.wav", "e.wav"]
        for name in names { try Data([1]).write(to: URL(fileURLWithPath: folder.file(name))) }
        let listed = names.map(folder.file), reversed = Array(listed.reversed())
        for number in 1...2 {
            let shard = try BatchJob.Shard(number: number, count: 2)
            let forward = try BatchJob(inputs: listed, into: folder.file("out"), shard: shard)
            let backward = try BatchJob(inputs: reversed, into: folder.file("out"), shard: shard)
            #expect(Set(forward.items.map(\.input)) == Set(backward.items.map(\.input)))
            #expect(forward.items.map(\.input) == listed.filter { path in forward.items.contains { $0.input == path } }, "in input order")
            #expect(forward.totalItemCount == 5 && forward.shard == shard)
        }
        let first = try BatchJob(inputs: listed, into: folder.file("out"), shard: try BatchJob.Shard(number: 1, count: 2))
        #expect(first.items.map(\.input) == ["a.wav", "c.wav", "e.wav"].map(folder.file))
        let beyond = try BatchJob(inputs: listed, into: folder.file("out"), shard: try BatchJob.Shard(number: 6, count: 6))
        #expect(beyond.items.isEmpty && beyond.totalItemCount == 5, "more shards than inputs leaves the last one empty")
    }

    @Test func collisionsAreRefusedByEveryShard() throws {
        let folder = try TemporaryFolder()
        for name in ["a", "b"] {
            try FileManager.default.createDirectory(atPath: folder.file(name), withIntermediateDirectories: false)
            try Data([1]).write(to: URL(fileURLWithPath: folder.file(name + "/x.wav")))
        }
        try Data([1]).write(to: URL(fileURLWithPath: folder.file("a/y.wav")))
        for number in 1...3 {
            #expect(throws: BatchError.collision(inputs: [folder.file("a/x.wav"), folder.file("b/x.wav")], output: folder.file("out/x.wav"))) {
                try BatchJob(inputs: [folder.file("a"), folder.file("b")], into: folder.file("out"), shard: try BatchJob.Shard(number: number, count: 3))
            }
        }
    }
}
