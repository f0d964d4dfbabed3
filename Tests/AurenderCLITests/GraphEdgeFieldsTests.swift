import Foundation
import TestSupport
import Testing

/// A hand-written graph file's `file` node reads an excerpt of a file, a headerless file and
/// a channel matrix, and its `output` node fades, normalizes and limits, as the flags do for a
/// render; their mistakes are one line naming the node and the field, and the paths stay confined.
@Suite struct GraphEdgeFieldsTests {
    /// A folder with `steps.wav`: 2 s of float stereo at 44.1 kHz, the left channel 0.5 and the
    /// right 0.25, with the frame number's tenth of a second added to both (0, 0.01, … 0.19).
    static func folder() throws -> TemporaryFolder {
        let folder = try TemporaryFolder()
        let frames = 88_200
        let interleaved = (0..<frames).flatMap { frame -> [Float] in
            let step = Float(frame / 4410) / 100
            return [0.5 + step, 0.25 + step]
        }
        try writeFloats(interleaved, channels: 2, rate: 44_100, to: folder.file("steps.wav"))
        return folder
    }

    /// Writes a graph of one `file` node with `fileFields` straight into an `output` node with `outputFields`.
    static func graph(_ name: String, fileFields: String, outputFields: String = "", output: String = "out.wav",
                      in folder: TemporaryFolder) throws {
        try Data("""
            {"nodes": [{"name": "in", "type": "file", "path": "steps.wav"\(fileFields.isEmpty ? "" : ", " + fileFields)},
                       {"name": "out", "type": "output", "path": "\(output)", "bits": "float"\(outputFields.isEmpty ? "" : ", " + outputFields)}],
             "connections": [{"from": "in", "to": "out"}]}
            """.utf8).write(to: URL(fileURLWithPath: folder.file(name)))
    }

    @Test func aFileNodeReadsAnExcerptThroughItsMatrix() throws {
        let folder = try Self.folder()
        try Self.graph("g.json", fileFields: "\"start\": \"0.5s\", \"duration\": \"22050f\", \"matrix\": \"0,1;1,0\"", in: folder)
        let result = try aurender(["g.json"], in: folder.path)
        #expect(result.status == 0, "\(result.standardError)")
        let written = try samples(of: folder.file("out.wav")).samples
        #expect(written.count == 2 * 22_050, "half a second")
        #expect(written[0] == 0.25 + 0.05 && written[1] == 0.5 + 0.05, "from 0.5 s, the channels swapped")
        #expect(written[2 * 22_049] == 0.25 + 0.09 && written[2 * 22_049 + 1] == 0.5 + 0.09, "to 1 s")
    }

    @Test func anEndReadsUpToItAndAHeaderlessFileIsReadInItsStatedFormat() throws {
        let folder = try Self.folder()
        #expect(try aurender(["steps.wav", "steps.raw"], in: folder.path).status == 0)
        try Data("""
            {"nodes": [{"name": "in", "type": "file", "path": "steps.raw", "rawRate": 44100, "rawChannels": 2, "rawBits": "float",
                        "start": 1, "end": "1.5s"},
                       {"name": "out", "type": "output", "path": "out.wav", "bits": "float"}],
             "connections": [{"from": "in", "to": "out"}]}
            """.utf8).write(to: URL(fileURLWithPath: folder.file("raw.json")))
        let result = try aurender(["raw.json"], in: folder.path)
        #expect(result.status == 0, "\(result.standardError)")
        let written = try samples(of: folder.file("out.wav")).samples
        #expect(written.count == 2 * 22_050)
        #expect(written[0] == 0.5 + 0.1 && written[1] == 0.25 + 0.1)
    }

    @Test func anOutputNodeFadesAndNormalizesThePeak() throws {
        let folder = try Self.folder()
        try Self.graph("g.json", fileFields: "", outputFields: "\"fadeIn\": \"100ms\", \"fadeOut\": 1, \"normalize\": -6, \"measure\": \"samplePeak\"",
                       in: folder)
        let result = try aurender(["g.json"], in: folder.path)
        #expect(result.status == 0, "\(result.standardError)")
        let written = try samples(of: folder.file("out.wav")).samples
        #expect(written.count == 2 * 88_200)
        #expect(written[0] == 0 && written[1] == 0, "faded in from silence")
        #expect(written[2 * 88_199] == 0, "faded out to silence at the end")
        let peak = written.map(abs).max() ?? 0
        #expect(abs(20 * log10(peak) + 6) < 0.01, "the peak normalized to -6 dBFS, not \(20 * log10(peak))")
        let plan = try aurender(["g.json", "--dry-run"], in: folder.path)
        #expect(plan.output.contains("node    fade (fade in over 4410 frames, fade out over the last 44100 frames"), "\(plan.output)")
        #expect(plan.output.contains("node    normalize (to -6.0 dBFS"), "\(plan.output)")
        let report = try aurender(["g.json", "--json"], in: folder.path)
        #expect(report.status == 0, "\(report.standardError)")
        #expect(String(decoding: report.standardOutput, as: UTF8.self).contains("\"targetPeak\" : -6"), "the report names the target")
    }

