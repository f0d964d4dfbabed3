import AudioDSP
import AudioGraph
import SpatialAudio
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The 3D mixer, offline (`AVAudioEnvironmentNode`'s job): sources on its input buses, placed
/// around a listener, rendered to two ears through measured HRTFs, to a speaker layout, or by
/// the mixer's stereo pan.
///
/// Each bus has an `azimuth` (degrees, 0 ahead, positive to the right), an `elevation`, a
/// `distance` in metres, which the distance model turns into a gain, and a `gain` in dB; the
/// listener turns by `yaw` (positive to the right, so a source keeps its place in the room). A
/// mono bus is one source; a bus of two or more channels is its standard layout's speakers
/// (`SpeakerLayout.forChannelCount`) turned by the bus's azimuth, its LFE sent to both ears (or
/// to the output's LFE) at −3 dB without a direction. Every parameter can change at any frame
/// (events): with `binaural`, a source's HRIRs (scaled by its gain) are looked up again at the
/// next partition and the output fades from the old to the new over that partition; with
/// `speakers` and `pan`, gains glide over `glideFrames`. Either way the output does not depend
/// on the slice size, and rendering allocates nothing. The binaural partition's latency is
/// hidden: output frame n is the sources' frame n. A bus may start later than the mix
/// (`setStartOffset`). The output ends with the longest input.
public final class SpatialNode: AudioNode {
    /// What the sources are rendered to.
    public enum Rendering: String, CaseIterable, Sendable {
        /// Two ears through HRTFs from a SOFA file.
        case binaural
        /// A speaker layout, by vector-base amplitude panning.
        case speakers
        /// Stereo, by the mixer's equal-power pan: azimuth −90…90 as pan −1…1.
        case pan
    }

    /// The node's own parameters, before the buses'.
    public enum Parameter: Int, CaseIterable, Sendable {
        case yaw, distanceModel, referenceDistance, maximumDistance, rolloffFactor
    }

    /// The per-bus parameters; `id(_:bus:)` gives the parameter number.
    public enum BusParameter: Int, CaseIterable, Sendable {
        case azimuth, elevation, distance, gain
    }

    /// The parameter number of `parameter` on input bus `bus` (four per bus, after the node's five).
    public static func id(_ parameter: BusParameter, bus: Int) -> ParameterID {
        5 + bus * 4 + parameter.rawValue
    }

    /// Frames over which a speaker or pan gain glides to a new target.
    public static let glideFrames = 256
    /// The LFE's gain into each ear (or each side, or the output's LFE when it has none): −3 dB.
    public static let lfeGain: Float = 0.707_106_77

    /// The distance models, in the order of the `distanceModel` parameter's choices.
    static let distanceKinds = DistanceModel.Kind.allCases

    /// The node's own parameters' descriptions.
    public static let nodeParameters: [ParameterDescription] = [
        ParameterDescription(id: Parameter.yaw.rawValue, name: "yaw", range: -180...180, defaultValue: 0, unit: .linear),
        ParameterDescription(id: Parameter.distanceModel.rawValue, name: "distanceModel", range: 0...2, defaultValue: 0,
                             unit: .indexed(DistanceModel.Kind.allCases.map(\.rawValue))),
        ParameterDescription(id: Parameter.referenceDistance.rawValue, name: "referenceDistance", range: 0.001...100_000, defaultValue: 1,
                             unit: .linear),
        ParameterDescription(id: Parameter.maximumDistance.rawValue, name: "maximumDistance", range: 0.001...100_000,
                             defaultValue: 100_000, unit: .linear),
        ParameterDescription(id: Parameter.rolloffFactor.rawValue, name: "rolloffFactor", range: 0...100, defaultValue: 1, unit: .linear),
    ]

    /// Bus `bus`'s parameters' descriptions, named `azimuth[bus]` and so on.
    public static func busParameters(bus: Int, index: String) -> [ParameterDescription] {
        [
            ParameterDescription(id: id(.azimuth, bus: bus), name: "azimuth[\(index)]", range: -180...180, defaultValue: 0, unit: .linear),
            ParameterDescription(id: id(.elevation, bus: bus), name: "elevation[\(index)]", range: -90...90, defaultValue: 0, unit: .linear),
            ParameterDescription(id: id(.distance, bus: bus), name: "distance[\(index)]", range: 0...100_000, defaultValue: 1, unit: .linear),
            ParameterDescription(id: id(.gain, bus: bus), name: "gain[\(index)]", range: -96...24, defaultValue: 0, unit: .decibels),
        ]
    }

    /// What the sources are rendered to.
    public let rendering: Rendering
    /// The output's speakers: stereo for `binaural` and `pan`.
    public let layout: SpeakerLayout
    /// The HRTF set, for `binaural`.
    public let hrtf: HRTFSet?

    /// One mono source: a channel of a bus, where it stands on the bus's ring, or the LFE.
    private struct Source {
        var bus: Int
        var channel: Int
        var offset: Double
        var isLFE: Bool
    }

    private var sources: [Source] = []
    private var renderer: BinauralRenderer?
    private var panner: VectorBasePanner
    private var storage: AudioBufferStorage?
    private var busViews: [AudioBufferList] = []
    private var sourceInputs: UnsafeMutablePointer<UnsafeMutablePointer<Float>>?
    private var exhausted: [Bool] = []
    private var startOffsets: [Int64]
    /// Frames pulled from the inputs, and where the longest input ended, once all have.
    private var inputFrames: Int64 = 0
    private var inputEnd: Int64?
    /// The latest end of a bus that has ended.
    private var lastEnd: Int64 = 0
    private var outputFrames: Int64 = 0
    private var primed = false
    /// Per source and output channel: the gain heard now, its target and its step (speakers, pan).
    private var current: [Float] = []
    private var target: [Float] = []
    private var step: [Float] = []
    private var remaining: [Int] = []
    private var scratchGains: UnsafeMutableBufferPointer<Float>

    /// A node of `inputBusCount` buses rendering to `rendering` at `sampleRate`: `layout` for
    /// `speakers`, the HRTFs of `hrtfPath` (Debian's MIT KEMAR set by default) for `binaural`.
    public init(name: String = "spatial", inputBusCount: Int, rendering: Rendering, layout: SpeakerLayout? = nil, hrtfPath: String? = nil,
                sampleRate: Double) throws {
        self.rendering = rendering
        let layout = rendering == .speakers ? layout ?? .stereo : .stereo
        self.layout = layout
        hrtf = rendering == .binaural ? try HRTFSet(path: hrtfPath ?? HRTFSet.defaultPath, sampleRate: sampleRate) : nil
        panner = VectorBasePanner(layout: layout)
        scratchGains = .allocate(capacity: layout.channelCount)
        scratchGains.initialize(repeating: 0)
        startOffsets = Array(repeating: 0, count: inputBusCount)
        super.init(name: name, inputBusCount: inputBusCount, outputBusCount: 1)
        try setStreamFormat(.canonical(sampleRate: sampleRate, channelCount: layout.channelCount), scope: .output)
    }

    deinit { scratchGains.deallocate() }

    /// Starts input bus `bus` `frames` frames after the start of the mix (silence before it);
    /// only while uninitialized.
    public func setStartOffset(frames: Int64, bus: Int) throws(GraphError) {
        try requireUninitialized("set a start offset")
        guard startOffsets.indices.contains(bus) else { throw .noSuchBus(node: name, scope: .input, bus: bus) }
        startOffsets[bus] = max(0, frames)
    }

    public override var parameterDescriptions: [ParameterDescription] {
        Self.nodeParameters + (0..<inputBusCount).flatMap { Self.busParameters(bus: $0, index: String($0)) }
    }

    /// The distance model the parameters give now.
    public var distanceModel: DistanceModel {
        let kinds = Self.distanceKinds
        let index = min(kinds.count - 1, max(0, Int(parameter(Parameter.distanceModel.rawValue).rounded())))
        let reference = Double(parameter(Parameter.referenceDistance.rawValue))
        return DistanceModel(kind: kinds[index], referenceDistance: reference,
                             maximumDistance: max(reference, Double(parameter(Parameter.maximumDistance.rawValue))),
                             rolloffFactor: Double(parameter(Parameter.rolloffFactor.rawValue)))
    }

    public override var planDetail: String? {
        var text: String
        switch rendering {
        case .binaural:
            let file = hrtf.map { $0.path.split(separator: "/").last.map(String.init) ?? $0.path } ?? "?"
            text = "binaural through \(file)"
            if let hrtf {
                text += " (\(hrtf.measurementCount) directions, HRIRs of \(hrtf.filterLength) frames at \(Self.text(hrtf.sampleRate)) Hz, "
                    + "partitions of \(BinauralRenderer.partitionLength(for: hrtf)) frames, latency compensated)"
            }
        case .speakers: text = "speakers \(layout.rawValue) (\(layout.speakerNames.joined(separator: " "))) by VBAP"
        case .pan: text = "stereo by equal-power pan"
        }
        let model = distanceModel
        text += "; listener yaw \(Self.text(Double(parameter(Parameter.yaw.rawValue))))°, \(model.kind.rawValue) distance model "
            + "(reference \(Self.text(model.referenceDistance)) m, maximum \(Self.text(model.maximumDistance)) m, "
            + "roll-off \(Self.text(model.rolloffFactor)))"
        for bus in 0..<inputBusCount {
            let distance = Double(parameter(Self.id(.distance, bus: bus)))
            text += "; bus \(bus): azimuth \(Self.text(Double(parameter(Self.id(.azimuth, bus: bus)))))°, "
                + "elevation \(Self.text(Double(parameter(Self.id(.elevation, bus: bus)))))°, distance \(Self.text(distance)) m "
                + "(\(Self.text(20 * log10(Double(max(1e-9, model.gain(distance: distance)))))) dB), "
                + "gain \(Self.text(Double(parameter(Self.id(.gain, bus: bus))))) dB"
        }
        return text
    }

    static func text(_ value: Double) -> String {
        let rounded = (value * 100).rounded() / 100
        return rounded == rounded.rounded() && abs(rounded) < 1e15 ? String(Int64(rounded)) : String(rounded)
    }

    public override func defaultOutputFormat(bus: Int) -> StreamFormat? { streamFormat(scope: .output) }

    public override func validateFormats() throws(GraphError) {
        try requireCanonical(scope: .output, bus: 0)
        guard let output = streamFormat(scope: .output) else { return }
        for bus in 0..<inputBusCount {
            try requireCanonical(scope: .input, bus: bus)
            guard let input = streamFormat(scope: .input, bus: bus) else { continue }
            if input.sampleRate != output.sampleRate {
                throw .unsupportedFormat(node: name, scope: .input, bus: bus, format: input,
                                         reason: "the spatial mix runs at \(Self.text(output.sampleRate)) Hz; convert this input first")
            }
            if input.channelCount > 1, SpeakerLayout.forChannelCount(input.channelCount) == nil {
                throw .unsupportedFormat(node: name, scope: .input, bus: bus, format: input,
                                         reason: "\(input.channelCount) channels have no standard speaker layout to place "
                                            + "(mono, stereo, quad, 5.0, 5.1 or 7.1)")
            }
        }
    }

    public override func allocateRenderResources() throws {
        let channels = (0..<inputBusCount).map { streamFormat(scope: .input, bus: $0)?.channelCount ?? 1 }
        sources = []
        for (bus, count) in channels.enumerated() {
            let angles: [Double?] = count == 1 ? [0] : SpeakerLayout.forChannelCount(count)?.speakerAzimuths ?? Array(repeating: 0, count: count)
            for (channel, angle) in angles.enumerated() {
                sources.append(Source(bus: bus, channel: channel, offset: angle ?? 0, isLFE: angle == nil))
            }
        }
        let storage = AudioBufferStorage(channelCount: max(1, channels.reduce(0, +)), capacity: maximumFramesPerSlice)
        self.storage = storage
        var first = 0
        busViews = channels.map { count in
            defer { first += count }
            return AudioBufferList(channels: UnsafeMutableBufferPointer(rebasing: storage.list.channels[first..<(first + count)]),
                                   capacity: storage.list.capacity)
        }
        let inputs = UnsafeMutablePointer<UnsafeMutablePointer<Float>>.allocate(capacity: max(1, sources.count))
        for (index, source) in sources.enumerated() { inputs[index] = busViews[source.bus][source.channel] }
        sourceInputs = inputs
        if let hrtf, !sources.isEmpty { renderer = BinauralRenderer(hrtf: hrtf, sourceCount: sources.count) }
        let gains = sources.count * layout.channelCount
        current = Array(repeating: 0, count: gains)
        target = Array(repeating: 0, count: gains)
        step = Array(repeating: 0, count: gains)
        remaining = Array(repeating: 0, count: sources.count)
        exhausted = Array(repeating: false, count: inputBusCount)
        try reset()
    }

    public override func deallocateRenderResources() {
        renderer = nil
        busViews = []
        storage = nil
        sourceInputs?.deallocate()
        sourceInputs = nil
    }

    /// Starts again at frame 0: every bus running, every source placed afresh.
    public override func reset() throws {
        renderer?.reset()
        for bus in exhausted.indices { exhausted[bus] = false }
        for index in remaining.indices { remaining[index] = -1 }
        inputFrames = 0
        inputEnd = nil
        lastEnd = 0
        outputFrames = 0
        primed = false
    }

    public override func render(_ flags: inout RenderActionFlags, _ request: RenderRequest, _ output: AudioBufferList) throws -> Int {
        guard storage != nil, !sources.isEmpty else { return 0 }
        let frames = request.frameCount
        if let renderer {
            placeBinaural(renderer)
            if !primed {
                primed = true
                var left = renderer.latency
                while left > 0 {
                    let count = min(left, maximumFramesPerSlice)
                    try pull(frames: count)
                    renderer.process(inputs: sourceInputs!, left: output[0], right: output[1], frames: count)
                    left -= count
                }
            }
            try pull(frames: frames)
            renderer.process(inputs: sourceInputs!, left: output[0], right: output[1], frames: frames)
        } else {
            try pull(frames: frames)
            aimGains()
            output.zero(frames: frames)
            mix(into: output, frames: frames)
        }
        var produced = frames
        if let inputEnd { produced = Int(max(0, min(Int64(frames), inputEnd - outputFrames))) }
        outputFrames += Int64(produced)
        if produced < frames { output.endStream(filled: produced, requested: frames, flags: &flags) }
        return produced
    }

    /// Pulls `frames` frames of every bus into its view (zeros before a bus starts and after it
    /// ends) and notes where the longest input ends once all have.
    private func pull(frames: Int) throws {
        var allEnded = true
        for bus in 0..<inputBusCount {
            let view = busViews[bus]
            let delay = Int(max(0, min(Int64(frames), startOffsets[bus] - inputFrames)))
            var got = 0
            if !exhausted[bus], delay < frames {
                var busFlags: RenderActionFlags = []
                let time = AudioTimeStamp(sampleTime: inputFrames + Int64(delay) - startOffsets[bus])
                got = try pullInput(bus: bus, &busFlags, RenderRequest(timeStamp: time, bus: 0, frameCount: frames - delay), into: view)
                if got < frames - delay || busFlags.contains(.endOfStream) {
                    exhausted[bus] = true
                    lastEnd = max(lastEnd, inputFrames + Int64(delay + got))
                }
                if busFlags.contains(.outputIsSilence) { view.zero(frames: got) }
                if delay > 0, got > 0 {
                    for channel in 0..<view.channelCount { (view[channel] + delay).update(from: view[channel], count: got) }
                }
            }
            if delay > 0 { view.zero(from: 0, frames: min(delay, frames)) }
            if delay + got < frames { view.zero(from: delay + got, frames: frames - delay - got) }
            if !exhausted[bus] { allEnded = false }
        }
        if inputEnd == nil, allEnded { inputEnd = lastEnd }
        inputFrames += Int64(frames)
    }

    /// The direction of `source` as the listener hears it now: azimuth and elevation in degrees.
    private func direction(_ source: Source) -> (azimuth: Double, elevation: Double) {
        let azimuth = Double(parameter(Self.id(.azimuth, bus: source.bus))) + source.offset - Double(parameter(Parameter.yaw.rawValue))
        let wrapped = (azimuth + 180).truncatingRemainder(dividingBy: 360)
        return ((wrapped < 0 ? wrapped + 360 : wrapped) - 180, Double(parameter(Self.id(.elevation, bus: source.bus))))
    }

    /// The linear gain of `source`'s bus now: its gain and its distance's.
    private func busGain(_ source: Source, model: DistanceModel) -> Float {
        let decibels = parameter(Self.id(.gain, bus: source.bus))
        let gain = decibels <= -96 ? 0 : powf(10, decibels / 20)
        return gain * model.gain(distance: Double(parameter(Self.id(.distance, bus: source.bus))))
    }

    private func placeBinaural(_ renderer: BinauralRenderer) {
        let model = distanceModel
        for index in 0..<sources.count {
            let source = sources[index], gain = busGain(source, model: model)
            if source.isLFE {
                renderer.placeEverywhere(source: index, gain: gain * Self.lfeGain)
            } else {
                let (azimuth, elevation) = direction(source)
                renderer.place(source: index, azimuth: azimuth, elevation: elevation, gain: gain)
            }
        }
    }

    /// Sets each source's target gains per output channel; a new target starts a glide, a first one is taken at once.
    private func aimGains() {
        let model = distanceModel
        let outputs = layout.channelCount
        for index in 0..<sources.count {
            let source = sources[index], gain = busGain(source, model: model)
            for channel in 0..<outputs { scratchGains[channel] = 0 }
            if source.isLFE {
                if let lfe = layout.lfeChannel {
                    scratchGains[lfe] = gain
                } else {
                    scratchGains[0] = gain * Self.lfeGain
                    scratchGains[1] = gain * Self.lfeGain
                }
            } else if rendering == .pan {
                let (left, right) = EqualPowerPan.gains(azimuth: direction(source).azimuth)
                scratchGains[0] = gain * left
                scratchGains[1] = gain * right
            } else {
                let (azimuth, elevation) = direction(source)
                panner.gains(azimuth: azimuth, elevation: elevation, into: scratchGains)
                for channel in 0..<outputs { scratchGains[channel] *= gain }
            }
            let base = index * outputs
            var changed = false
            for channel in 0..<outputs where target[base + channel] != scratchGains[channel] { changed = true }
            if remaining[index] < 0 {
                for channel in 0..<outputs {
                    current[base + channel] = scratchGains[channel]
                    target[base + channel] = scratchGains[channel]
                }
                remaining[index] = 0
            } else if changed {
                for channel in 0..<outputs {
                    target[base + channel] = scratchGains[channel]
                    step[base + channel] = (scratchGains[channel] - current[base + channel]) / Float(Self.glideFrames)
                }
                remaining[index] = Self.glideFrames
            }
        }
    }

    /// Adds every source into the output with its gliding gains, and moves the glides on.
    private func mix(into output: AudioBufferList, frames: Int) {
        let outputs = layout.channelCount
        for index in 0..<sources.count {
            let source = sources[index], input = busViews[source.bus][source.channel]
            let base = index * outputs
            let gliding = min(frames, remaining[index])
            for channel in 0..<outputs {
                let destination = output[channel]
                var gain = current[base + channel]
                let increment = step[base + channel]
                for frame in 0..<gliding {
                    gain += increment
                    destination[frame] += gain * input[frame]
                }
                if gliding == remaining[index] { gain = target[base + channel] }
                current[base + channel] = gain
                guard gain != 0 else { continue }
                for frame in gliding..<frames { destination[frame] += gain * input[frame] }
            }
            remaining[index] -= gliding
        }
    }
}

extension SpatialNode {
    /// The spatial mixer as a catalogued node kind: its rendering, layout, SOFA file and buses as
    /// settings; the listener's yaw, the distance model and each bus's position and gain as
    /// parameters, so events can move sources.
    public static let kind = NodeKind(
        name: "spatial",
        summary: "the 3D mixer: places its input buses around a listener and renders them to two ears (HRTFs), speakers or a stereo pan",
        settings: [
            SettingDescription("rendering", .choice(Rendering.allCases.map(\.rawValue)),
                               "binaural (two ears through HRTFs), speakers (a layout, by VBAP) or pan (equal-power stereo); default binaural"),
            SettingDescription("layout", .choice(SpeakerLayout.allCases.map(\.rawValue)), "the speakers for rendering speakers (default stereo)"),
            SettingDescription("sofa", .text, "the SOFA file of HRTFs for binaural (default Debian's MIT KEMAR set, \(HRTFSet.defaultPath))"),
            .sampleRate("the mix's sample rate (default: the graph's)"),
            SettingDescription("buses", .list([
                SettingDescription("azimuth", as: busParameters(bus: 0, index: "N")[BusParameter.azimuth.rawValue],
                                   "degrees, 0 ahead, positive to the right (default 0)"),
                SettingDescription("elevation", as: busParameters(bus: 0, index: "N")[BusParameter.elevation.rawValue], "degrees, positive up (default 0)"),
                SettingDescription("distance", as: busParameters(bus: 0, index: "N")[BusParameter.distance.rawValue],
                                   "metres, through the distance model (default 1)"),
                SettingDescription("gain", as: busParameters(bus: 0, index: "N")[BusParameter.gain.rawValue], "the bus's gain (default 0 dB)"),
                SettingDescription("start", .time, "where the bus starts in the mix (default 0)"),
            ]), "each input bus's position, gain and start, in bus order"),
        ],
        parameters: nodeParameters + busParameters(bus: 0, index: "N"),
        make: { name, settings, context in
            let buses = settings.list("buses")
            let rendering = settings.text("rendering").flatMap { Rendering(rawValue: $0.lowercased()) } ?? .binaural
            let rate = settings.number("rate") ?? context.sampleRate
            let node = try SpatialNode(name: name, inputBusCount: max(1, buses.count, context.connectedInputBuses), rendering: rendering,
                                       layout: settings.text("layout").flatMap(SpeakerLayout.named),
                                       hrtfPath: try context.path("sofa", in: settings),
                                       sampleRate: rate)
            for (bus, busSettings) in buses.enumerated() {
                try node.setParameter(id(.azimuth, bus: bus), Float(busSettings.number("azimuth") ?? 0))
                try node.setParameter(id(.elevation, bus: bus), Float(busSettings.number("elevation") ?? 0))
                try node.setParameter(id(.distance, bus: bus), Float(busSettings.number("distance") ?? 1))
                try node.setParameter(id(.gain, bus: bus), Float(busSettings.number("gain") ?? 0))
                try node.setStartOffset(frames: busSettings.time("start")?.frames(at: rate) ?? 0, bus: bus)
            }
            return node
        })
}
