import AudioDSP
import AudioGraph
import AudioNodes
import Resampling
import AudioFormats

/// Renders a `GraphDescription`: what `aurender render GRAPH.json` does.
///
/// Files whose rate differs from the graph's (the mixer's, else the first file's) get a
/// converter right after them, as do inputs with more channels than a mixer takes. Events
/// land on their exact frame: the render splits slices there.
public struct GraphJob {
    public var description: GraphDescription
    /// Where relative paths in the description are resolved (the graph file's folder).
    public var folder: String
    /// Dither, converter quality, clip policy and slice size (rate and channels come from the graph).
    public var options: RenderJob.Options
    /// Finds EQ presets by name or file.
    public var findPreset: (String) throws -> EQPreset

    public init(description: GraphDescription, folder: String, options: RenderJob.Options = RenderJob.Options(),
                findPreset: @escaping (String) throws -> EQPreset) {
        self.description = description
        self.folder = folder
        self.options = options
        self.findPreset = findPreset
    }

    /// One change to apply when the render reaches `frame`.
    struct ScheduledChange {
        let frame: Int64
        let node: AudioNode
        let parameter: ParameterID
        let value: Float
    }

    /// The initialized graph, and what a plan of it lists.
    private struct Built {
        let render: PreparedRender
        let nodes: [String: AudioNode]
        let order: [AudioNode]
        let files: [(name: String, path: String, file: any AudioDecoder)]
        let outputPath: String
        let changes: [ScheduledChange]
        let edges: [(from: String, to: String, bus: Int)]
    }

    /// The resolved graph, node by node and edge by edge, as text.
    public func plan() throws -> String {
        let built = try build(readingAhead: false)
        var lines: [String] = []
        for (name, path, file) in built.files {
            lines.append("file    \(name): \(path), \(file.container.name), \(file.encoding.name), \(file.format.canonical)")
        }
        for node in built.order {
            lines.append("node    \(node.name)" + (RenderPlan.detail(of: node).map { " (\($0))" } ?? ""))
        }
        for edge in built.edges {
            let format = built.nodes[edge.to]?.streamFormat(scope: .input, bus: edge.bus).map(\.description) ?? "?"
            lines.append("edge    \(edge.from) -> \(edge.to) bus \(edge.bus) [\(format)]")
        }
        lines.append("output  \(built.outputPath): \(built.render.type.name), \(built.render.encoding.name)"
                     + (built.render.dither.map { ", TPDF dither (seed \($0.seed))" } ?? ""))
        lines += built.changes.map { "event   frame \($0.frame): \($0.node.name) parameter \($0.parameter) = \($0.value)" }
        return lines.joined(separator: "\n")
    }

    /// The resolved graph in Graphviz's dot language.
    public func dot() throws -> String {
        let built = try build(readingAhead: false)
        var lines = ["digraph aurender {", "  rankdir=LR;", "  node [shape=box, fontname=\"sans-serif\"];"]
        for (name, path, file) in built.files {
            lines.append("  \(RenderPlan.quoted(name)) [label=\(RenderPlan.quoted("\(path)\n\(file.encoding.name)")), shape=note];")
        }
        for node in built.order {
            let label = node.name + (RenderPlan.detail(of: node).map { "\n\($0)" } ?? "")
            lines.append("  \(RenderPlan.quoted(node.name)) [label=\(RenderPlan.quoted(label))];")
        }
        for edge in built.edges {
            let format = built.nodes[edge.to]?.streamFormat(scope: .input, bus: edge.bus).map(\.description) ?? "?"
            lines.append("  \(RenderPlan.quoted(edge.from)) -> \(RenderPlan.quoted(edge.to)) [label=\(RenderPlan.quoted("bus \(edge.bus): \(format)"))];")
        }
        lines.append("  file [label=\(RenderPlan.quoted("\(built.outputPath)\n\(built.render.encoding.name)")), shape=note];")
        lines.append("  \(RenderPlan.quoted(built.render.outputNode.name)) -> file;")
        lines.append("}")
        return lines.joined(separator: "\n")
    }

    /// Renders, leaving either a complete output or none.
    public func run() throws -> RenderJob.Summary {
        let built = try build(readingAhead: true)
        options.progress?.expect(frames: built.render.expectedFrames, sampleRate: built.render.format.sampleRate)
        return try built.render.run(output: built.outputPath, options: options, changes: built.changes)
    }

    private func resolve(_ path: String) -> String {
        path.hasPrefix("/") || path == "-" ? path : folder + "/" + path
    }

