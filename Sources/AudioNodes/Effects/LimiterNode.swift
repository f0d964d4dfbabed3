import AudioDSP
import AudioGraph
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A true-peak brick-wall limiter (`TruePeakLimiter`): the output's true peak stays at or under
/// the ceiling, intersample overs included, as its 8× reconstruction reads it, and so as
/// BS.1770-4's 4× meters (libebur128) and longer ones (FFmpeg's `ebur128`) read it too.
///
/// It looks ahead, so the limiter runs late by its latency; the node hides that: it reads the
/// latency's worth of input before its first output and flushes it after the input ends, so the
/// output has the input's length and lines up with it frame for frame. It aims a little under
/// the ceiling (`safetyMargin`), so neither the gain's own movement across a peak nor a meter
/// whose shorter filter passes some of the images of near-Nyquist energy (FFmpeg's `ebur128`
/// read clipped drums 0.1 dB over the reconstruction) finds a point over it.
public final class LimiterNode: AudioNode {
    /// The node's parameters.
    public enum Parameter: Int, CaseIterable, Sendable {
        case ceiling, release
    }

    /// How far under the ceiling the limiter aims, in dB.
    public static let safetyMargin = 0.1

    static let descriptions: [ParameterDescription] = [
        ParameterDescription(id: Parameter.ceiling.rawValue, name: "ceiling", range: -30...0, defaultValue: -1, unit: .decibels),
        ParameterDescription(id: Parameter.release.rawValue, name: "release", range: 0.001...2, defaultValue: 0.05, unit: .seconds),
    ]

    /// How long the gain takes to fall before a peak, in seconds; fixed when made.
    public let lookahead: Double
    private var limiter: TruePeakLimiter?
    private var scratch: AudioBufferStorage?
    private var sampleRate = 0.0
    /// Limiter outputs still to be thrown away: the lookahead's worth at the start.
    private var leadIn = 0
    private var inputEnded = false
    private var framesIn: Int64 = 0
    private var framesOut: Int64 = 0

    /// A limiter at `ceiling` dBTP with `release` and `lookahead` in seconds; a value out of its
    /// range is refused.
    public init(name: String = "limiter", ceiling: Double, release: Double = 0.05, lookahead: Double = 0.005) throws(GraphError) {
        self.lookahead = lookahead
        super.init(name: name, inputBusCount: 1, outputBusCount: 1)
        guard Self.lookaheadRange.contains(lookahead) else {
            throw .parameterOutOfRange(node: name, name: "lookahead", value: Float(lookahead), range: Float(Self.lookaheadRange.lowerBound)...Float(Self.lookaheadRange.upperBound))
        }
        try setParameter(Parameter.ceiling.rawValue, Float(ceiling))
        try setParameter(Parameter.release.rawValue, Float(release))
    }

    /// The lookaheads a limiter takes, in seconds.
    public static let lookaheadRange = 0.001...0.05

    public override var parameterDescriptions: [ParameterDescription] { Self.descriptions }

    /// The ceiling in dBTP.
    public var ceiling: Double { Double(parameter(Parameter.ceiling.rawValue)) }

    /// Frames the limiter runs behind its input, which the node hides.
    public var latency: Int { limiter?.latency ?? 0 }

    public override var planDetail: String? {
        parameterDescriptions.map { "\($0.name) \($0.describe(parameter($0.id)))" }.joined(separator: ", ") + ", lookahead \(lookahead * 1000) ms (compensated)"
    }

    public override func allocateRenderResources() throws {
        guard let format = streamFormat(scope: .input, bus: 0) else { return }
        sampleRate = format.sampleRate
        limiter = TruePeakLimiter(channelCount: format.channelCount, sampleRate: sampleRate, ceiling: linearCeiling,
                                  attackFrames: max(1, Int((lookahead * sampleRate).rounded())), releaseFrames: releaseFrames)
        scratch = AudioBufferStorage(channelCount: format.channelCount, capacity: maximumFramesPerSlice)
        try reset()
    }

    public override func deallocateRenderResources() {
        limiter = nil
        scratch = nil
    }

    public override func reset() throws {
        limiter?.reset()
        leadIn = limiter?.latency ?? 0
        inputEnded = false
        framesIn = 0
        framesOut = 0
    }

    public override func parameterDidChange(_ id: ParameterID) {
        limiter?.ceiling = linearCeiling
        limiter?.releaseStep = TruePeakLimiter.releaseStep(frames: releaseFrames)
    }

    private var linearCeiling: Double { pow(10, (ceiling - Self.safetyMargin) / 20) }
    private var releaseFrames: Double { Double(parameter(Parameter.release.rawValue)) * sampleRate }

    public override func render(_ flags: inout RenderActionFlags, _ request: RenderRequest, _ output: AudioBufferList) throws -> Int {
        guard let limiter, let scratch else { return try pullInput(bus: 0, &flags, request, into: output) }
        while leadIn > 0 {
            let chunk = min(leadIn, scratch.list.capacity)
            let got = try pull(chunk, into: scratch.list, &flags)
            scratch.list.zero(from: got, frames: chunk - got)
            limiter.process(scratch.list.channels.baseAddress!, frames: chunk)
            leadIn -= chunk
        }
        var produced = 0
        if !inputEnded {
            produced = try pull(request.frameCount, into: output, &flags)
            limiter.process(output.channels.baseAddress!, frames: produced)
        }
        if inputEnded {
            let flushed = Int(min(Int64(request.frameCount - produced), framesIn - framesOut - Int64(produced)))
            output.zero(from: produced, frames: flushed)
            limiter.process(output.channels.baseAddress!, offset: produced, frames: flushed)
            produced += flushed
        }
        framesOut += Int64(produced)
        output.zero(from: produced, frames: request.frameCount - produced)
        if produced < request.frameCount { flags.insert(.endOfStream) }
        return produced
    }

    /// Pulls up to `frames` frames of input into `buffers`, at the input's own timeline; fewer
    /// means the input ended.
    private func pull(_ frames: Int, into buffers: AudioBufferList, _ flags: inout RenderActionFlags) throws -> Int {
        guard !inputEnded, frames > 0 else { return 0 }
        var pullFlags = RenderActionFlags()
        let request = RenderRequest(timeStamp: AudioTimeStamp(sampleTime: framesIn), bus: 0, frameCount: frames)
        let got = try pullInput(bus: 0, &pullFlags, request, into: AudioBufferList(channels: buffers.channels, capacity: frames))
        framesIn += Int64(got)
        if got < frames || pullFlags.contains(.endOfStream) { inputEnded = true }
        return got
    }

    /// The limiter as a catalogued node kind: the ceiling and release as parameters, the
    /// lookahead as a setting.
    public static let kind = NodeKind(
        name: "limiter", summary: "a true-peak brick-wall limiter with lookahead (compensated): the output's true peak stays under the ceiling",
        settings: [SettingDescription("lookahead", .number(.seconds, lookaheadRange), "how long the gain takes to fall before a peak (default 5 ms)")],
        parameters: descriptions,
        make: { name, settings, _ in try LimiterNode(name: name, ceiling: -1, lookahead: settings.number("lookahead") ?? 0.005) })
}
