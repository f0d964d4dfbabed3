import AudioFormats
import AudioNodes

extension RenderJob {
    /// The render as a graph file: a `file` node (with the rate, channels and channel matrix it is
    /// converted by, a headerless file's format and the excerpt read) → the stages that make a
    /// node → an `output` node with its container, bits, codec and encoder fields and the
    /// finishing: fades, loudness normalization and the last limiter. `GraphJob` renders it to the
    /// same bytes, given the same `RenderSettings` (resampler, dither, clipping), which are not the graph's.
    ///
    /// What a graph file cannot state yet is refused, naming it: nodes of a Swift program's own,
    /// a headerless input of an encoding other than PCM or float, a last limiter's own release or
    /// lookahead, a normalization's ceiling that the graph's defaults would change, and a `bext`
    /// coding history line for the render.
    public func graphDescription() throws -> GraphDescription {
        if makeProcessing != nil { throw RenderError.usage("\(input): a graph file cannot state nodes made by a closure yet") }
        if options.settings.tags.codingHistory != nil {
            throw RenderError.usage("\(output.path): a graph file cannot state a bext coding history line for the render yet")
        }
        let prepared = try prepare(readingAhead: false, pass: RenderPass(gain: nil))
        let made = Set(prepared.branches.flatMap(\.chain).map(\.name))
        let nodes = [GraphDescription.Node(name: "input", type: "file", fields: try fileFields())] + stages.filter { made.contains($0.name) }.map(\.node)
            + [GraphDescription.Node(name: "output", type: "output", fields: try outputFields().merging(try finishingFields()) { $1 })]
        return GraphDescription(nodes: nodes, connections: zip(nodes, nodes.dropFirst()).map { .init(from: $0.name, to: $1.name) })
    }

    /// The file node's fields: its path, the rate, channels and matrix it is converted to, a
    /// headerless file's format, and the excerpt read.
    private func fileFields() throws -> [String: SettingValue] {
        var fields: [String: SettingValue] = ["path": .text(input)]
        if let rate = options.format.sampleRate { fields["rate"] = .number(rate) }
        if let channels = options.format.channelCount { fields["channels"] = .number(Double(channels)) }
        if let matrix = options.channelMatrix { fields["matrix"] = .text(matrix.description) }
        if let raw = options.rawInput {
            guard let bits = Self.bitsNames.first(where: { AudioEncoding.forBits($0) == raw.encoding }) else {
                throw RenderError.usage("\(input): a graph file cannot state a headerless input of \(raw.encoding.name) yet")
            }
            fields["rawRate"] = .number(Double(raw.sampleRate))
            fields["rawChannels"] = .number(Double(raw.channelCount))
            fields["rawBits"] = .text(bits)
        }
        if let excerpt = options.excerpt {
            fields["start"] = ChainStage.field(excerpt.start)
            switch excerpt.end {
            case .duration(let duration)?: fields["duration"] = ChainStage.field(duration)
            case .at(let end)?: fields["end"] = ChainStage.field(end)
            case nil: break
            }
        }
        return fields
    }

    /// The output node's finishing fields: fades in seconds, the normalization's target, measure,
    /// ceiling and policy, and the last limiter's ceiling.
    private func finishingFields() throws -> [String: SettingValue] {
        let finishing = options.finishing
        var fields: [String: SettingValue] = [:]
        if finishing.fadeIn > 0 { fields["fadeIn"] = .number(finishing.fadeIn) }
        if finishing.fadeOut > 0 { fields["fadeOut"] = .number(finishing.fadeOut) }
        if let normalization = finishing.normalization {
            let measures: [LoudnessNormalization.Measure: String] = [.integratedLoudness: "loudness", .samplePeak: "samplePeak", .truePeak: "truePeak"]
            fields["normalize"] = .number(normalization.target)
            if normalization.measure != .integratedLoudness { fields["measure"] = .text(measures[normalization.measure]!) }
            switch (normalization.measure, normalization.truePeakCeiling.isFinite) {
            case (.truePeak, true), (.integratedLoudness, false):
                throw RenderError.usage("\(input): a graph file cannot state this normalization's true-peak ceiling yet")
            case (_, false): break
            case (_, true): fields["truePeak"] = .number(normalization.truePeakCeiling)
            }
            if normalization.overCeiling != .refuse { fields["overCeiling"] = .text(normalization.overCeiling.rawValue) }
        }
        if let limiter = finishing.finalLimiter {
            guard limiter.release == LimiterSettings(ceiling: 0).release, limiter.lookahead == LimiterSettings(ceiling: 0).lookahead else {
                throw RenderError.usage("\(input): a graph file cannot state a last limiter's own release or lookahead yet")
            }
            if finishing.limiter != nil { fields["limit"] = .number(limiter.ceiling) }
        }
        return fields
    }

    /// The names a graph file gives sample encodings (`bits`, `rawBits`).
    private static let bitsNames = ["8", "16", "24", "32", "float", "double"]

    /// The output node's fields: its path, and the container, bits and encoder settings chosen.
    private func outputFields() throws -> [String: SettingValue] {
        var fields: [String: SettingValue] = ["path": .text(output.path)]
        let choice = options.format
        var implied: AudioEncoding?
        let codec = choice.encoding.flatMap { [AudioEncoding.aac, .alac, .alac24].contains($0) ? $0 : nil }
        if let container = choice.container {
            let names = ["wav", "wavex", "aiff", "au", "raw", "w64", "rf64", "flac", "caf", "ogg", "opus", "mp3", "m4a"]
            guard let name = names.first(where: { name in
                AudioContainer.named(name).map { named in
                    named.container == container && (named.encoding == nil || named.encoding == choice.encoding || (codec != nil && named.encoding == .aac))
                } ?? false
            }) else { throw RenderError.usage("\(output.path): a graph file cannot state the container \(container.identifier) yet") }
            fields["container"] = .text(name)
            implied = AudioContainer.named(name)?.encoding
        }
        if let codec {
            fields["codec"] = .text(codec == .aac ? "aac" : "alac")
            if choice.pinsBitDepth { fields["bits"] = .text(codec == .alac24 ? "24" : "16") }
        } else if let encoding = choice.encoding, encoding != implied {
            guard !choice.pinsBitDepth, let written = Self.bitsNames.first(where: { AudioEncoding.forBits($0) == encoding }) else {
                throw RenderError.usage("\(output.path): a graph file cannot state the encoding \(encoding.name) yet")
            }
            fields["bits"] = .text(written)
        }
        if let bitRate = choice.encoder.bitRate { fields["bitrate"] = .text(String(bitRate)) }
        if let quality = choice.encoder.quality { fields["quality"] = .number(quality) }
        return fields
    }
}