    private func build(readingAhead: Bool) throws -> Built {
        let description = self.description
        var seen: Set<String> = []
        for node in description.nodes {
            guard seen.insert(node.name).inserted else { throw bad("two nodes are named '\(node.name)'; names must be unique") }
        }
        let byName = Dictionary(uniqueKeysWithValues: description.nodes.map { ($0.name, $0) })
        for (index, connection) in description.connections.enumerated() {
            for end in [connection.from, connection.to] where byName[end] == nil {
                throw bad("connection \(index + 1) (\(connection.from) -> \(connection.to)) names no node '\(end)'")
            }
            if byName[connection.to]?.type == .file { throw bad("connection \(index + 1): '\(connection.to)' is a file, which has no input") }
            if byName[connection.from]?.type == .output { throw bad("connection \(index + 1): '\(connection.from)' is the output, which feeds nothing") }
        }
        let outputs = description.nodes.filter { $0.type == .output }
        guard outputs.count == 1, let outputDescription = outputs.first else {
            throw bad(outputs.isEmpty ? "no node of type output" : "\(outputs.count) output nodes (\(outputs.map(\.name).joined(separator: ", "))); it needs exactly one")
        }
        guard let outputPath = outputDescription.path.map(resolve) else { throw bad("output '\(outputDescription.name)' needs a path") }

        // Files first: they decide the graph's rate.
        var files: [(name: String, path: String, file: any AudioDecoder)] = []
        for node in description.nodes where node.type == .file {
            guard let path = node.path.map(resolve) else { throw bad("file '\(node.name)' needs a path") }
            do throws(AudioFormatError) { files.append((node.name, path, try FormatRegistry.standard.openDecoder(path: path))) } catch { throw RenderError.input(error) }
        }
        guard !files.isEmpty else { throw bad("no node of type file") }
        try OutputRendering.refuseSameFile(inputs: files.map(\.path), output: outputPath)
        let mixerRate = description.nodes.first { $0.type == .mixer }?.rate
        let rate = mixerRate ?? files[0].file.format.sampleRate

        let graph = Graph()
        var nodes: [String: AudioNode] = [:]
        var order: [AudioNode] = []
        var edges: [(from: String, to: String, bus: Int)] = []
        var readers: [FileSource] = []
        var changes: [ScheduledChange] = []
        let outputNode = GenericOutput(name: outputDescription.name)
        do {
            try graph.setMaximumFramesPerSlice(options.framesPerSlice)
            for node in description.nodes {
                let made: AudioNode
                switch node.type {
                case .file: continue
                case .output: made = outputNode
                case .converter:
                    let quality = try node.quality.map { name in
                        guard let quality = ConverterQuality(name: name) else { throw bad("converter '\(node.name)': unknown quality '\(name)'") }
                        return quality
                    } ?? options.converterQuality
                    made = try FormatConverterNode(name: node.name, output: .canonical(sampleRate: node.rate ?? rate, channelCount: node.channels ?? 2),
                                                   quality: quality)
                case .eq:
                    guard let presetName = node.preset else { throw bad("eq '\(node.name)' needs a preset") }
                    var presets = [try findPreset(presetName)]
                    for event in description.events ?? [] where event.node == node.name {
                        if let name = event.preset { presets.append(try findPreset(name)) }
                    }
                    let mode = try node.mode.map { name in
                        guard let mode = GraphicEQDesign.Mode(rawValue: name) else { throw bad("eq '\(node.name)': mode must be accurate or classic") }
                        return mode
                    } ?? .accurate
                    let eq = try GraphicEQNode(name: node.name, presets: presets, mode: mode)
                    if let preamp = node.preamp { try eq.setParameter(GraphicEQNode.Parameter.preamp, Float(preamp)) }
                    made = eq
                case .mixer:
                    let busCount = max(node.buses?.count ?? 0, (description.connections.filter { $0.to == node.name }.map { ($0.bus ?? 0) + 1 }.max() ?? 0))
                    let mixer = try MixerNode(name: node.name, inputBusCount: busCount,
                                              output: .canonical(sampleRate: rate, channelCount: node.channels ?? 2))
                    try mixer.setParameter(MixerNode.masterVolume, Float(node.volume ?? 0))
                    for (bus, settings) in (node.buses ?? []).enumerated() {
                        try mixer.setParameter(MixerNode.id(.gain, bus: bus), Float(settings.gain ?? 0))
                        try mixer.setParameter(MixerNode.id(.pan, bus: bus), Float(settings.pan ?? 0))
                        try mixer.setParameter(MixerNode.id(.mute, bus: bus), settings.mute == true ? 1 : 0)
                        try mixer.setParameter(MixerNode.id(.enable, bus: bus), settings.enabled == false ? 0 : 1)
                        try mixer.setStartOffset(frames: Int64(((settings.start ?? 0) * rate).rounded()), bus: bus)
                    }
                    made = mixer
                }
                try graph.addNode(made)
                nodes[node.name] = made
                order.append(made)
            }
            for connection in description.connections {
                let bus = connection.bus ?? 0
                guard let destination = nodes[connection.to] else { continue }
                if let source = files.first(where: { $0.name == connection.from }) {
                    let reader = OutputRendering.makeReader(source.file, readingAhead: readingAhead)
                    readers.append(reader)
                    var conversion = RenderJob.Options()
                    conversion.sampleRate = rate
                    conversion.converterQuality = options.converterQuality
                    if destination is MixerNode, reader.format.channelCount > 2 {
                        conversion.channelCount = destination.streamFormat(scope: .output)?.channelCount
                    }
                    if let converter = try OutputRendering.makeConverter(from: reader.format, options: conversion,
                                                                          name: "\(source.name) converter") {
                        try graph.addNode(converter)
                        order.append(converter)
                        nodes[converter.name] = converter
                        try reader.attach(to: converter, in: graph)
                        try graph.connect(converter, to: destination, inputBus: bus)
                        edges.append((source.name, converter.name, 0))
                        edges.append((converter.name, connection.to, bus))
                    } else {
                        try reader.attach(to: destination, bus: bus, in: graph)
                        edges.append((source.name, connection.to, bus))
                    }
                } else if let source = nodes[connection.from] {
                    try graph.connect(source, to: destination, inputBus: bus)
                    edges.append((connection.from, connection.to, bus))
                }
            }
            try graph.initialize()
            changes = try scheduledChanges(nodes: nodes, rate: rate)
        } catch let error as GraphError {
            throw bad("\(error)")
        } catch let error as EqualizerError {
            throw bad("\(error)")
        }
        let format = outputNode.streamFormat(scope: .output) ?? .canonical(sampleRate: rate, channelCount: 2)
        var outputOptions = options
        if let container = outputDescription.container {
            guard let named = AudioContainer.named(container) else { throw bad("output '\(outputDescription.name)': unknown container '\(container)'") }
            outputOptions.outputType = named.container
            outputOptions.outputEncoding = named.encoding
        }
        if let bits = outputDescription.bits {
            guard let encoding = AudioEncoding.forBits(bits) else { throw bad("output '\(outputDescription.name)': bits must be 8, 16, 24, 32, float or double") }
            outputOptions.outputEncoding = encoding
        }
        let (type, encoding) = try OutputRendering.chooseOutputFormat(output: outputPath, options: outputOptions, input: files[0].file, format: format)
        let render = PreparedRender(
            branches: files.map { RenderPlan.Branch(input: $0.path, file: $0.file, chain: []) }, tail: order, readers: readers,
            graph: graph, outputNode: outputNode, format: format, type: type, encoding: encoding,
            dither: OutputRendering.dither(for: encoding, inputs: files.map(\.file.format),
                                           processed: OutputRendering.isProcessing(order), options: options))
        return Built(render: render, nodes: nodes, order: order, files: files, outputPath: outputPath, changes: changes, edges: edges)
    }

