import AudioGraph
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Removes the silence before and after a stream's audio, keeping a margin of it on each side:
/// what SoX's `silence 1 0.1 1% reverse silence 1 0.1 1% reverse` does, without reversing.
///
/// A frame is audio when its largest absolute sample over every channel is at or above the
/// threshold, so the channels are trimmed together; everything before the first such frame and
/// after the last is silence. Unlike SoX, a single frame at the threshold counts (there is no
/// minimum duration), so a click in the silence ends the trim there.
///
/// Where the audio ends is known only once the stream has ended, and trailing silence of any
/// length cannot be held in memory, so the node takes two renders, as loudness normalization does:
/// 1. *measuring* (a node made without a measurement): it passes its input through unchanged and
///    records the first and last audible frame in its input's timeline (`measured`);
/// 2. *trimming* (a node given that measurement, `setMeasurement(_:)`): it pulls the frames before
///    the kept range in slices into a buffer made at initialize and drops them, passes the range
///    through, and ends its stream after it without pulling the rest of its input.
///
/// Either way it holds one slice of scratch, whatever the stream's length, and gives the same
/// frames for any slice size. While trimming, it pulls its input with the input's own sample
/// times (the output's plus the frames dropped), so what lies upstream renders as it did when
/// measured.
public final class SilenceTrimNode: AudioNode {
    /// Where a stream's audio lies: what a measuring render finds, in frames of the node's input.
    public struct Measurement: Equatable, Sendable {
        /// The frames the input held.
        public var inputFrames: Int64
        /// The first and the last frame at or above the threshold; nil when no frame is.
        public var audible: ClosedRange<Int64>?

        public init(inputFrames: Int64, audible: ClosedRange<Int64>?) {
            self.inputFrames = inputFrames
            self.audible = audible
        }

        /// The frames kept with `margin` frames of silence on each side of the audible ones,
        /// within the stream. With nothing audible, none: the range is empty at the stream's
        /// end, so all of it counts as removed from the start.
        public func kept(margin: Int64) -> Range<Int64> {
            guard let audible else { return inputFrames..<inputFrames }
            let margin = max(0, margin)
            let start = min(inputFrames, audible.lowerBound > margin ? audible.lowerBound - margin : 0)
            let end = inputFrames - audible.upperBound - 1 > margin ? audible.upperBound + 1 + margin : inputFrames
            return start..<max(start, end)
        }
    }

    /// What a trimming render removes, in frames of the node's input at its rate: what reports say.
    public struct Outcome: Equatable, Sendable {
        /// The node that trimmed.
        public var node: String
        /// Its threshold, in dB.
        public var thresholdDecibels: Double
        /// Its margin, in frames.
        public var marginFrames: Int64
        /// The rate of its input, for times.
        public var sampleRate: Double
        /// The frames its input held.
        public var inputFrames: Int64
        /// The frames it kept, in its input's timeline.
        public var kept: Range<Int64>

        /// Frames removed before the audio (all of them when nothing reached the threshold).
        public var removedAtStart: Int64 { kept.lowerBound }
        /// Frames removed after the audio.
        public var removedAtEnd: Int64 { inputFrames - kept.upperBound }
        /// Whether the input held frames and none reached the threshold, so none were kept.
        public var removedEverything: Bool { inputFrames > 0 && kept.isEmpty }

        /// `frames` in seconds at the input's rate.
        public func seconds(_ frames: Int64) -> Double { Double(frames) / sampleRate }
    }

    /// The largest threshold, and the smallest: 0 dBFS is full scale, −120 dB is below the
    /// smallest step of 16-bit audio (about −96 dB) and of most recordings' noise.
    public static let thresholdRange = -120.0...0.0
    /// The margin kept on each side when none is given: a tenth of a second, short enough to
    /// hear as a clean start and long enough to keep a soft attack or a breath.
    public static let defaultMargin = TimeValue.seconds(0.1)

