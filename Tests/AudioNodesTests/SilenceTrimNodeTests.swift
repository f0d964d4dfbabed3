import AudioGraph
import AudioNodes
import Foundation
import GraphTestSupport
import MallocCounter
import TestSupport
import Testing

/// A source that reads its signal at the sample time each request names (so a reset graph renders
/// again without rewinding it, and a node that pulls at the wrong times gets the wrong frames)
/// → a silence-trim node → a generic output.
final class TrimHarness: RendersToOutput {
    let graph = Graph()
    let node: SilenceTrimNode
    let output = GenericOutput()
    private let channels: [[Float]]
    /// Whether every request started where the one before it ended.
    private(set) var requestsFollowEachOther = true
    private var nextTime: Int64 = 0

    init(node: SilenceTrimNode, channels: [[Float]], sampleRate: Double = 44100, maximumFrames: Int = 4096) throws {
        self.node = node
        self.channels = channels
        try graph.setMaximumFramesPerSlice(maximumFrames)
        try graph.addNode(node)
        try graph.addNode(output)
        try node.setStreamFormat(.canonical(sampleRate: sampleRate, channelCount: channels.count), scope: .input)
        try graph.setRenderCallback(for: node) { [unowned self] flags, request, buffers in
            let start = Int(request.timeStamp.sampleTime)
            if request.timeStamp.sampleTime != nextTime { requestsFollowEachOther = false }
            let frames = max(0, min(request.frameCount, self.channels[0].count - start))
            for channel in 0..<buffers.channelCount {
                self.channels[channel].withUnsafeBufferPointer { source in
                    buffers[channel].update(from: source.baseAddress! + start, count: frames)
                }
            }
            nextTime = request.timeStamp.sampleTime + Int64(frames)
            buffers.endStream(filled: frames, requested: request.frameCount, flags: &flags)
            return frames
        }
        try graph.connect(node, to: output)
        try graph.initialize()
    }

    /// Renders up to `frames` frames (everything by default) in slices of `sliceSize`.
    func render(sliceSize: Int = 4096, frames limit: Int = .max) throws -> [[Float]] {
        var result = Array(repeating: [Float](), count: channels.count)
        while result[0].count < limit, case .rendered(let frames) = try output.renderSlice(frameCount: min(sliceSize, limit - result[0].count)) {
            for channel in result.indices {
                result[channel].append(contentsOf: UnsafeBufferPointer(start: output.buffers[channel], count: frames))
            }
        }
        return result
    }
}

@Suite struct SilenceTrimNodeTests {
    static let rate = 44100.0
    /// The level −60 dB is, as the node computes it.
    static let level = Float(pow(10, -60.0 / 20))

    /// Quiet noise (−66 dBFS peak, under a −60 dB threshold) for 1 s, a 1 kHz tone for 1 s whose
    /// first and last frames are loud (a cosine, 0.5 at its start), then quiet noise for 2 s, on
    /// the left; quiet noise all along on the right. Audible: frames 44100 to 88199.
    static let toneBetweenNoise: [[Float]] = {
        let quiet: Float = 0.0005
        let tone = (0..<44100).map { Float(0.5 * cos(2 * Double.pi * 1000 * Double($0) / rate)) }
        return [Signal.noise(frames: 44100, amplitude: quiet, seed: 1) + tone + Signal.noise(frames: 88200, amplitude: quiet, seed: 2),
                Signal.noise(frames: 176_400, amplitude: quiet, seed: 3)]
    }()

