import AudioDSP
import AudioFiles
import AudioGraph
import AudioNodes
import AudioFormats
import PluginHost

/// Renders a `GraphDescription`: what `aurender render GRAPH.json` does.
///
/// Every node is made through `NodeCatalogue` from its kind's description. Files whose rate
/// differs from the graph's (the first mixer's, else the first file's) get a converter right
/// after them (their channel `matrix` too), as do inputs with more channels than a mixer takes;
/// a file node may read an excerpt or a headerless file (`GraphJob+EdgeFields.swift`). The output
/// node's fades, normalization and limiter come between it and what feeds it, as a render's
/// finishing does. Events land on their exact frame: the render splits slices there.
public struct GraphJob {
    public var description: GraphDescription
    /// Where the description's paths lead: relative to the graph file's folder, and confined to
    /// it and the folders the user allows, since a graph file is data that may come from anyone.
    public var paths: PathPolicy
    /// Where relative paths in the description are resolved (the graph file's folder).
    public var folder: String { paths.folder }
    /// Resampling, dither, clip policy, slice size and progress: what a graph does not state
    /// itself (its nodes set rates, channels and the output's format).
    public var options: RenderSettings
    /// Finds the EQ presets the graph names (preset files are judged by `paths`).
    public var presets: PresetLookup
    /// The graph's files, opened once and shared by the job's copies (its plan and its run).
    private let opened = OpenedInputs()

    /// A job whose paths are relative to `folder` and may lead only into it or into one of
    /// `allowedFolders`; set `paths` to `.anywhere(relativeTo:)` for a description you trust.
    public init(description: GraphDescription, folder: String, allowing allowedFolders: [String] = [],
                options: RenderSettings = RenderSettings(), presets: PresetLookup) {
        self.description = description
        paths = .confined(to: folder, allowing: allowedFolders)
        self.options = options
        self.presets = presets
    }

    /// The initialized graph, and what a plan of it lists.
    private struct Built {
        let render: PreparedRender
        let nodes: [String: AudioNode]
        let order: [AudioNode]
        let files: [(name: String, path: String, file: any AudioDecoder)]
        let outputPath: OutputDestination
        let eventLines: [String]
        let edges: [(from: String, to: String, bus: Int)]
    }

    /// The resolved graph, node by node and edge by edge, as text; events one line each.
    public func plan() throws -> String {
        let built = try build(readingAhead: false, pass: RenderPass(gain: PreparedRender.plannedGain(try outputNormalization())))
        var lines: [String] = []
        for (name, path, file) in built.files {
            lines.append("file    \(name): \(path), \(file.container.name), \(file.encoding.name), \(file.format.canonical), decoded by \(file.decoderName)")
        }
        for node in built.order {
            lines.append("node    \(node.name)" + (node.planDetail.map { " (\($0))" } ?? ""))
        }
        for edge in built.edges {
            let format = built.nodes[edge.to]?.streamFormat(scope: .input, bus: edge.bus).map(\.description) ?? "?"
            lines.append("edge    \(edge.from) -> \(edge.to) bus \(edge.bus) [\(format)]")
        }
        lines.append("output  \(built.outputPath): \(built.render.type.name), \(built.render.encoding.name)"
                     + (built.render.dither.map { ", TPDF dither (seed \($0.seed))" } ?? ""))
        lines += built.eventLines
        return lines.joined(separator: "\n")
    }

