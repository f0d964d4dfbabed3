import Foundation
import TestSupport
import Testing

/// A graph file is data that may come from someone else: its paths lead only into its own
/// folder unless `--allow-path` allows another, and each way out is refused with one line
/// naming the node and the path, exit 64, nothing written.
@Suite struct GraphPathSandboxTests {
    /// A folder `root` holding `root/graphs/g.json`'s folder, the graph's input `in.wav` there,
    /// and `root/private/secret.wav` outside it.
    struct Layout {
        let root = try! TemporaryFolder()
        var real: String { URL(fileURLWithPath: root.path).resolvingSymlinksInPath().path }
        var graphs: String { root.file("graphs") }
        var graph: String { root.file("graphs/g.json") }

        init() throws {
            for folder in ["graphs", "private"] { try FileManager.default.createDirectory(atPath: root.file(folder), withIntermediateDirectories: true) }
            let tone = (0..<4_410).map { Float(sin(Double($0) * 0.05) * 0.25) }
            try writeFloats(tone, rate: 44_100, to: root.file("graphs/in.wav"))
            try writeFloats(tone.map { $0 * 0.5 }, rate: 44_100, to: root.file("private/secret.wav"))
            try writeFloats([0.5, 0.25, 0.125], rate: 44_100, to: root.file("private/ir.wav"))
        }

        /// Writes the graph `in` → the `middle` nodes in a chain → `out`, with the given input and output paths.
        func write(input: String = "in.wav", output: String = "out.wav", middle: [String] = []) throws {
            let names = middle.indices.map { "m\($0)" }
            let nodes = ["{\"name\": \"in\", \"type\": \"file\", \"path\": \"\(input)\"}"]
                + zip(names, middle).map { "{\"name\": \"\($0)\", \($1)}" }
                + ["{\"name\": \"out\", \"type\": \"output\", \"path\": \"\(output)\"}"]
            let chain = ["in"] + names + ["out"]
            let connections = zip(chain, chain.dropFirst()).map { "{\"from\": \"\($0)\", \"to\": \"\($1)\"}" }
            try Data("{\"nodes\": [\(nodes.joined(separator: ", "))], \"connections\": [\(connections.joined(separator: ", "))]}".utf8)
                .write(to: URL(fileURLWithPath: graph))
        }