    /// What one measuring render of `channels` found and passed through, and the trimming render
    /// after it (the node given that measurement), in slices of `sliceSize`.
    func measureThenTrim(_ channels: [[Float]], threshold: Double = -60, margin: Int64 = 4410, sliceSize: Int = 4096,
                         maximumFrames: Int = 4096) throws
        -> (measured: SilenceTrimNode.Measurement, passed: [[Float]], trimmed: [[Float]], node: SilenceTrimNode) {
        let measuring = try TrimHarness(node: SilenceTrimNode(thresholdDecibels: threshold, marginFrames: margin), channels: channels,
                                        maximumFrames: maximumFrames)
        let passed = try measuring.render(sliceSize: sliceSize)
        let measured = try #require(measuring.node.measured)
        let trimming = try TrimHarness(node: SilenceTrimNode(thresholdDecibels: threshold, marginFrames: margin, measurement: measured),
                                       channels: channels, maximumFrames: maximumFrames)
        let trimmed = try trimming.render(sliceSize: sliceSize)
        #expect(trimming.requestsFollowEachOther, "the input is pulled at its own sample times, frame after frame")
        return (measured, passed, trimmed, trimming.node)
    }

    @Test func aToneBetweenQuietNoiseKeepsItsSpanAndAMarginOnEachSide() throws {
        let input = Self.toneBetweenNoise
        let (measured, passed, trimmed, node) = try measureThenTrim(input)
        #expect(passed == input, "the measuring render passes its input through")
        #expect(measured == SilenceTrimNode.Measurement(inputFrames: 176_400, audible: 44100...88199))
        #expect(trimmed[0].count == 44100 + 2 * 4410 && trimmed[1].count == trimmed[0].count)
        for channel in 0..<2 {
            #expect(trimmed[channel] == Array(input[channel][39690..<92610]))
            #expect(trimmed[channel].first == input[channel][39690] && trimmed[channel].last == input[channel][92609])
        }
        let outcome = try #require(node.outcome)
        #expect(outcome.removedAtStart == 39690 && outcome.removedAtEnd == 83790)
        #expect(abs(outcome.seconds(outcome.removedAtStart) - 0.9) < 1e-9 && abs(outcome.seconds(outcome.removedAtEnd) - 1.9) < 1e-9)
        #expect(!outcome.removedEverything)
        #expect(node.outputFrames(forInputFrames: 176_400) == 52920)
        #expect(SilenceTrimNode(thresholdDecibels: -60, marginFrames: 4410).outputFrames(forInputFrames: 176_400) == 176_400,
                "a measuring node keeps the length")
    }

    @Test func aLoudFrameInOneChannelKeepsThatFrameInEveryChannel() throws {
        var input = Self.toneBetweenNoise
        input[1][120_000] = -0.25
        let (measured, _, trimmed, _) = try measureThenTrim(input, margin: 100)
        #expect(measured.audible == 44100...120_000)
        #expect(trimmed[0] == Array(input[0][44000...120_100]) && trimmed[1] == Array(input[1][44000...120_100]))
    }

    @Test func aSampleAtTheThresholdIsAudioAndOneJustBelowItIsNot() throws {
        var silence = [Float](repeating: 0, count: 10000)
        silence[500] = Self.level
        silence[700] = -Self.level
        silence[900] = Self.level.nextDown
        silence[100] = -Self.level.nextDown
        let (measured, _, trimmed, _) = try measureThenTrim([silence], margin: 0)
        #expect(measured.audible == 500...700)
        #expect(trimmed[0] == Array(silence[500...700]))
        let fullScale = try measureThenTrim([[0, 0.5, 1, -1, 0.999, 0]], threshold: 0, margin: 0)
        #expect(fullScale.measured.audible == 2...3)
        #expect(fullScale.trimmed[0] == [1, -1])
    }

    @Test func anInputBelowTheThresholdEverywhereTrimsToNothing() throws {
        let quiet = [Signal.noise(frames: 30000, amplitude: 0.0005), Signal.noise(frames: 30000, amplitude: 0.0009, seed: 7)]
        let (measured, _, trimmed, node) = try measureThenTrim(quiet)
        #expect(measured == SilenceTrimNode.Measurement(inputFrames: 30000, audible: nil))
        #expect(trimmed[0].isEmpty && trimmed[1].isEmpty)
        let outcome = try #require(node.outcome)
        #expect(outcome.removedEverything)
        #expect(outcome.removedAtStart == 30000 && outcome.removedAtEnd == 0, "all of it counts as removed from the start")
        #expect(node.outputFrames(forInputFrames: 30000) == 0)
        let empty = try measureThenTrim([[]])
        #expect(empty.measured == SilenceTrimNode.Measurement(inputFrames: 0, audible: nil))
        #expect(try #require(empty.node.outcome).removedEverything == false, "an input without frames lost none")
    }

    @Test func anInputWithoutSilenceComesOutUnchanged() throws {
        let loud = [Signal.sine(frequency: 440, sampleRate: Self.rate, frames: 20000, amplitude: 0.5).map { $0 + 0.01 },
                    Signal.noise(frames: 20000, amplitude: 0.5).map { $0 >= 0 ? $0 + 0.01 : $0 - 0.01 }]
        let (measured, _, trimmed, node) = try measureThenTrim(loud)
        #expect(measured.audible == 0...19999)
        #expect(trimmed == loud)
        let outcome = try #require(node.outcome)
        #expect(outcome.removedAtStart == 0 && outcome.removedAtEnd == 0)
    }

    @Test func aMarginStopsAtTheStreamsEnds() throws {
        let input = Self.toneBetweenNoise
        let wide = try measureThenTrim(input, margin: 100_000)
        #expect(wide.trimmed == input)
        let none = try measureThenTrim(input, margin: 0)
        #expect(none.trimmed[0] == Array(input[0][44100...88199]))
        #expect(none.node.outputFrames(forInputFrames: 176_400) == 44100)
        #expect(none.node.outputFrames(forInputFrames: 60000) == 15900, "a shorter stream ends the kept range early (60000 - 44100)")
    }

    @Test func theMeasurementIsKnownOnlyOnceTheInputHasEnded() throws {
        let harness = try TrimHarness(node: SilenceTrimNode(thresholdDecibels: -60, marginFrames: 0), channels: Self.toneBetweenNoise)
        _ = try harness.render(frames: 100_000)
        #expect(harness.node.measured == nil)
        _ = try harness.render()
        #expect(harness.node.measured?.inputFrames == 176_400)
    }

    @Test(arguments: [(1, 4096), (64, 65), (65, 65), (128, 8193), (8192, 8193), (8193, 8193)])
    func theOutputIsTheSameForEverySliceSize(sliceSize: Int, maximumFrames: Int) throws {
        let input = [Signal.noise(frames: 11025, amplitude: 0.0005) + Signal.sine(frequency: 300, sampleRate: Self.rate, frames: 22050)
                     + Signal.noise(frames: 22050, amplitude: 0.0005, seed: 5)]
        let reference = try measureThenTrim(input, margin: 441)
        let sliced = try measureThenTrim(input, margin: 441, sliceSize: sliceSize, maximumFrames: maximumFrames)
        #expect(sliced.measured == reference.measured)
        #expect(sliced.passed == input)
        #expect(sliced.trimmed == reference.trimmed)
        #expect(reference.trimmed[0].count == Int(reference.measured.audible!.count) + 2 * 441)
    }

    /// The allocations of a whole render of a graph `make` builds, its first slice included (where a
    /// trimming node drops the leading silence), after a first graph has rendered to warm up.
    func allocations(sliceSize: Int, _ make: () throws -> TrimHarness) throws -> (allocations: Int, slices: Int) {
        _ = try make().render(sliceSize: sliceSize)
        let harness = try make()
        let before = malloc_counter_thread_allocations()
        var slices = 0
        while case .rendered = try harness.output.renderSlice(frameCount: sliceSize) { slices += 1 }
        return (malloc_counter_thread_allocations() - before, slices)
    }

    @Test func renderingAllocatesNothing() throws {
        let input = Self.toneBetweenNoise
        let measuring = try allocations(sliceSize: 512) {
            try TrimHarness(node: SilenceTrimNode(thresholdDecibels: -60, marginFrames: 4410), channels: input)
        }
        #expect(measuring.slices > 300 && measuring.allocations == 0)
        let measured = SilenceTrimNode.Measurement(inputFrames: 176_400, audible: 44100...88199)
        let trimming = try allocations(sliceSize: 512) {
            try TrimHarness(node: SilenceTrimNode(thresholdDecibels: -60, marginFrames: 4410, measurement: measured), channels: input, maximumFrames: 1024)
        }
        #expect(trimming.slices > 100 && trimming.allocations == 0)
    }

    @Test func aResetNodeMeasuresAndTrimsAgainFromTheStart() throws {
        let input = Self.toneBetweenNoise
        let measuring = try TrimHarness(node: SilenceTrimNode(thresholdDecibels: -60, marginFrames: 4410), channels: input)
        _ = try measuring.render(sliceSize: 1000)
        let measured = try #require(measuring.node.measured)
        try measuring.graph.reset()
        #expect(measuring.node.measured == nil)
        #expect(try measuring.render(sliceSize: 777) == input)
        #expect(measuring.node.measured == measured)
        let trimming = try TrimHarness(node: SilenceTrimNode(thresholdDecibels: -60, marginFrames: 4410, measurement: measured), channels: input)
        let first = try trimming.render(sliceSize: 1000)
        try trimming.graph.reset()
        #expect(try trimming.render(sliceSize: 333) == first)
        #expect(first[0].count == 52920)
    }

    @Test func theMeasurementIsSetOnlyWhileUninitialized() throws {
        let harness = try TrimHarness(node: SilenceTrimNode(thresholdDecibels: -60, marginFrames: 0), channels: [[0, 1, 0]])
        #expect(throws: GraphError.initialized(node: "silence", operation: "set the measured silence")) {
            try harness.node.setMeasurement(SilenceTrimNode.Measurement(inputFrames: 3, audible: 1...1))
        }
    }

    @Test func thePlanSaysTheSettingsAndWhatIsKept() throws {
        let measuring = try TrimHarness(node: SilenceTrimNode(thresholdDecibels: -50, marginFrames: 2205), channels: [[0, 1, 0]])
        #expect(measuring.node.planDetail == "threshold -50 dB, margin 0.05 s (2205 frames); the audible range is measured when rendering")
        let trimming = SilenceTrimNode(thresholdDecibels: -60.5, marginFrames: 10,
                                       measurement: SilenceTrimNode.Measurement(inputFrames: 1000, audible: 100...199))
        #expect(trimming.planDetail == "threshold -60.5 dB, margin 10 frames; keeps frames 90 to 210 of 1000")
    }

    @Test func theCatalogueMakesItFromAThresholdAndAMargin() throws {
        let kind = try #require(NodeCatalogue.kind(named: "silence"))
        let context = NodeContext(sampleRate: 8000, findPreset: { name in throw PresetError(source: name, field: nil, problem: "none") })
        let made = try #require(try NodeCatalogue.make("trim", kind: kind, fields: ["threshold": "-50dB", "margin": "250ms"], context: context)
                                as? SilenceTrimNode)
        #expect(made.thresholdDecibels == -50 && made.marginFrames == 2000 && made.name == "trim")
        let plain = try #require(try NodeCatalogue.make("s", kind: kind, fields: ["threshold": -70], context: context) as? SilenceTrimNode)
        #expect(plain.marginFrames == 800, "the margin is 0.1 s unless given")
        func error(_ fields: [String: SettingValue]) -> String {
            do { _ = try NodeCatalogue.make("s", kind: kind, fields: fields, context: context) } catch { return "\(error)" }
            return "no error"
        }
        #expect(error(["threshold": 10]) == "node 's' (silence): field 'threshold': must be from -120 to 0 dB, not 10")
        #expect(error(["threshold": -60, "margin": "long"])
                == "node 's' (silence): field 'margin': must be a time like 90, 1.5s, 500ms, 441000f or 1:30, not 'long'")
        #expect(error(["margin": 1]).hasPrefix("node 's' (silence): field 'threshold': missing"))
    }
}
