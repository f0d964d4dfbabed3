import AudioDSP
import AudioGraph
import AudioNodes
import Resampling
import SoundFile

/// The resolved graph of a render, as `--dry-run` prints it: every node, every connection and
/// the stream format on each edge, decided before any audio is read.
public struct RenderPlan {
    public let input: String
    public let inputFile: SoundFileReader
    public let chain: [AudioNode]
    public let output: String
    public let outputType: SoundFileType
    public let outputEncoding: SoundFileEncoding
    public let dither: TPDFDither?

    /// One line per node and edge.
    public var text: String {
        var lines = ["input   \(input): \(inputFile.type.name), \(inputFile.encoding.name), \(inputFile.format.canonical)"]
        for node in chain {
            let format = node.streamFormat(scope: .input).map(\.description) ?? "?"
            lines.append("  --[\(format)]--> \(node.name)\(Self.detail(of: node).map { " (\($0))" } ?? "")")
        }
        let final = chain.last?.streamFormat(scope: .output).map(\.description) ?? "?"
        lines.append("  --[\(final)]--> output file")
        lines.append("output  \(output): \(outputType.name), \(outputEncoding.name)"
                     + (dither.map { ", TPDF dither (seed \($0.seed))" } ?? ""))
        return lines.joined(separator: "\n")
    }

    /// The graph in Graphviz's dot language.
    public var dot: String {
        var lines = ["digraph aurender {", "  rankdir=LR;", "  node [shape=box, fontname=\"sans-serif\"];"]
        lines.append("  input [label=\(Self.quoted("\(input)\n\(inputFile.encoding.name)")), shape=note];")
        for node in chain {
            let label = node.name + (Self.detail(of: node).map { "\n\($0)" } ?? "")
            lines.append("  \(Self.quoted(node.name)) [label=\(Self.quoted(label))];")
        }
        lines.append("  file [label=\(Self.quoted("\(output)\n\(outputEncoding.name)")), shape=note];")
        var previous = "input"
        for node in chain {
            let format = node.streamFormat(scope: .input).map(\.description) ?? "?"
            lines.append("  \(previous) -> \(Self.quoted(node.name)) [label=\(Self.quoted(format))];")
            previous = Self.quoted(node.name)
        }
        let final = chain.last?.streamFormat(scope: .output).map(\.description) ?? "?"
        lines.append("  \(previous) -> file [label=\(Self.quoted(final))];")
        lines.append("}")
        return lines.joined(separator: "\n")
    }

    /// What is worth saying about a node beyond its formats.
    private static func detail(of node: AudioNode) -> String? {
        switch node {
        case let converter as FormatConverterNode:
            var parts: [String] = []
            if converter.resamples { parts.append("libsamplerate \(converter.quality.name)") }
            if let matrix = converter.matrix { parts.append("channel matrix \(matrix)") }
            return parts.isEmpty ? "pass-through" : parts.joined(separator: ", ")
        case let eq as GraphicEQNode:
            let omitted = eq.omittedBands.map { "\(Int($0.frequency)) Hz" }
            return "preset '\(eq.currentPreset.name)', \(eq.mode.rawValue)"
                + (omitted.isEmpty ? "" : ", bands left out above 0.45 × rate: \(omitted.joined(separator: ", "))")
        default:
            return nil
        }
    }

    private static func quoted(_ text: String) -> String {
        "\"" + text.replacingQuotesAndBreaks() + "\""
    }
}

extension String {
    fileprivate func replacingQuotesAndBreaks() -> String {
        map { $0 == "\"" ? "\\\"" : $0 == "\n" ? "\\n" : String($0) }.joined()
    }
}
