import AudioDSP
import AudioGraph
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Sums any number of input buses into one output: Core Audio's multichannel mixer.
///
/// Each bus has a gain (dB), a pan, an enable switch and a mute; the output has a master
/// volume (dB). Sums are plain, never normalised: two full-scale inputs make an over, and the
/// file writer counts it. A bus may start later than the mix (`setStartOffset`). The mix ends
/// when the longest enabled input ends; an input that has ended adds silence. A disabled bus
/// is not pulled at all; a muted one is pulled (it keeps its place in time) but not added.
///
/// Gain, pan, mute and volume changes glide over `rampFrames` frames, so changing them between
/// slices does not click; enabling or disabling a bus is immediate (ramp its gain first).
///
/// Pan laws: a mono input is placed with constant power, left = cos θ and right = sin θ with
/// θ = (pan + 1) π/4 (−3 dB each at the centre; `EqualPowerPan`). A stereo input is balanced: the side it is
/// panned away from is scaled by 1 − |pan|, the other side is unchanged. Inputs with as many
/// channels as the output and other layouts add channel to channel, without panning.
public final class MixerNode: AudioNode {
    /// The per-bus parameters; `id(_:bus:)` gives the parameter number.
    public enum BusParameter: Int, CaseIterable {
        case gain, pan, enable, mute
    }

    /// The master volume in dB.
    public static let masterVolume: ParameterID = 0

    /// The parameter number of `parameter` on input bus `bus` (four per bus, after the master volume).
    public static func id(_ parameter: BusParameter, bus: Int) -> ParameterID {
        1 + bus * 4 + parameter.rawValue
    }

    /// Frames over which a gain, pan, mute or volume change glides.
    public static let rampFrames = 64

    /// A bus's left and right gains as heard now, and where they are gliding to.
    private struct Glide {
        var current = SIMD2<Float>(repeating: .nan)
        var target = SIMD2<Float>(repeating: .nan)
        var step = SIMD2<Float>.zero
        var remaining = 0

        /// Aims at `target`; a first target is taken at once.
        mutating func aim(at newTarget: SIMD2<Float>) {
            if current.x.isNaN { current = newTarget; target = newTarget }
            guard newTarget != target else { return }
            target = newTarget
            remaining = MixerNode.rampFrames
            step = (target - current) / Float(remaining)
        }

        /// The gains for `frame` frames from now, in a slice; `advance` moves the glide on.
        func gains(at frame: Int) -> SIMD2<Float> {
            frame < remaining ? current + step * Float(frame + 1) : target
        }

        mutating func advance(by frames: Int) {
            let moved = min(frames, remaining)
            current += step * Float(moved)
            remaining -= moved
            if remaining == 0 {
                step = .zero
                current = target
            }
        }
    }

    private var glides: [Glide] = []
    private var masterGlide = Glide()
    private var startOffsets: [Int64]
    private var scratch: AudioBufferStorage?
    /// For each bus, a view of `scratch` with that bus's channel count, made at initialize.
    private var busViews: [AudioBufferList] = []
    private var exhausted: [Bool] = []
    private var sampleTime: Int64 = 0

    /// A mixer with `inputBusCount` buses producing `output` (canonical; its rate is every input's).
    public init(name: String = "mixer", inputBusCount: Int, output: StreamFormat) throws(GraphError) {
        startOffsets = Array(repeating: 0, count: inputBusCount)
        super.init(name: name, inputBusCount: inputBusCount, outputBusCount: 1)
        try setStreamFormat(output.canonical, scope: .output)
    }

    /// The master volume's description.
    public static let volume = ParameterDescription(id: masterVolume, name: "volume", range: -96...24, defaultValue: 0, unit: .decibels)

    /// The description of `parameter` of input bus `bus`, named with `index` (`gain[2]`, or `gain[N]` for the kind): each bus
    /// parameter declared once, for the node, its kind's parameters and the settings of its buses.
    public static func description(_ parameter: BusParameter, bus: Int, index: String) -> ParameterDescription {
        let id = id(parameter, bus: bus)
        return switch parameter {
        case .gain: ParameterDescription(id: id, name: "gain[\(index)]", range: -96...24, defaultValue: 0, unit: .decibels)
        case .pan: ParameterDescription(id: id, name: "pan[\(index)]", range: -1...1, defaultValue: 0, unit: .pan)
        case .enable: .boolean(id: id, name: "enable[\(index)]", defaultValue: true)
        case .mute: .boolean(id: id, name: "mute[\(index)]", defaultValue: false)
        }
    }

    public override var parameterDescriptions: [ParameterDescription] {
        [Self.volume] + (0..<inputBusCount).flatMap { bus in BusParameter.allCases.map { Self.description($0, bus: bus, index: "\(bus)") } }
    }

