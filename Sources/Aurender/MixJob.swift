import AudioDSP
import AudioFiles
import AudioGraph
import AudioNodes
import AudioFormats

/// Mixes several input files into one output file through a multichannel mixer: what
/// `aurender mix` does.
///
/// Each input flows through its reader, a format converter where its rate (or an unusual
/// channel count) differs from the mix, and its own processing (an EQ), into a bus of the
/// mixer; the mixer feeds an optional fade and the generic output. The mix runs at the first
/// input's rate in stereo unless the options say otherwise, and ends with its longest input.
public struct MixJob {
    /// One input and its settings on the mixer.
    public struct Input {
        public var path: String
        /// Gain in dB.
        public var gain: Double = 0
        /// −1 (left) to +1 (right).
        public var pan: Double = 0
        /// Where the input starts in the mix, in seconds.
        public var start: Double = 0
        /// Whether the input is pulled but not heard.
        public var muted = false
        /// Where the input stands with a spatial rendering: degrees, 0 ahead, positive to the right.
        public var azimuth: Double = 0
        /// Degrees above the horizon, with a spatial rendering.
        public var elevation: Double = 0
        /// Metres from the listener, with a spatial rendering (1 keeps the level).
        public var distance: Double = 1
        /// The input's own stages (an EQ), in order, before the mixer; each node's name gets the
        /// input's number (`eq 2`), as node names are unique in a graph. A `silence` stage
        /// trims the input's silence, measured in a first pass.
        public var stages: [ChainStage] = []
        /// Builds nodes of a Swift program's own after the stages, for the format it reaches them
        /// in; each node's name is to include the given suffix.
        public var makeProcessing: (StreamFormat, String) throws -> [AudioNode] = { _, _ in [] }

        public init(path: String) { self.path = path }
    }

    public var inputs: [Input]
    /// Where the output goes.
    public var output: OutputDestination
    /// How the mix is made and stored: every field applies to a mix.
    public struct Options {
        /// The output's container and encoding, and the mix's rate (default: the first input's)
        /// and channels (default: stereo).
        public var format = OutputFormatChoice()
        /// The mixer's master volume in dB.
        public var volume: Double = 0
        /// Fades and loudness normalization of the mix.
        public var finishing = FinishingOptions()
        /// Resampling, dither, clipping, slice size and progress.
        public var settings = RenderSettings()
        /// Finds the EQ presets the `eq` stages name.
        public var presets = PresetLookup(environment: [:])
        /// The mix's own processing, in order, after the mixer (and a spatial mix's volume) and
        /// before the fades: a chain, as a render's.
        public var stages: [ChainStage] = []
        /// Sources placed in space instead of panned: the mixer becomes a spatial node, each
        /// input a bus at its azimuth, elevation and distance (multichannel inputs as virtual speakers).
        public var spatial: SpatialRendering?

        public init() {}
    }

    /// How the mix is made and stored.
    public var options: Options
    /// The inputs, opened once and shared by the job's copies (its plan and its run).
    private let opened = OpenedInputs()

    public init(inputs: [Input], output: OutputDestination, options: Options = Options()) {
        self.inputs = inputs
        self.output = output
        self.options = options
    }

    /// Builds and initializes the graph without reading audio, and describes it.
    public func plan() throws -> RenderPlan {
        try prepare(readingAhead: false, pass: RenderPass(gain: PreparedRender.plannedGain(options.finishing.normalization))).plan(output: output)
    }

    /// Mixes, leaving either a complete output or none (and an existing one untouched). With a
    /// loudness normalization or a silence-trim node in an input's processing, the mix is measured
    /// first, then mixed again with the gain and the trims. A mix carries no tags unless
    /// `RenderSettings.tags` names a file to take them from.
    public func run() throws -> RenderJob.Summary {
        var summary = try PreparedRender.render(output: output, settings: options.settings, normalization: options.finishing.normalization,
                                                inputs: inputs.map(\.path), subject: output.path,
                                                metadata: { try .resolving(options.settings.tags, input: nil,
                                                                           leveled: options.settings.replayGain != nil) }) { pass in
            try prepare(readingAhead: true, pass: pass)
        }
        summary.shortfalls = opened.shortfalls
        summary.replayGains = opened.appliedReplayGains
        return summary
    }