    /// The resolved graph in Graphviz's dot language.
    public func dot() throws -> String {
        let built = try build(readingAhead: false, pass: RenderPass(gain: PreparedRender.plannedGain(try outputNormalization())))
        var lines = ["digraph aurender {", "  rankdir=LR;", "  node [shape=box, fontname=\"sans-serif\"];"]
        for (name, path, file) in built.files {
            lines.append("  \(RenderPlan.quoted(name)) [label=\(RenderPlan.quoted("\(path)\n\(file.encoding.name)")), shape=note];")
        }
        for node in built.order {
            let label = node.name + (node.planDetail.map { "\n\($0)" } ?? "")
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

    /// Renders, leaving either a complete output or none. A graph with `silence` nodes is
    /// rendered first to measure where its audio lies, then again trimmed; one whose output
    /// normalizes is measured, then rendered again with the gain, as a render is. A graph of one file
    /// carries that file's tags and pictures, as a render of the file does (so a plan renders the
    /// same bytes); a graph of several carries none, as a mix does. Settings that set, take or
    /// leave out tags are not stated by graph files yet, so they are refused.
    public func run() throws -> RenderJob.Summary {
        let output = try outputNode(of: try checkedNodes()).destination
        let normalization = try outputNormalization()
        guard options.tags.isDefault else { throw RenderError.usage("\(output.path): a graph file's output carries no tags yet, so none can be set, taken or left out") }
        let inputs = inputPaths
        var summary = try PreparedRender.render(output: output, settings: options, normalization: normalization, inputs: inputs, subject: output.path,
                                                metadata: { try .resolving(options.tags, input: inputs.count == 1 ? inputs[0] : nil,
                                                                           leveled: options.replayGain != nil
                                                                               || description.nodes.contains { $0.type == FileSourceKind.kind.name && $0.fields["replaygain"] != nil }) }) { pass in
            try build(readingAhead: true, pass: pass).render
        }
        summary.shortfalls = opened.shortfalls
        summary.replayGains = opened.appliedReplayGains
        return summary
    }

    /// The loudness normalization the output node asks for (`normalize`), if any.
    public func outputNormalization() throws -> LoudnessNormalization? {
        let entry = try outputNode(of: try checkedNodes()).entry
        return try normalization(entry.settings, output: entry.node.name)
    }

    /// The files the graph reads, resolved against its folder.
    public var inputPaths: [String] {
        description.nodes.compactMap { node in
            guard NodeCatalogue.kind(named: node.type)?.role == .source, case .text(let path)? = node.fields["path"] else { return nil }
            return resolve(path)
        }
    }

    /// Where the graph's output node writes, resolved against its folder.
    public var outputDestination: OutputDestination {
        get throws {
            let outputs = description.nodes.filter { NodeCatalogue.kind(named: $0.type)?.role == .output }
            guard outputs.count == 1, case .text(let path)? = outputs[0].fields["path"] else {
                throw bad("the graph needs exactly one output node with a path")
            }
            return OutputDestination(resolve(path))
        }
    }

    private func resolve(_ path: String) -> String {
        paths.located(path)
    }

    /// The preset `name` names, a preset file only where `paths` allows it.
    private func findPreset(_ name: String) throws -> EQPreset {
        try presets.preset(named: PresetLookup.namesAFile(name) ? paths.resolve(name, field: "preset") : name)
    }

    /// The graph's nodes with their kinds, checked for unique names and sound connections.
    private func checkedNodes() throws -> [(node: GraphDescription.Node, kind: NodeKind, settings: NodeSettings)] {
        var seen: Set<String> = []
        var checked: [(node: GraphDescription.Node, kind: NodeKind, settings: NodeSettings)] = []
        for node in description.nodes {
            guard seen.insert(node.name).inserted else { throw bad("two nodes are named '\(node.name)'; names must be unique") }
            guard let kind = NodeCatalogue.kind(named: node.type) else {
                throw bad("node '\(node.name)': unknown kind '\(node.type)' (it is one of \(NodeCatalogue.kindNames.joined(separator: ", ")))")
            }
            do { checked.append((node, kind, try NodeCatalogue.check(node.fields, node: node.name, kind: kind).settings)) } catch { throw bad("\(error)") }
        }
        for entry in checked where entry.kind.role != .processor {
            guard let path = entry.settings.text("path") else { continue }
            do { _ = try paths.resolve(path, field: "path") } catch {
                throw RenderError.pathRefused(subject: "graph", error.naming(entry.node.name, kind: entry.kind.name))
            }
        }
        let roles = Dictionary(uniqueKeysWithValues: checked.map { ($0.node.name, $0.kind.role) })
        for (index, connection) in description.connections.enumerated() {
            for end in [connection.from, connection.to] where roles[end] == nil {
                throw bad("connection \(index + 1) (\(connection.from) -> \(connection.to)) names no node '\(end)'")
            }
            if roles[connection.to] == .source { throw bad("connection \(index + 1): '\(connection.to)' is a file, which has no input") }
            if roles[connection.from] == .output { throw bad("connection \(index + 1): '\(connection.from)' is the output, which feeds nothing") }
        }
        return checked
    }

    /// The graph's one output node and where it writes; an error unless there is exactly one.
    private func outputNode(of checked: [(node: GraphDescription.Node, kind: NodeKind, settings: NodeSettings)]) throws
        -> (entry: (node: GraphDescription.Node, kind: NodeKind, settings: NodeSettings), destination: OutputDestination) {
        let outputs = checked.filter { $0.kind.role == .output }
        guard outputs.count == 1, let entry = outputs.first else {
            throw bad(outputs.isEmpty ? "no node of type output"
                      : "\(outputs.count) output nodes (\(outputs.map(\.node.name).joined(separator: ", "))); it needs exactly one")
        }
        return (entry, OutputDestination(resolve(entry.settings.text("path")!)))
    }

    /// Builds and initializes the graph for `pass`: its silence nodes measure in the first.
    private func build(readingAhead: Bool, pass: RenderPass = RenderPass()) throws -> Built {
        let checked = try checkedNodes()
        let (outputEntry, outputPath) = try outputNode(of: checked)

        // Files first: they decide the graph's rate.
        var files: [(name: String, path: String, file: any AudioDecoder)] = []
        var conversions: [String: (rate: Double?, channels: Int?, matrix: ChannelMatrix?)] = [:]
        var playbacks: [String: ReplayGainPlayback] = [:]
        for (index, entry) in checked.filter({ $0.kind.role == .source }).enumerated() {
            let path = resolve(entry.settings.text("path")!)
            let reading = try fileReading(entry.settings, node: entry.node.name)
            conversions[entry.node.name] = (entry.settings.number("rate"), entry.settings.integer("channels"), reading.matrix)
            playbacks[entry.node.name] = playback(entry.settings)
            let whole = try opened.decoder(index, for: path, raw: reading.raw, forcing: options.decoder, salvaging: options.salvage)
            if let matrix = reading.matrix, matrix.inputCount != whole.format.channelCount {
                throw bad("file '\(entry.node.name)': matrix takes \(matrix.inputCount) channels, but \(path) has \(whole.format.channelCount)")
            }
            let file = try reading.excerpt.map { (excerpt) throws(RenderError) in try ExcerptDecoder(whole, excerpt: excerpt) } ?? whole
            files.append((entry.node.name, path, file))
        }
        guard !files.isEmpty else { throw bad("no node of type file") }
        try OutputRendering.refuseSameFile(inputs: files.map(\.path), output: outputPath)
        let mixerRate = checked.first { $0.kind.name == MixerNode.kind.name }?.settings.number("rate")
        let rate = mixerRate ?? conversions[files[0].name]?.rate ?? files[0].file.format.sampleRate
        let ending = try finishing(outputEntry.settings, output: outputEntry.node.name, rate: rate)

        let graph = Graph()
        var nodes: [String: AudioNode] = [:]
        var order: [AudioNode] = []
        var edges: [(from: String, to: String, bus: Int)] = []
        var readers: [OutputRendering.InputReader] = []
        var eventLines: [String] = []
        var outputNode: GenericOutput?
        do {
            try graph.setMaximumFramesPerSlice(options.framesPerSlice)
            for entry in checked where entry.kind.role != .source {
                let made = try makeNode(entry.node, kind: entry.kind, rate: rate)
                try pass.prepare([made])
                if entry.kind.role == .output { outputNode = made as? GenericOutput }
                try graph.addNode(made)
                nodes[entry.node.name] = made
                order.append(made)
            }
            // The output's finishing, between what feeds it and it: fades, normalize's gain, the limiter.
            let finishingNodes = try OutputRendering.makeFades(ending, sampleRate: rate, totalFrames: nil, tails: OutputRendering.hasTail(order),
                                                               input: outputPath.path, findingTheEnd: true)
                + [pass.gain].compactMap { $0 } + [try ending.makeLimiter(name: "\(outputEntry.node.name) limiter")].compactMap { $0 }
            for node in finishingNodes {
                try graph.addNode(node)
                order.append(node)
            }
            for connection in description.connections {
                let bus = connection.bus ?? 0
                let finishes = connection.to == outputEntry.node.name ? finishingNodes.first : nil
                guard let destination = finishes ?? nodes[connection.to] else { continue }
                let destinationName = finishes?.name ?? connection.to
                if let source = files.first(where: { $0.name == connection.from }) {
                    let reading = OutputRendering.makeReader(source.file, input: source.path, readingAhead: readingAhead, settings: options)
                    readers.append(reading)
                    let reader = reading.source
                    let folds = destination is MixerNode && reader.format.channelCount > 2
                    let conversion = conversions[source.name]
                    // The file's own nodes, in order: its stored gain (--replaygain), its converter.
                    var own: [AudioNode] = []
                    if let playback = playbacks[source.name], let index = files.firstIndex(where: { $0.name == source.name }) {
                        own.append(try opened.replayGain(index, for: source.path, playback).makeNode(name: "\(source.name) replaygain"))
                    }
                    if let converter = try OutputRendering.makeConverter(from: reader.format, sampleRate: conversion?.rate ?? rate,
                                                                          channelCount: conversion?.channels
                                                                              ?? (folds ? destination.streamFormat(scope: .output)?.channelCount : nil),
                                                                          matrix: conversion?.matrix, settings: options,
                                                                          name: "\(source.name) converter") {
                        own.append(converter)
                    }
                    if let first = own.first, let last = own.last {
                        for node in own {
                            try graph.addNode(node)
                            order.append(node)
                            nodes[node.name] = node
                        }
                        try reader.attach(to: first, in: graph)
                        edges.append((source.name, first.name, 0))
                        for (from, to) in zip(own, own.dropFirst()) {
                            try graph.connect(from, to: to)
                            edges.append((from.name, to.name, 0))
                        }
                        try graph.connect(last, to: destination, inputBus: bus)
                        edges.append((last.name, destinationName, bus))
                    } else {
                        try reader.attach(to: destination, bus: bus, in: graph)
                        edges.append((source.name, destinationName, bus))
                    }
                } else if let source = nodes[connection.from] {
                    try graph.connect(source, to: destination, inputBus: bus)
                    edges.append((connection.from, destinationName, bus))
                }
            }
            if let outputNode {
                for (source, destination) in zip(finishingNodes, Array(finishingNodes.dropFirst()) + [outputNode as AudioNode]) {
                    try graph.connect(source, to: destination)
                    edges.append((source.name, destination.name, 0))
                    nodes[source.name] = source
                }
            }
            try graph.initialize()
            if ending.fadeIn > 0 || ending.fadeOut > 0, let reaching = outputNode?.streamFormat(scope: .input)?.sampleRate, reaching != rate {
                throw bad("output '\(outputEntry.node.name)': its fades count at the graph's rate, \(Int(rate)) Hz, "
                          + "but \(Int(reaching)) Hz reaches it; convert the rate in a file node instead")
            }
            eventLines = try scheduleEvents(on: graph, nodes: nodes, rate: rate)
        } catch let error as GraphError {
            throw bad("\(error)")
        } catch let error as EqualizerError {
            throw bad("\(error)")
        } catch let error as FilterError {
            throw bad("\(error)")
        } catch let error as NodeSettingError {
            throw bad("\(error)")
        } catch let error as PresetLookupError {
            throw bad("\(error)")
        } catch let error as PluginError {
            throw bad("\(error)")
        } catch let refusal as PathRefusal {
            throw RenderError.pathRefused(subject: "graph", refusal)
        }
        guard let outputNode else { throw bad("output '\(outputEntry.node.name)' is not a generic output") }
        let format = outputNode.streamFormat(scope: .output) ?? .canonical(sampleRate: rate, channelCount: 2)
        var choice = OutputFormatChoice()
        if let container = outputEntry.settings.text("container") {
            guard let named = AudioContainer.named(container) else { throw bad("output '\(outputEntry.node.name)': unknown container '\(container)'") }
            choice.container = named.container
            choice.encoding = named.encoding
        }
        if let bits = outputEntry.settings.text("bits") { choice.encoding = AudioEncoding.forBits(bits) }
        try applyEncoderSettings(outputEntry.settings, to: &choice, output: outputEntry.node.name)
        let (type, encoding) = try OutputRendering.chooseOutputFormat(output: outputPath, choice: choice, input: files[0].file, format: format)
        let render = PreparedRender(
            branches: files.map { RenderPlan.Branch(input: $0.path, file: $0.file, chain: []) }, tail: order, readers: readers,
            graph: graph, outputNode: outputNode, format: format, type: type, encoding: encoding,
            dither: OutputRendering.dither(for: encoding, inputs: files.map(\.file.encoding),
                                           processed: OutputRendering.isProcessing(order), settings: options),
            encoderSettings: choice.encoder)
        return Built(render: render, nodes: nodes, order: order, files: files, outputPath: outputPath,
                     eventLines: eventLines, edges: edges)
    }

    /// The output node's codec, bit rate and quality, in `choice`: a codec takes the depth of
    /// the node's bits; a bit rate and a quality together, or a bit rate that is none, are refused.
    private func applyEncoderSettings(_ settings: NodeSettings, to choice: inout OutputFormatChoice, output: String) throws(RenderError) {
        if let codec = settings.text("codec") {
            do throws(CodecChoiceError) {
                try choice.setCodec(codec.lowercased() == "alac" ? .alac : .aac, bits: settings.text("bits").flatMap(AudioEncoding.forBits))
            } catch {
                throw bad("output '\(output)': \(error)")
            }
        }
        let bitRate = try settings.text("bitrate").map { text throws(RenderError) -> Int in
            guard let bits = EncoderSettings.bitRate(parsing: text) else {
                throw bad("output '\(output)': bitrate '\(text)' is not a bit rate: give 256k, or bits per second from "
                          + "\(EncoderSettings.bitRates.lowerBound) to \(EncoderSettings.bitRates.upperBound)")
            }
            return bits
        }
        let quality = settings.number("quality")
        if bitRate != nil, quality != nil { throw bad("output '\(output)': give bitrate or quality, not both") }
        choice.encoder = EncoderSettings(bitRate: bitRate, quality: quality)
    }

    /// A processor or the output, made by the catalogue with what the graph tells it: the rate,
    /// the buses its connections feed, and the choices its events will ask for.
    private func makeNode(_ node: GraphDescription.Node, kind: NodeKind, rate: Double) throws -> AudioNode {
        let buses = description.connections.filter { $0.to == node.name }.map { ($0.bus ?? 0) + 1 }.max() ?? 0
        var choices: [String: [String]] = [:]
        for event in description.events ?? [] where event.node == node.name {
            if let preset = event.preset { choices["preset", default: []].append(preset) }
            if let parameter = event.parameter, case .text(let text)? = event.value { choices[parameter, default: []].append(text) }
        }
        let context = NodeContext(sampleRate: rate, connectedInputBuses: buses, findPreset: findPreset, scheduledChoices: choices,
                                  resampler: try OutputRendering.resamplerEngine(named: options.resampler),
                                  resamplerQuality: options.resamplerQuality, paths: paths)
        return try NodeCatalogue.make(node.name, kind: kind, fields: node.fields, context: context)
    }

    /// Schedules the events on the graph as parameter changes at their frames (a ramp becomes a
    /// change every 32 frames), and returns one plan line per event.
    private func scheduleEvents(on graph: Graph, nodes: [String: AudioNode], rate: Double) throws -> [String] {
        var lines: [String] = []
        var current: [String: Float] = [:]
        let events = (description.events ?? []).enumerated().map { index, event in (index: index, event: event, frame: Self.frame(event.at, rate)) }
        for (index, event, frame) in events.sorted(by: { ($0.frame ?? 0, $0.index) < ($1.frame ?? 0, $1.index) }) {
            guard let node = nodes[event.node] else { throw bad("event \(index + 1) names no node '\(event.node)'") }
            guard let frame else { throw bad("event \(index + 1): 'at' must be a time like 10, 1.5s, 500ms, 441000f or 1:30, not \(event.at)") }
            let (name, given): (String, SettingValue)
            switch (event.preset, event.parameter, event.value) {
            case (let preset?, nil, nil): (name, given) = ("preset", .text(preset))
            case (nil, let parameter?, let value?): (name, given) = (parameter, value)
            default: throw bad("event \(index + 1) needs a parameter and a value, or a preset")
            }
            let description: ParameterDescription
            do { description = try node.parameterDescription(named: name) } catch {
                let known = node.parameterDescriptions.map(\.name).joined(separator: ", ")
                throw bad("event \(index + 1): '\(event.node)' has no parameter '\(name)' (it has \(known))")
            }
            let kind = self.description.nodes.first { $0.name == event.node }.flatMap { NodeCatalogue.kind(named: $0.type) }
            let context = NodeContext(sampleRate: rate, findPreset: findPreset, paths: paths)
            let value: Float
            do { value = try NodeCatalogue.parameterValue(given, for: description, of: node, kind: kind, context: context) } catch {
                throw bad("event \(index + 1): \(name): \(error)")
            }
            guard description.accepts(value) else {
                switch description.unit {
                case .indexed(let choices):
                    throw bad("event \(index + 1): \(name) takes one of \(choices.map { "'\($0)'" }.joined(separator: ", ")) by name, not \(value)")
                case .boolean:
                    throw bad("event \(index + 1): \(name) takes true or false (1 or 0), not \(value)")
                default:
                    throw bad("event \(index + 1): \(name) must be from \(description.range.lowerBound) to \(description.range.upperBound), not \(value)")
                }
            }
            let key = "\(event.node)/\(name)"
            let from = current[key] ?? node.parameter(description.id)
            let rampFrames = try event.ramp.map { ramp -> Int64 in
                guard let frames = Self.frame(ramp, rate) else { throw bad("event \(index + 1): 'ramp' must be a time, not \(ramp)") }
                return frames
            } ?? 0
            if rampFrames > 0, description.unit.isDiscrete {
                throw bad("event \(index + 1): \(name) is a switch or a choice, which changes at once; it cannot ramp")
            }
            let steps = min(max(1, Int64((Double(rampFrames) / 32).rounded())), Graph.maximumRampSteps + 1)
            try graph.scheduleParameterRamp(description.id, on: node, from: from, to: value, atFrame: frame,
                                            overFrames: steps * 32, stepFrames: 32)
            let when = "frame \(frame) (\(RenderError.format(Double(frame) / rate)) s)"
            lines.append(steps > 1
                ? "event   \(when): \(node.name) \(name) ramps \(description.describe(from)) -> \(description.describe(value)) "
                    + "over \(rampFrames) frames, in \(steps) steps of 32"
                : "event   \(when): \(node.name) \(name) = \(description.describe(value))")
            current[key] = value
        }
        return lines
    }

    /// A time from a graph file in frames at `rate`, or nil if it is not a time.
    private static func frame(_ value: SettingValue, _ rate: Double) -> Int64? {
        switch value {
        case .number(let seconds) where seconds >= 0 && seconds <= TimeValue.maximumSeconds: TimeValue.seconds(seconds).frames(at: rate)
        case .text(let text): TimeValue(text)?.frames(at: rate)
        default: nil
        }
    }

    /// A usage error about the graph file.
    func bad(_ message: String) -> RenderError { .usage("graph: " + message) }
}