    public override var planDetail: String? {
        "\(inputBusCount) buses, \(streamFormat(scope: .output).map(\.description) ?? "?")"
    }

    /// Places input bus `bus` `frames` frames after the start of the mix; only while uninitialized.
    public func setStartOffset(frames: Int64, bus: Int) throws(GraphError) {
        try requireUninitialized("set a start offset")
        guard startOffsets.indices.contains(bus) else { throw .noSuchBus(node: name, scope: .input, bus: bus) }
        startOffsets[bus] = max(0, frames)
    }

    /// Sets the number of input buses (Core Audio's element count); only while uninitialized.
    public func setBusCount(_ count: Int) throws(GraphError) {
        try setInputBusCount(count)
        startOffsets = Array(startOffsets.prefix(count)) + Array(repeating: 0, count: max(0, count - startOffsets.count))
    }

    public override func defaultOutputFormat(bus: Int) -> StreamFormat? { streamFormat(scope: .output) }

    public override func validateFormats() throws(GraphError) {
        try requireCanonical(scope: .output, bus: 0)
        guard let output = streamFormat(scope: .output) else { return }
        for bus in 0..<inputBusCount {
            try requireCanonical(scope: .input, bus: bus)
            if let input = streamFormat(scope: .input, bus: bus), input.sampleRate != output.sampleRate {
                throw .unsupportedFormat(node: name, scope: .input, bus: bus, format: input,
                                         reason: "the mix runs at \(output.sampleRate) Hz; convert this input first")
            }
        }
    }

    public override func allocateRenderResources() throws {
        let channels = (0..<inputBusCount).map { streamFormat(scope: .input, bus: $0)?.channelCount ?? 1 }
        let scratch = AudioBufferStorage(channelCount: channels.max() ?? 1, capacity: maximumFramesPerSlice)
        self.scratch = scratch
        busViews = channels.map { count in
            AudioBufferList(channels: UnsafeMutableBufferPointer(rebasing: scratch.list.channels[0..<count]),
                            capacity: scratch.list.capacity)
        }
        exhausted = Array(repeating: false, count: inputBusCount)
        glides = Array(repeating: Glide(), count: inputBusCount)
        try reset()
    }

    /// Starts the mix again at sample time 0: every bus running, gains taken at once, no glide.
    public override func reset() throws {
        for bus in exhausted.indices {
            exhausted[bus] = false
            glides[bus] = Glide()
        }
        masterGlide = Glide()
        sampleTime = 0
    }

    public override func deallocateRenderResources() {
        busViews = []
        scratch = nil
    }

    public override func render(_ flags: inout RenderActionFlags, _ request: RenderRequest, _ output: AudioBufferList) throws -> Int {
        guard scratch != nil else { return 0 }
        output.zero(frames: request.frameCount)
        var longest = 0
        var anyRunning = false
        for bus in 0..<inputBusCount where parameter(Self.id(.enable, bus: bus)) >= 0.5 && !exhausted[bus] {
            anyRunning = true
            let delay = Int(max(0, min(Int64(request.frameCount), startOffsets[bus] - sampleTime)))
            if delay == request.frameCount {
                longest = request.frameCount
                continue
            }
            let wanted = request.frameCount - delay
            let view = busViews[bus]
            var busFlags: RenderActionFlags = []
            let busTime = AudioTimeStamp(sampleTime: sampleTime + Int64(delay) - startOffsets[bus])
            let got = try pullInput(bus: bus, &busFlags, RenderRequest(timeStamp: busTime, bus: 0, frameCount: wanted), into: view)
            if got < wanted || busFlags.contains(.endOfStream) { exhausted[bus] = true }
            longest = max(longest, delay + got)
            glides[bus].aim(at: targetGains(bus: bus, channels: view.channelCount))
            if got > 0, !busFlags.contains(.outputIsSilence) {
                add(view, frames: got, bus: bus, into: output, at: delay)
            }
            glides[bus].advance(by: got)
        }
        masterGlide.aim(at: SIMD2(repeating: decibelsToGain(parameter(Self.masterVolume))))
        if masterGlide.remaining > 0 || masterGlide.current.x != 1 {
            for channel in 0..<output.channelCount {
                for frame in 0..<longest { output[channel][frame] *= masterGlide.gains(at: frame).x }
            }
        }
        masterGlide.advance(by: longest)
        sampleTime += Int64(longest)
        if !anyRunning || longest < request.frameCount {
            output.endStream(filled: longest, requested: request.frameCount, flags: &flags)
        }
        return anyRunning ? longest : 0
    }

