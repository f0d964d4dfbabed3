import Foundation
import TestSupport
import Testing

/// The command is a front door only: it parses, hints and prints. Checked on the sources, as
/// `ArchitectureTests` checks the layers: no file of `Sources/AurenderCLI` makes a node (the
/// catalogue's kinds make them from a chain's stages) or holds a loop over samples (the library's
/// `RenderComparison`, `countFramesToEnd` and jobs read audio).
@Suite struct FrontDoorTests {
    /// The command's Swift files, with their text.
    static func commandFiles() throws -> [(path: String, text: String)] {
        let root = packageRoot + "/Sources/AurenderCLI"
        let paths = FileManager.default.enumerator(atPath: root)?.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") }.sorted() ?? []
        return try paths.map { ("AurenderCLI/" + $0, try String(contentsOfFile: root + "/" + $0, encoding: .utf8)) }
    }

    /// The node types the library declares: `AudioNode` and every class below it, found in the sources.
    static func nodeTypes() throws -> Set<String> {
        var superclass: [String: String] = [:]
        let root = packageRoot + "/Sources"
        let declaration = try Regex(#"class\s+(\w+)(?:<[^>]*>)?\s*:\s*(\w+)"#)
        for path in FileManager.default.enumerator(atPath: root)?.compactMap({ $0 as? String }) ?? [] where path.hasSuffix(".swift") {
            for match in try String(contentsOfFile: root + "/" + path, encoding: .utf8).matches(of: declaration) {
                superclass[String(match.output[1].substring!)] = String(match.output[2].substring!)
            }
        }
        func isNode(_ name: String, _ depth: Int = 0) -> Bool {
            name == "AudioNode" || (depth < 10 && superclass[name].map { isNode($0, depth + 1) } == true)
        }
        return Set(superclass.keys.filter { isNode($0) } + ["AudioNode"])
    }

    /// What makes a node in `text`: a node type's initializer, the catalogue's `make`, or a `makeNode`.
    static func nodesMade(in text: String, types: Set<String>) -> [String] {
        let code = text.split(separator: "\n").filter { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("//") }.joined(separator: "\n")
        let makers = types.map { "\($0)(" } + types.map { "\($0).init(" } + ["NodeCatalogue.make(", ".makeNode("]
        return makers.filter { maker in
            code.ranges(of: maker).contains { range in
                range.lowerBound == code.startIndex || !(code[code.index(before: range.lowerBound)].isLetter || code[code.index(before: range.lowerBound)].isNumber)
                    || maker.hasPrefix(".")
            }
        }
    }

    /// What reads samples in `text`: a decoder's `read(into:)` or a buffer of samples.
    static func sampleLoops(in text: String) -> [String] {
        ["read(into:", "[Float](repeating:", "[Int16](repeating:"].filter { text.contains($0) }
    }

    @Test func theLibraryDeclaresTheNodeTypesTheRuleLooksFor() throws {
        let types = try Self.nodeTypes()
        for name in ["GraphicEQNode", "FilterNode", "GateNode", "ReverbNode", "SpatialNode", "PluginNode", "GenericOutput", "VoiceNode"] {
            #expect(types.contains(name), "\(name) is a node type")
        }
        #expect(Self.nodesMade(in: "let eq = try GraphicEQNode(presets: [rock])", types: types) == ["GraphicEQNode("])
        #expect(Self.nodesMade(in: "let node = try NodeCatalogue.make(name, kind: kind, fields: [:], context: context)", types: types)
                == ["NodeCatalogue.make("])
        #expect(Self.nodesMade(in: "let spec = try PluginSpec(parsing: text)", types: types).isEmpty)
        #expect(Self.sampleLoops(in: "let got = try file.read(into: buffer, frames: 64)") == ["read(into:"])
    }

    @Test func noFileOfTheCommandMakesANode() throws {
        let types = try Self.nodeTypes()
        for (path, text) in try Self.commandFiles() {
            #expect(Self.nodesMade(in: text, types: types).isEmpty, "\(path) makes a node: \(Self.nodesMade(in: text, types: types))")
        }
    }

    @Test func noFileOfTheCommandHoldsASampleLoop() throws {
        for (path, text) in try Self.commandFiles() {
            #expect(Self.sampleLoops(in: text).isEmpty, "\(path) reads samples: \(Self.sampleLoops(in: text))")
        }
    }
}