    /// The level a frame's largest sample must reach to be audio, in dB relative to full scale.
    public let thresholdDecibels: Double
    /// The frames of silence kept before the first audible frame and after the last.
    public let marginFrames: Int64
    private let thresholdLevel: Float
    /// What the trimming render keeps, as measured; nil while the node measures.
    public private(set) var measurement: Measurement?
    private var scratch: AudioBufferStorage?
    // Measuring: input frames passed through, the audible ones found so far, whether the input ended.
    private var framesSeen: Int64 = 0
    private var firstAudible: Int64?
    private var lastAudible: Int64?
    private var inputEnded = false
    // Trimming: the input's frames pulled so far (dropped or passed on).
    private var inputPosition: Int64 = 0

    /// A node that measures (or, given `measurement`, trims) the silence below `thresholdDecibels`,
    /// keeping `marginFrames` frames of it on each side (a negative margin keeps none). Graph files
    /// and the command take thresholds in `thresholdRange`; any level works here.
    public init(name: String = "silence", thresholdDecibels: Double, marginFrames: Int64, measurement: Measurement? = nil) {
        self.thresholdDecibels = thresholdDecibels
        self.marginFrames = max(0, marginFrames)
        thresholdLevel = Float(pow(10, thresholdDecibels / 20))
        self.measurement = measurement
        super.init(name: name, inputBusCount: 1, outputBusCount: 1)
    }

    /// Gives the node what a measuring render found, so it trims; only while uninitialized.
    public func setMeasurement(_ measurement: Measurement) throws(GraphError) {
        try requireUninitialized("set the measured silence")
        self.measurement = measurement
    }

    /// What this render found while measuring, once its input has ended; nil before, and for a
    /// node that trims.
    public var measured: Measurement? {
        guard measurement == nil, inputEnded else { return nil }
        return Measurement(inputFrames: framesSeen, audible: firstAudible.flatMap { first in lastAudible.map { first...$0 } })
    }

    /// What the node removes, once it trims and knows its rate; nil while it measures.
    public var outcome: Outcome? {
        guard let measurement, let rate = streamFormat(scope: .input)?.sampleRate else { return nil }
        return Outcome(node: name, thresholdDecibels: thresholdDecibels, marginFrames: marginFrames, sampleRate: rate,
                       inputFrames: measurement.inputFrames, kept: measurement.kept(margin: marginFrames))
    }

    public override var planDetail: String? {
        let margin = streamFormat(scope: .input).map { "\(Self.text(Double(marginFrames) / $0.sampleRate)) s (\(marginFrames) frames)" }
            ?? "\(marginFrames) frames"
        let settings = "threshold \(Self.text(thresholdDecibels)) dB, margin \(margin)"
        guard let measurement else { return settings + "; the audible range is measured when rendering" }
        let kept = measurement.kept(margin: marginFrames)
        return settings + "; keeps frames \(kept.lowerBound) to \(kept.upperBound) of \(measurement.inputFrames)"
    }

    /// While trimming, the frames kept of a stream of `frames`; while measuring, all of them.
    public override func outputFrames(forInputFrames frames: Int64) -> Int64? {
        guard let measurement else { return frames }
        let kept = measurement.kept(margin: marginFrames)
        return max(0, min(kept.upperBound, frames) - min(kept.lowerBound, frames))
    }

    public override func allocateRenderResources() throws {
        scratch = AudioBufferStorage(channelCount: try requiredStreamFormat(scope: .input).channelCount, capacity: maximumFramesPerSlice)
        try reset()
    }

    public override func deallocateRenderResources() {
        scratch = nil
    }

    /// Starts measuring, or trimming, again from the input's first frame.
    public override func reset() throws {
        framesSeen = 0
        firstAudible = nil
        lastAudible = nil
        inputEnded = false
        inputPosition = 0
    }