    /// The events as parameter changes at frames; a ramp becomes a change every 32 frames.
    private func scheduledChanges(nodes: [String: AudioNode], rate: Double) throws -> [ScheduledChange] {
        var changes: [ScheduledChange] = []
        var current: [String: Float] = [:]
        for (index, event) in (description.events ?? []).enumerated().sorted(by: { $0.element.at < $1.element.at }) {
            guard let node = nodes[event.node] else { throw bad("event \(index + 1) names no node '\(event.node)'") }
            let frame = Int64((event.at * rate).rounded())
            if let preset = event.preset {
                let name = try findPreset(preset).name
                guard let eq = node as? GraphicEQNode, let slot = eq.presets.lastIndex(where: { $0.name == name }) else {
                    throw bad("event \(index + 1): only an eq switches presets")
                }
                changes.append(ScheduledChange(frame: frame, node: node, parameter: GraphicEQNode.Parameter.preset, value: Float(slot)))
                continue
            }
            guard let name = event.parameter, let value = event.value else {
                throw bad("event \(index + 1) needs a preset, or a parameter and a value")
            }
            guard let description = node.parameterDescriptions.first(where: { $0.name == name }) else {
                let known = node.parameterDescriptions.map(\.name).joined(separator: ", ")
                throw bad("event \(index + 1): '\(event.node)' has no parameter '\(name)' (it has \(known))")
            }
            guard description.range.contains(Float(value)) else {
                throw bad("event \(index + 1): \(name) must be from \(description.range.lowerBound) to \(description.range.upperBound), not \(value)")
            }
            let key = "\(event.node)/\(name)"
            let from = current[key] ?? node.parameter(description.id)
            let steps = max(1, Int64(((event.ramp ?? 0) * rate / 32).rounded()))
            for step in 1...steps {
                let fraction = Float(step) / Float(steps)
                changes.append(ScheduledChange(frame: frame + (step - 1) * 32,
                                               node: node, parameter: description.id, value: from + (Float(value) - from) * fraction))
            }
            current[key] = Float(value)
        }
        return changes.sorted { $0.frame < $1.frame }
    }

    /// A usage error about the graph file.
    private func bad(_ message: String) -> RenderError { .usage("graph: " + message) }
}
