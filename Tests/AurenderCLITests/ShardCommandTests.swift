import Foundation
import TestSupport
import Testing

/// `--shard K/N` run through the binary: three shares of a folder render every file once.
@Suite struct ShardCommandTests {
    /// Seven short WAVs, two in a subfolder, each a constant of its own level.
    func makeInputs() throws -> (folder: TemporaryFolder, names: [String]) {
        let folder = try TemporaryFolder()
        try FileManager.default.createDirectory(atPath: folder.file("in/sub"), withIntermediateDirectories: true)
        let names = ["kick.wav", "snare.wav", "Hat.wav", "10 bass.wav", "pad.wav", "sub/lead.wav", "sub/fx.wav"]
        for (index, name) in names.enumerated() {
            try writeFloats([Float](repeating: Float(index + 1) / 16, count: 441), rate: 44100, to: folder.file("in/" + name))
        }
        return (folder, names)
    }

    func outputs(_ folder: String) -> Set<String> {
        let found = (FileManager.default.enumerator(atPath: folder)?.allObjects as? [String]) ?? []
        return Set(found.filter { $0.hasSuffix(".wav") })
    }

    @Test func threeSharesRenderEveryFileExactlyOnce() throws {
        let (folder, names) = try makeInputs()
        var shares: [Set<String>] = []
        for number in 1...3 {
            let out = folder.file("out\(number)")
            let result = try aurender(["-r", "-o", out, folder.file("in"), "--shard", "\(number)/3", "--bits", "float"])
            #expect(result.status == 0, "\(result.standardError)")
            #expect(result.standardError == "")
            shares.append(outputs(out))
        }
        #expect(shares.map(\.count) == [3, 2, 2], "seven files dealt out in turn: \(shares)")
        #expect(shares.reduce(Set()) { $0.union($1) } == Set(names), "together the shares are the whole set")
        #expect(shares[0].isDisjoint(with: shares[1]) && shares[0].isDisjoint(with: shares[2]) && shares[1].isDisjoint(with: shares[2]))
        for (index, name) in names.enumerated() {
            let number = try #require(shares.firstIndex { $0.contains(name) }) + 1
            let rendered = try samples(of: folder.file("out\(number)/" + name)).samples
            #expect(rendered.count == 441 && rendered.allSatisfy { $0 == Float(index + 1) / 16 }, "\(name) rendered whole")
        }
    }

    @Test func theShareDoesNotDependOnTheOrderOfTheInputs() throws {
        let (folder, names) = try makeInputs()
        let listed = names.filter { !$0.hasPrefix("sub/") }.map { folder.file("in/" + $0) }
        for (label, inputs) in [("forward", listed), ("backward", listed.reversed())] {
            let result = try aurender(["-o", folder.file(label), "--shard", "2/2"] + inputs)
            #expect(result.status == 0, "\(result.standardError)")
        }
        // Byte order: "10 bass.wav" "Hat.wav" kick.wav pad.wav snare.wav; share 2 of 2 takes the 2nd and 4th.
        #expect(outputs(folder.file("forward")) == ["Hat.wav", "pad.wav"])
        #expect(outputs(folder.file("backward")) == outputs(folder.file("forward")))
    }

    @Test func anEmptyShareSaysSoAndSucceeds() throws {
        let (folder, _) = try makeInputs()
        let result = try aurender(["-q", "-o", folder.file("out"), folder.file("in/kick.wav"), folder.file("in/pad.wav"), "--shard", "3/3"])
        #expect(result.status == 0, "a Slurm array task with nothing to do has not failed")
        #expect(result.standardError == "aurender: shard 3/3 has nothing to do: all 2 of the batch's inputs go to other shards\n")
        #expect(!FileManager.default.fileExists(atPath: folder.file("out")))
        let one = try aurender(["-o", folder.file("out"), folder.file("in/kick.wav"), "--shard", "2/4", "--json"])
        #expect(one.status == 0)
        #expect(one.standardError == "aurender: shard 2/4 has nothing to do: the batch's one input goes to other shards\n")
        let report = try #require(try JSONSerialization.jsonObject(with: one.standardOutput) as? [String: Any])
        #expect((report["rendered"] as? [Any])?.isEmpty == true, "the report says nothing was rendered")
    }

    @Test(arguments: ["0/4", "5/4", "3/0", "x", "1/4/2", "2/"])
    func aBadShareIsRefused(text: String) throws {
        let (folder, _) = try makeInputs()
        let result = try aurender(["-o", folder.file("out"), folder.file("in"), "--shard", text])
        #expect(result.status == 64)
        #expect(result.standardError.split(separator: "\n").first
                == "Error: --shard: '\(text)' is not a shard: give K/N, the Kth of N shares, with K from 1 to N (1/4 to 4/4)")
        #expect(!FileManager.default.fileExists(atPath: folder.file("out")))
    }

    @Test func aShardOfASingleRenderIsRefused() throws {
        let (folder, _) = try makeInputs()
        let result = try aurender([folder.file("in/kick.wav"), folder.file("out.wav"), "--shard", "1/2"])
        #expect(result.status == 64)
        #expect(result.standardError.split(separator: "\n").first == "Error: --shard 1/2 applies to batches (-o FOLDER), not to a single render")
        #expect(!FileManager.default.fileExists(atPath: folder.file("out.wav")))
    }
}