    /// Opens the inputs and builds the mix for `pass` (its trims measured, its gain last before
    /// the output).
    private func prepare(readingAhead: Bool, pass: RenderPass) throws -> PreparedRender {
        guard !inputs.isEmpty else { throw RenderError.usage("a mix needs at least one input") }
        try OutputRendering.refuseSameFile(inputs: inputs.map(\.path), output: output)
        var files: [any AudioDecoder] = []
        for (index, input) in inputs.enumerated() { files.append(try opened.decoder(index, for: input.path, forcing: options.settings.decoder,
                                                                                                   salvaging: options.settings.salvage)) }
        let implied = OutputRendering.impliedSampleRate(output: output, choice: options.format, inputRate: files[0].format.sampleRate)
        let mixFormat = StreamFormat.canonical(sampleRate: options.format.sampleRate ?? implied?.rate ?? files[0].format.sampleRate,
                                               channelCount: options.spatial?.channelCount ?? options.format.channelCount ?? 2)
        let graph = Graph()
        let outputNode = GenericOutput()
        var branches: [RenderPlan.Branch] = []
        var readers: [OutputRendering.InputReader] = []
        var tail: [AudioNode] = []
        var length: Int64? = 0
        do {
            try mixFormat.validate()
            try graph.setMaximumFramesPerSlice(options.settings.framesPerSlice)
            let spatial = try options.spatial?.makeNode(buses: inputs.count, sampleRate: mixFormat.sampleRate)
            let mixer: AudioNode = try spatial ?? MixerNode(inputBusCount: inputs.count, output: mixFormat)
            if spatial == nil { try mixer.setParameter(MixerNode.masterVolume, Float(options.volume)) }
            try graph.addNode(mixer)
            for (bus, (input, file)) in zip(inputs, files).enumerated() {
                let reading = OutputRendering.makeReader(file, input: input.path, readingAhead: readingAhead, settings: options.settings)
                readers.append(reading)
                let reader = reading.source
                var chain: [AudioNode] = []
                if let playback = options.settings.replayGain {
                    chain.append(try opened.replayGain(bus, for: input.path, playback).makeNode(name: "replaygain \(bus + 1)"))
                }
                var format = reader.format
                let folds = spatial == nil && (format.channelCount > 2 || (format.channelCount == 2 && mixFormat.channelCount == 1))
                if let converter = try OutputRendering.makeConverter(from: format, sampleRate: mixFormat.sampleRate,
                                                                     channelCount: folds ? mixFormat.channelCount : nil,
                                                                     settings: options.settings, name: "converter \(bus + 1)", implied: implied) {
                    chain.append(converter)
                    format = converter.streamFormat(scope: .output) ?? format
                }
                let context = try ChainStage.context(sampleRate: format.sampleRate, settings: options.settings, presets: options.presets)
                let stages = input.stages.map { stage in ChainStage(stage.kind, name: "\(stage.name) \(bus + 1)", fields: stage.fields) }
                let processing = try ChainStage.makeNodes(stages, context: context) + input.makeProcessing(format, " \(bus + 1)")
                try pass.prepare(processing)
                chain += processing
                for node in chain { try graph.addNode(node) }
                try reader.attach(to: chain.first ?? mixer, bus: chain.isEmpty ? bus : 0, in: graph)
                for (source, destination) in zip(chain, chain.dropFirst()) { try graph.connect(source, to: destination) }
                if let last = chain.last { try graph.connect(last, to: mixer, inputBus: bus) }
                let offset = Int64((input.start * mixFormat.sampleRate).rounded())
                if let spatial {
                    try spatial.setParameter(SpatialNode.id(.gain, bus: bus), input.muted ? -96 : Float(input.gain))
                    try spatial.setParameter(SpatialNode.id(.azimuth, bus: bus), Float(input.azimuth))
                    try spatial.setParameter(SpatialNode.id(.elevation, bus: bus), Float(input.elevation))
                    try spatial.setParameter(SpatialNode.id(.distance, bus: bus), Float(input.distance))
                    try spatial.setStartOffset(frames: offset, bus: bus)
                } else if let mixer = mixer as? MixerNode {
                    try mixer.setParameter(MixerNode.id(.gain, bus: bus), Float(input.gain))
                    try mixer.setParameter(MixerNode.id(.pan, bus: bus), Float(input.pan))
                    try mixer.setParameter(MixerNode.id(.mute, bus: bus), input.muted ? 1 : 0)
                    try mixer.setStartOffset(frames: offset, bus: bus)
                }
                let frames = OutputRendering.length(after: processing, given: file.length.frames.map {
                    OutputRendering.convertedLength($0, from: file.format.sampleRate, to: mixFormat.sampleRate)
                })
                length = length.flatMap { total in frames.map { max(total, offset + $0) } }
                branches.append(RenderPlan.Branch(input: input.path, file: file, chain: chain))
            }
            tail = [mixer]
            if spatial != nil, options.volume != 0 { tail.append(GainNode(name: "volume", decibels: options.volume)) }
            let master = try ChainStage.makeNodes(options.stages, context: ChainStage.context(sampleRate: mixFormat.sampleRate,
                                                                                             settings: options.settings, presets: options.presets))
            try pass.prepare(master)
            tail += master
            length = OutputRendering.length(after: master, given: length)
            tail += try OutputRendering.makeFades(options.finishing, sampleRate: mixFormat.sampleRate, totalFrames: length,
                                                  tails: branches.contains { OutputRendering.hasTail($0.chain) } || OutputRendering.hasTail(master),
                                                  input: output.path)
            if let gain = pass.gain { tail.append(gain) }
            if let limiter = try options.finishing.makeLimiter() { tail.append(limiter) }
            tail.append(outputNode)
            for node in tail.dropFirst() { try graph.addNode(node) }
            for (source, destination) in zip(tail, tail.dropFirst()) { try graph.connect(source, to: destination) }
            try graph.initialize()
        } catch let error as GraphError {
            if case .unsupportedFormat(_, _, _, _, let reason) = error { throw RenderError.usage(reason) }
            throw RenderError.graph(error)
        } catch let error as EqualizerError {
            throw RenderError.usage(error.description)
        } catch let error as FormatError {
            throw RenderError.usage("the mix format \(mixFormat): \(error)")
        }
        let (type, encoding) = try OutputRendering.chooseOutputFormat(output: output, choice: options.format, input: files[0], format: mixFormat)
        return PreparedRender(branches: branches, tail: tail, readers: readers, graph: graph, outputNode: outputNode,
                              format: mixFormat, type: type, encoding: encoding,
                              dither: OutputRendering.dither(for: encoding, inputs: files.map(\.encoding), processed: true, settings: options.settings),
                              expectedFrames: length, encoderSettings: options.format.encoder)
    }
}