        /// Expects the graph refused: exit 64, one line ending in `message`, no output anywhere.
        func expectRefused(_ arguments: [String] = [], _ message: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
            let result = try aurender([graph] + arguments)
            #expect(result.status == 64, "\(result.standardError)", sourceLocation: sourceLocation)
            #expect(result.standardError.hasSuffix(message + "; --allow-path DIR allows another folder\n"),
                    "\(result.standardError)", sourceLocation: sourceLocation)
            #expect(result.standardError.split(separator: "\n").count == 1, sourceLocation: sourceLocation)
            for written in ["graphs/out.wav", "x.wav", "private/x.wav"] {
                #expect(!FileManager.default.fileExists(atPath: root.file(written)), "\(written)", sourceLocation: sourceLocation)
            }
        }
    }

    @Test func anOutputThatClimbsOutOfTheGraphsFolderIsRefused() throws {
        let layout = try Layout()
        try layout.write(output: "../x.wav")
        try layout.expectRefused([], "graph: node 'out' (output): field 'path': '../x.wav' leads to \(layout.real)/x.wav, which is outside "
                                 + "the folders a graph may use (\(layout.real)/graphs)")
        try layout.expectRefused(["--dry-run"], "graph: node 'out' (output): field 'path': '../x.wav' leads to \(layout.real)/x.wav, "
                                 + "which is outside the folders a graph may use (\(layout.real)/graphs)")
    }

    @Test func anAbsoluteInputOutsideTheGraphsFolderIsRefused() throws {
        let layout = try Layout()
        let secret = layout.real + "/private/secret.wav"
        try layout.write(input: secret)
        try layout.expectRefused([], "graph: node 'in' (file): field 'path': '\(secret)' is outside the folders a graph may use (\(layout.real)/graphs)")
    }

    @Test func aSymbolicLinkThatLeadsOutIsRefused() throws {
        let layout = try Layout()
        try FileManager.default.createSymbolicLink(atPath: layout.root.file("graphs/linked.wav"), withDestinationPath: "../private/secret.wav")
        try layout.write(input: "linked.wav")
        try layout.expectRefused([], "graph: node 'in' (file): field 'path': 'linked.wav' leads to \(layout.real)/private/secret.wav, "
                                 + "which is outside the folders a graph may use (\(layout.real)/graphs)")
        try FileManager.default.createSymbolicLink(atPath: layout.root.file("graphs/away"), withDestinationPath: "../private")
        try layout.write(output: "away/x.wav")
        try layout.expectRefused([], "graph: node 'out' (output): field 'path': 'away/x.wav' leads to \(layout.real)/private/x.wav, "
                                 + "which is outside the folders a graph may use (\(layout.real)/graphs)")
    }

    /// Paths that stay inside, however they are written, render what the plain name renders.
    @Test func pathsThatStayInsideAreAllowed() throws {
        let layout = try Layout()
        try layout.write()
        #expect(try aurender([layout.graph]).status == 0)
        let plain = bytes(layout.root.file("graphs/out.wav"))
        #expect(plain != nil)
        try FileManager.default.createDirectory(atPath: layout.root.file("graphs/takes"), withIntermediateDirectories: false)
        try FileManager.default.createSymbolicLink(atPath: layout.root.file("graphs/takes/linked.wav"), withDestinationPath: "../in.wav")
        for (input, output) in [("takes/linked.wav", "takes/a.wav"), ("takes/../in.wav", "b.wav"), (layout.root.file("graphs/in.wav"), "takes/../c.wav")] {
            try layout.write(input: input, output: output)
            let result = try aurender([layout.graph])
            #expect(result.status == 0, "\(input): \(result.standardError)")
            #expect(bytes(layout.root.file("graphs/" + output)) == plain, "\(input) -> \(output)")
        }
    }

    /// Every setting that names a file is judged as a file node's path is.
    @Test(arguments: [
        ("\"type\": \"convolution\", \"impulse\": \"../private/ir.wav\"", "convolution", "impulse", "../private/ir.wav", "/private/ir.wav"),
        ("\"type\": \"eq\", \"preset\": \"../private/p.json\"", "eq", "preset", "../private/p.json", "/private/p.json"),
        ("\"type\": \"spatial\", \"rendering\": \"binaural\", \"sofa\": \"../private/h.sofa\"", "spatial", "sofa", "../private/h.sofa", "/private/h.sofa"),
        ("\"type\": \"voice\", \"echoReference\": \"../private/secret.wav\"", "voice", "echoReference", "../private/secret.wav", "/private/secret.wav"),
    ])
    func aNodesFileSettingThatLeadsOutIsRefused(node: String, kind: String, field: String, path: String, target: String) throws {
        let layout = try Layout()
        try layout.write(middle: [node])
        try layout.expectRefused([], "graph: node 'm0' (\(kind)): field '\(field)': '\(path)' leads to \(layout.real)\(target), "
                                 + "which is outside the folders a graph may use (\(layout.real)/graphs)")
    }

    @Test func allowPathWidensTheFolders() throws {
        let layout = try Layout()
        try layout.write(input: "../private/secret.wav", output: "../x.wav", middle: ["\"type\": \"convolution\", \"impulse\": \"../private/ir.wav\""])
        try layout.expectRefused(["--allow-path", layout.root.file("private")], "graph: node 'out' (output): field 'path': '../x.wav' leads to "
                                 + "\(layout.real)/x.wav, which is outside the folders a graph may use (\(layout.real)/graphs, \(layout.real)/private)")
        let result = try aurender([layout.graph, "--allow-path", layout.root.file("private"), "--allow-path", layout.root.path])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(try samples(of: layout.root.file("x.wav")).samples.count == 4_410 + 2)
    }

    @Test func allowPathIsRefusedWhereItDoesNotApply() throws {
        let layout = try Layout()
        try layout.write()
        let file = try aurender([layout.root.file("graphs/in.wav"), layout.root.file("graphs/out.wav"), "--allow-path", layout.root.path])
        #expect(file.status == 64)
        #expect(file.standardError.contains("--allow-path \(layout.root.path) applies to graph files, whose paths it allows"), "\(file.standardError)")
        let missing = try aurender([layout.graph, "--allow-path", layout.root.file("nowhere")])
        #expect(missing.status == 64)
        #expect(missing.standardError.contains("--allow-path \(layout.root.file("nowhere")): no such folder"), "\(missing.standardError)")
        #expect(!FileManager.default.fileExists(atPath: layout.root.file("graphs/out.wav")))
    }

    /// Files typed on the command line are the user's own choice: they may be anywhere.
    @Test func filesOnTheCommandLineStayAsTheyAre() throws {
        let layout = try Layout()
        let result = try aurender(["../private/secret.wav", "../x.wav", "--convolve", "../private/ir.wav"], in: layout.graphs)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(try samples(of: layout.root.file("x.wav")).samples.count >= 4_410)
    }
}