    /// The left and right gains a bus's settings ask for: gain, pan law, mute.
    private func targetGains(bus: Int, channels: Int) -> SIMD2<Float> {
        guard parameter(Self.id(.mute, bus: bus)) < 0.5 else { return .zero }
        let gain = decibelsToGain(parameter(Self.id(.gain, bus: bus)))
        let pan = parameter(Self.id(.pan, bus: bus))
        guard streamFormat(scope: .output)?.channelCount == 2 else { return SIMD2(repeating: gain) }
        if channels == 1 {
            let sides = EqualPowerPan.gains(pan: pan)
            return SIMD2(gain * sides.left, gain * sides.right)
        }
        if channels == 2 { return SIMD2(gain * (pan > 0 ? 1 - pan : 1), gain * (pan < 0 ? 1 + pan : 1)) }
        return SIMD2(repeating: gain)
    }

    /// Adds `frames` frames of one bus into the output from `offset`, with its gliding gains:
    /// a mono input into both sides of a stereo output, a stereo one side to side, others
    /// channel to channel.
    private func add(_ input: AudioBufferList, frames: Int, bus: Int, into output: AudioBufferList, at offset: Int) {
        let glide = glides[bus]
        let outputChannels = output.channelCount
        if outputChannels == 2, input.channelCount <= 2 {
            let right = input.channelCount == 2 ? input[1] : input[0]
            accumulate(input[0], into: output[0] + offset, frames: frames, glide: glide, lane: 0)
            accumulate(right, into: output[1] + offset, frames: frames, glide: glide, lane: 1)
        } else if input.channelCount == 1 {
            for channel in 0..<outputChannels { accumulate(input[0], into: output[channel] + offset, frames: frames, glide: glide, lane: 0) }
        } else {
            for channel in 0..<min(input.channelCount, outputChannels) {
                accumulate(input[channel], into: output[channel] + offset, frames: frames, glide: glide, lane: 0)
            }
        }
    }

    private func accumulate(_ source: UnsafeMutablePointer<Float>, into destination: UnsafeMutablePointer<Float>, frames: Int,
                            glide: Glide, lane: Int) {
        let gliding = min(frames, glide.remaining)
        for frame in 0..<gliding { destination[frame] += glide.gains(at: frame)[lane] * source[frame] }
        let gain = glide.gains(at: gliding)[lane]
        guard gain != 0 else { return }
        for frame in gliding..<frames { destination[frame] += gain * source[frame] }
    }

    private func decibelsToGain(_ decibels: Float) -> Float {
        decibels <= -96 ? 0 : powf(10, decibels / 20)
    }
}

extension MixerNode {
    /// The mixer as a catalogued node kind: its rate, channels and buses as settings, its
    /// volume and per-bus gain, pan, enable and mute as parameters.
    public static let kind = NodeKind(
        name: "mixer", summary: "the multichannel mixer: sums its input buses with per-bus gain and pan",
        settings: [
            .sampleRate("the mix's sample rate (default: the first file's)"),
            .channelCount("the mix's channel count (default 2)"),
            SettingDescription("buses", .list([
                SettingDescription("gain", as: description(.gain, bus: 0, index: "N"), "the bus's gain (default 0 dB)"),
                SettingDescription("pan", as: description(.pan, bus: 0, index: "N"), "-1 (left) to 1 (right), default 0"),
                SettingDescription("start", .time, "where the bus starts in the mix (default 0)"),
                SettingDescription("mute", as: description(.mute, bus: 0, index: "N"), "pulled but not heard (default false)"),
                SettingDescription("enabled", as: description(.enable, bus: 0, index: "N"), "pulled at all (default true)"),
            ]), "each input bus's settings, in bus order"),
        ],
        parameters: [volume] + BusParameter.allCases.map { description($0, bus: 0, index: "N") },
        make: { name, settings, context in
            let buses = settings.list("buses")
            let rate = settings.number("rate") ?? context.sampleRate
            let mixer = try MixerNode(name: name, inputBusCount: max(buses.count, context.connectedInputBuses),
                                      output: .canonical(sampleRate: rate, channelCount: settings.integer("channels") ?? 2))
            for (bus, busSettings) in buses.enumerated() {
                try mixer.setParameter(id(.gain, bus: bus), Float(busSettings.number("gain") ?? 0))
                try mixer.setParameter(id(.pan, bus: bus), Float(busSettings.number("pan") ?? 0))
                try mixer.setParameter(id(.mute, bus: bus), busSettings.flag("mute") == true ? 1 : 0)
                try mixer.setParameter(id(.enable, bus: bus), busSettings.flag("enabled") == false ? 0 : 1)
                try mixer.setStartOffset(frames: busSettings.time("start")?.frames(at: rate) ?? 0, bus: bus)
            }
            return mixer
        })
}