    @Test func fadesAreRefusedWhereTheRateReachingTheOutputIsNotTheGraphs() throws {
        let folder = try Self.folder()
        try Data("""
            {"nodes": [{"name": "in", "type": "file", "path": "steps.wav"}, {"name": "up", "type": "converter", "rate": 48000},
                       {"name": "out", "type": "output", "path": "out.wav", "fadeIn": 1}],
             "connections": [{"from": "in", "to": "up"}, {"from": "up", "to": "out"}]}
            """.utf8).write(to: URL(fileURLWithPath: folder.file("g.json")))
        let result = try aurender(["g.json"], in: folder.path)
        #expect(result.status == 64)
        #expect(result.standardError.contains("graph: output 'out': its fades count at the graph's rate, 44100 Hz, but 48000 Hz reaches it"),
                "\(result.standardError)")
        #expect(!FileManager.default.fileExists(atPath: folder.file("out.wav")))
    }

    @Test(arguments: [
        ("\"start\": 1, \"duration\": 1, \"end\": 2", "", "graph: file 'in': give duration or end, not both"),
        ("\"rawRate\": 44100", "", "graph: file 'in': a headerless file needs rawRate, rawChannels and rawBits together"),
        ("\"matrix\": \"1,0,0\"", "", "graph: file 'in': matrix takes 3 channels, but "),
        ("\"matrix\": \"1,x\"", "", "graph: file 'in': matrix: "),
        ("\"start\": 3", "", "the excerpt starts at 3.0 s (132300 frames), at or past the input's end"),
        ("", "\"measure\": \"truePeak\"", "graph: output 'out': measure applies with normalize"),
        ("", "\"normalize\": -65, \"measure\": \"samplePeak\"", "graph: output 'out': normalize must be from -60 to 0 dBFS for samplePeak, not -65"),
        ("", "\"normalize\": -10, \"overCeiling\": \"limit\", \"limit\": -0.5", "graph: output 'out': limit -0.5 dBTP is above the truePeak ceiling -1.0 dBTP"),
    ] as [(String, String, String)])
    func aMistakeInTheEdgeFieldsNamesTheNodeAndWritesNothing(fileFields: String, outputFields: String, message: String) throws {
        let folder = try Self.folder()
        try Self.graph("g.json", fileFields: fileFields, outputFields: outputFields, in: folder)
        let result = try aurender(["g.json"], in: folder.path)
        #expect(result.status == 64, "\(result.standardError)")
        #expect(result.standardError.split(separator: "\n").count == 1 && result.standardError.contains(message), "\(result.standardError)")
        #expect(!FileManager.default.fileExists(atPath: folder.file("out.wav")))
    }

    @Test func aHeaderlessFileOutsideTheGraphsFolderIsRefused() throws {
        let folder = try Self.folder()
        try FileManager.default.createDirectory(atPath: folder.file("sub"), withIntermediateDirectories: true)
        #expect(try aurender(["steps.wav", "steps.raw"], in: folder.path).status == 0)
        try Data("""
            {"nodes": [{"name": "in", "type": "file", "path": "../steps.raw", "rawRate": 44100, "rawChannels": 2, "rawBits": "float", "start": 1},
                       {"name": "out", "type": "output", "path": "out.wav", "fadeIn": 1}],
             "connections": [{"from": "in", "to": "out"}]}
            """.utf8).write(to: URL(fileURLWithPath: folder.file("sub/g.json")))
        let result = try aurender(["sub/g.json"], in: folder.path)
        #expect(result.status == 64)
        #expect(result.standardError.contains("node 'in' (file): field 'path': '../steps.raw' leads to "), "\(result.standardError)")
        #expect(!FileManager.default.fileExists(atPath: folder.file("sub/out.wav")))
    }
}
