import AudioDSP
import AudioGraph
import AudioNodes
import Resampling
import AudioFormats

/// The resolved graph of a render, as `--dry-run` prints it: every node, every connection and
/// the stream format on each edge, decided before any audio is read.
///
/// A render is one or more branches (an input file and the nodes after it) and, for a mix, a
/// tail (the mixer and what follows it) that the branches feed, bus by bus.
public struct RenderPlan {
    /// One input and the nodes it flows through before the tail.
    public struct Branch {
        public let input: String
        public let file: any AudioDecoder
        public let chain: [AudioNode]
    }

    public let branches: [Branch]
    public let tail: [AudioNode]
    public let output: String
    public let outputType: AudioContainer
    public let outputEncoding: AudioEncoding
    public let dither: TPDFDither?

    /// One line per node and edge.
    public var text: String {
        var lines: [String] = []
        for (bus, branch) in branches.enumerated() {
            lines.append("input   \(branch.input): \(branch.file.container.name), \(branch.file.encoding.name), \(branch.file.format.canonical), decoded by \(branch.file.decoderName)")
            for node in branch.chain {
                lines.append("  --[\(Self.format(into: node))]--> \(node.name)\(node.planDetail.map { " (\($0))" } ?? "")")
            }
            if let mixer = tail.first {
                lines.append("  --[\(Self.format(into: mixer, bus: bus))]--> \(mixer.name) bus \(bus)")
            }
        }
        if let mixer = tail.first {
            lines.append("\(mixer.name)\(mixer.planDetail.map { " (\($0))" } ?? "")")
            for node in tail.dropFirst() {
                lines.append("  --[\(Self.format(into: node))]--> \(node.name)\(node.planDetail.map { " (\($0))" } ?? "")")
            }
        }
        lines.append("  --[\(Self.format(outOf: last))]--> output file")
        lines.append("output  \(output): \(outputType.name), \(outputEncoding.name)"
                     + (dither.map { ", TPDF dither (seed \($0.seed))" } ?? ""))
        return lines.joined(separator: "\n")
    }

    /// The graph in Graphviz's dot language.
    public var dot: String {
        var lines = ["digraph aurender {", "  rankdir=LR;", "  node [shape=box, fontname=\"sans-serif\"];"]
        for (index, branch) in branches.enumerated() {
            lines.append("  input\(index) [label=\(Self.quoted("\(branch.input)\n\(branch.file.encoding.name)")), shape=note];")
        }
        for node in branches.flatMap(\.chain) + tail {
            let label = node.name + (node.planDetail.map { "\n\($0)" } ?? "")
            lines.append("  \(Self.quoted(node.name)) [label=\(Self.quoted(label))];")
        }
        lines.append("  file [label=\(Self.quoted("\(output)\n\(outputEncoding.name)")), shape=note];")
        for (bus, branch) in branches.enumerated() {
            var previous = "input\(bus)"
            for node in branch.chain + tail.prefix(1) {
                let format = node === tail.first ? Self.format(into: node, bus: bus) : Self.format(into: node)
                let busLabel = node === tail.first ? " bus \(bus)" : ""
                lines.append("  \(previous) -> \(Self.quoted(node.name)) [label=\(Self.quoted(format + busLabel))];")
                previous = Self.quoted(node.name)
            }
        }
        var previous = tail.first.map { Self.quoted($0.name) }
        for node in tail.dropFirst() {
            lines.append("  \(previous!) -> \(Self.quoted(node.name)) [label=\(Self.quoted(Self.format(into: node)))];")
            previous = Self.quoted(node.name)
        }
        let end = previous ?? branches.last?.chain.last.map { Self.quoted($0.name) } ?? "input0"
        lines.append("  \(end) -> file [label=\(Self.quoted(Self.format(outOf: last)))];")
        lines.append("}")
        return lines.joined(separator: "\n")
    }

    private var last: AudioNode? { tail.last ?? branches.last?.chain.last }

    private static func format(into node: AudioNode, bus: Int = 0) -> String {
        node.streamFormat(scope: .input, bus: bus).map(\.description) ?? "?"
    }

    private static func format(outOf node: AudioNode?) -> String {
        node?.streamFormat(scope: .output).map(\.description) ?? "?"
    }

    static func quoted(_ text: String) -> String {
        "\"" + text.map { $0 == "\"" ? "\\\"" : $0 == "\n" ? "\\n" : String($0) }.joined() + "\""
    }
}