    public override func render(_ flags: inout RenderActionFlags, _ request: RenderRequest, _ output: AudioBufferList) throws -> Int {
        guard let measurement else { return try measure(&flags, request, output) }
        let kept = measurement.kept(margin: marginFrames)
        guard let scratch else { throw GraphError.notInitialized }
        guard !kept.isEmpty else {
            output.endStream(filled: 0, requested: request.frameCount, flags: &flags)
            return 0
        }
        while !inputEnded, inputPosition < kept.lowerBound {
            let frames = Int(min(Int64(maximumFramesPerSlice), kept.lowerBound - inputPosition))
            var dropped: RenderActionFlags = []
            _ = try pull(frames, &dropped, into: scratch.list)
        }
        let wanted = inputEnded ? 0 : Int(min(Int64(request.frameCount), max(0, kept.upperBound - inputPosition)))
        let frames = wanted > 0 ? try pull(wanted, &flags, into: output) : 0
        output.endStream(filled: frames, requested: request.frameCount, flags: &flags)
        return frames
    }

    /// Pulls the input's next `frames` frames into `buffers` at the input's own sample time.
    private func pull(_ frames: Int, _ flags: inout RenderActionFlags, into buffers: AudioBufferList) throws -> Int {
        let request = RenderRequest(timeStamp: AudioTimeStamp(sampleTime: inputPosition), bus: 0, frameCount: frames)
        let pulled = min(frames, max(0, try pullInput(bus: 0, &flags, request, into: buffers)))
        inputPosition += Int64(pulled)
        if pulled < frames || flags.contains(.endOfStream) { inputEnded = true }
        return pulled
    }

    /// Passes the input through, recording where its audio lies.
    private func measure(_ flags: inout RenderActionFlags, _ request: RenderRequest, _ output: AudioBufferList) throws -> Int {
        let frames = min(request.frameCount, max(0, try pullInput(bus: 0, &flags, request, into: output)))
        if frames < request.frameCount || flags.contains(.endOfStream) { inputEnded = true }
        if !flags.contains(.outputIsSilence) { record(output, frames: frames) }
        framesSeen += Int64(frames)
        return frames
    }

    /// Notes the first and last audible frame among the `frames` in `buffers`, which follow the
    /// `framesSeen` frames before them. Each channel is scanned on its own, forwards for the
    /// first frame while none is known and backwards for the last, stopping at what the channels
    /// before it found, so loud audio costs a few samples a slice.
    private func record(_ buffers: AudioBufferList, frames: Int) {
        guard frames > 0 else { return }
        if firstAudible == nil {
            var first = frames
            for channel in 0..<buffers.channelCount {
                let samples = buffers[channel]
                var frame = 0
                while frame < first, !(abs(samples[frame]) >= thresholdLevel) { frame += 1 }
                first = frame
            }
            guard first < frames else { return }
            firstAudible = framesSeen + Int64(first)
        }
        var last = -1
        for channel in 0..<buffers.channelCount {
            let samples = buffers[channel]
            var frame = frames - 1
            while frame > last, !(abs(samples[frame]) >= thresholdLevel) { frame -= 1 }
            last = frame
        }
        if last >= 0 { lastAudible = framesSeen + Int64(last) }
    }

    /// A number as plans print it: whole numbers without a fraction.
    private static func text(_ value: Double) -> String { SettingDescription.text((value * 1000).rounded() / 1000) }
}

extension SilenceTrimNode {
    /// The silence trim as a catalogued node kind: a threshold in dB and a margin.
    public static let kind = NodeKind(
        name: "silence", summary: "removes the silence before and after the audio (measured in a first render), keeping a margin",
        settings: [
            SettingDescription("threshold", .number(.decibels, thresholdRange),
                               "the level, in dB, a frame's largest sample must reach to be audio", required: true),
            SettingDescription("margin", .time, "the silence kept before and after the audio (default: 0.1 s)"),
        ],
        make: { name, settings, context in
            SilenceTrimNode(name: name, thresholdDecibels: settings.number("threshold")!,
                            marginFrames: (settings.time("margin") ?? defaultMargin).frames(at: context.sampleRate))
        })
}
