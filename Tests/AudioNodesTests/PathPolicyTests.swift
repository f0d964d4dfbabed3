import AudioNodes
import Foundation
import TestSupport
import Testing

@Suite struct PathPolicyTests {
    /// A folder `root` with `root/inside` (the confined folder, holding `a.wav` and a link
    /// `out` to `root/outside`).
    struct Layout {
        let root: TemporaryFolder
        let real: String
        let policy: PathPolicy

        init() throws {
            root = try TemporaryFolder()
            real = URL(fileURLWithPath: root.path).resolvingSymlinksInPath().path
            for folder in ["inside", "outside"] { try FileManager.default.createDirectory(atPath: root.file(folder), withIntermediateDirectories: false) }
            try Data().write(to: URL(fileURLWithPath: root.file("inside/a.wav")))
            try FileManager.default.createSymbolicLink(atPath: root.file("inside/out"), withDestinationPath: "../outside")
            policy = .confined(to: root.file("inside"))
        }
    }

    @Test func pathsThatStayInsideResolveAgainstTheFolder() throws {
        let layout = try Layout()
        for path in ["a.wav", "new.wav", "./a.wav", "missing/../a.wav", layout.root.file("inside/a.wav"), "../inside/new.wav", "-"] {
            let expected = path.hasPrefix("/") || path == "-" ? path : layout.root.file("inside/" + path)
            #expect(try layout.policy.resolve(path, field: "path") == expected, "\(path)")
        }
    }

    @Test(arguments: [("../a.wav", "/a.wav"), ("out/x.wav", "/outside/x.wav"), ("out", "/outside"), ("missing/../../x", "/x"), ("../../../../../../..", "")])
    func pathsThatLeaveAreRefused(path: String, target: String) throws {
        let layout = try Layout()
        let expected = target.isEmpty ? "/" : layout.real + target
        #expect(throws: PathRefusal(field: "impulse", path: path, target: expected, folders: [layout.real + "/inside"])) {
            try layout.policy.resolve(path, field: "impulse")
        }
    }

    @Test func absolutePathsOutsideAreRefusedAndAllowedFoldersWiden() throws {
        let layout = try Layout()
        let outside = layout.root.file("outside/b.wav")
        #expect(throws: PathRefusal.self) { try layout.policy.resolve(outside, field: "path") }
        #expect(try PathPolicy.confined(to: layout.root.file("inside"), allowing: [layout.root.file("outside")]).resolve(outside, field: "path") == outside)
        #expect(try PathPolicy.confined(to: layout.root.file("inside"), allowing: ["/"]).resolve("/etc/hostname", field: "path") == "/etc/hostname")
        #expect(try PathPolicy.anywhere(relativeTo: layout.root.file("inside")).resolve("../outside/b.wav", field: "path")
                == layout.root.file("inside/../outside/b.wav"))
    }

    /// A kind's file setting is judged by the context's policy, and the refusal names the node.
    @Test func theCatalogueNamesTheNodeWhoseSettingLeaves() throws {
        let layout = try Layout()
        let context = NodeContext(sampleRate: 8000, findPreset: { name in throw PresetError(source: name, field: nil, problem: "none") },
                                  paths: layout.policy)
        let refusal = PathRefusal(node: "room", kind: "convolution", field: "impulse", path: "../ir.wav", target: layout.real + "/ir.wav",
                                  folders: [layout.real + "/inside"])
        #expect(throws: refusal) {
            try NodeCatalogue.make("room", kind: ConvolutionNode.kind, fields: ["impulse": .text("../ir.wav")], context: context)
        }
        #expect(refusal.description == "node 'room' (convolution): field 'impulse': '../ir.wav' leads to \(layout.real)/ir.wav, "
                + "which is outside the folders a graph may use (\(layout.real)/inside)")
    }
}
