import AudioFormats
import AudioNodes

extension RenderJob {
    /// The render as a graph file: a `file` node (with the rate and channels it is converted to,
    /// when they change) → the stages that make a node → the finishing limiter, as a `limiter`
    /// stage → an `output` node with its container, bits and encoder fields. `GraphJob` renders it to the same bytes, given the same
    /// `RenderSettings` (resampler, dither, clipping), which are not the graph's.
    ///
    /// What a graph file cannot state yet is refused, naming it: an excerpt, fades, loudness
    /// normalization, a headerless input, a channel matrix, a codec's bit depth, and
    /// nodes of a Swift program's own.
    public func graphDescription() throws -> GraphDescription {
        let unstated = [(options.excerpt != nil, "an excerpt"), (options.finishing.fadeIn > 0 || options.finishing.fadeOut > 0, "fades"),
                        (options.finishing.normalization != nil, "loudness normalization"),
                        (options.rawInput != nil, "a headerless input's format"), (options.channelMatrix != nil, "a channel matrix"),
                        (makeProcessing != nil, "nodes made by a closure")]
        if let what = unstated.first(where: \.0)?.1 { throw RenderError.usage("\(input): a graph file cannot state \(what) yet") }
        let prepared = try prepare(readingAhead: false, pass: RenderPass(gain: nil))
        let made = Set(prepared.branches.flatMap(\.chain).map(\.name))
        var file: [String: SettingValue] = ["path": .text(input)]
        if let rate = options.format.sampleRate { file["rate"] = .number(rate) }
        if let channels = options.format.channelCount { file["channels"] = .number(Double(channels)) }
        var stages = stages.filter { made.contains($0.name) }
        if let limiter = options.finishing.limiter {
            stages.append(ChainStage("limiter", name: Self.name("limiter", freeOf: stages),
                                     fields: ["ceiling": .number(limiter.ceiling), "release": .number(limiter.release),
                                              "lookahead": .number(limiter.lookahead)]))
        }
        let nodes = [GraphDescription.Node(name: "input", type: "file", fields: file)] + stages.map(\.node)
            + [GraphDescription.Node(name: "output", type: "output", fields: try outputFields())]
        return GraphDescription(nodes: nodes, connections: zip(nodes, nodes.dropFirst()).map { .init(from: $0.name, to: $1.name) })
    }

    /// The output node's fields: its path, and the container, bits and encoder settings chosen.
    private func outputFields() throws -> [String: SettingValue] {
        var fields: [String: SettingValue] = ["path": .text(output.path)]
        let choice = options.format
        var implied: AudioEncoding?
        if let container = choice.container {
            let names = ["wav", "wavex", "aiff", "au", "raw", "w64", "rf64", "flac", "caf", "ogg", "opus", "mp3", "m4a"]
            guard let name = names.first(where: { name in
                AudioContainer.named(name).map { $0.container == container && ($0.encoding == nil || $0.encoding == choice.encoding) } ?? false
            }) else { throw RenderError.usage("\(output.path): a graph file cannot state the container \(container.identifier) yet") }
            fields["container"] = .text(name)
            implied = AudioContainer.named(name)?.encoding
        }
        if let encoding = choice.encoding, encoding != implied {
            let bits = ["8", "16", "24", "32", "float", "double"]
            guard !choice.pinsBitDepth, let written = bits.first(where: { AudioEncoding.forBits($0) == encoding }) else {
                throw RenderError.usage("\(output.path): a graph file cannot state the encoding \(encoding.name) yet")
            }
            fields["bits"] = .text(written)
        }
        if let bitRate = choice.encoder.bitRate { fields["bitrate"] = .text(String(bitRate)) }
        if let quality = choice.encoder.quality { fields["quality"] = .number(quality) }
        return fields
    }
}
