import AudioGraph
import AudioNodes
import Foundation
import GraphTestSupport
import MallocCounter
import Resampling
import TestSupport
import Testing
import TimeStretching

/// A signal → time-pitch node → generic output graph whose source reads by sample time, so
/// `Graph.reset()` starts it over; events can be scheduled before it is initialized.
final class TimePitchGraph: RendersToOutput {
    let graph = Graph()
    let node: TimePitchNode
    let output = GenericOutput()

    init(_ node: TimePitchNode, channels: [[Float]], sampleRate: Double = 44100, maximumFrames: Int = 4096,
         schedule: (Graph, TimePitchNode) throws -> Void = { _, _ in }) throws {
        self.node = node
        try graph.setMaximumFramesPerSlice(maximumFrames)
        try graph.addNode(node)
        try graph.addNode(output)
        try node.setStreamFormat(.canonical(sampleRate: sampleRate, channelCount: channels.count), scope: .input)
        try graph.setRenderCallback(for: node) { flags, request, buffers in
            let start = Int(request.timeStamp.sampleTime)
            let frames = max(0, min(request.frameCount, channels[0].count - start))
            for channel in 0..<buffers.channelCount {
                channels[channel].withUnsafeBufferPointer { buffers[channel].update(from: $0.baseAddress! + start, count: frames) }
            }
            buffers.endStream(filled: frames, requested: request.frameCount, flags: &flags)
            return frames
        }
        try graph.connect(node, to: output)
        try schedule(graph, node)
        try graph.initialize()
    }

    /// Everything, in slices of `sliceSize`.
    func render(sliceSize: Int = 4096) throws -> [[Float]] {
        try output.renderAll(sliceSize: sliceSize)
    }
}

/// Measurements of rendered tones.
enum Tone {
    /// The frequency of the tone in `samples` from its upward zero crossings, each placed
    /// between its two samples by linear interpolation: cycles over the time they span.
    static func frequency(_ samples: ArraySlice<Float>, sampleRate: Double) -> Double {
        var crossings: [Double] = []
        for index in samples.indices.dropLast() where samples[index] < 0 && samples[index + 1] >= 0 {
            let (a, b) = (Double(samples[index]), Double(samples[index + 1]))
            crossings.append(Double(index) + a / (a - b))
        }
        guard let first = crossings.first, let last = crossings.last, crossings.count > 1 else { return 0 }
        return Double(crossings.count - 1) * sampleRate / (last - first)
    }

    /// The middle half of `samples`, away from the ends.
    static func middle(_ samples: [Float]) -> ArraySlice<Float> {
        samples[samples.count / 4..<samples.count * 3 / 4]
    }
}

@Suite struct TimePitchNodeTests {
    static let rate = 44100.0
    /// Two seconds and a few frames of 440 Hz, so lengths do not divide evenly.
    static let frames = 88_207
    static let tone = Signal.sine(frequency: 440, sampleRate: rate, frames: frames, amplitude: 0.5)

    func render(tempo: Float = 1, pitch: Float = 0, speed: Float = 1, _ channels: [[Float]] = [tone], sliceSize: Int = 4096,
                maximumFrames: Int = 4096) throws -> [[Float]] {
        let node = try TimePitchNode(tempo: tempo, pitch: pitch, speed: speed)
        return try TimePitchGraph(node, channels: channels, maximumFrames: maximumFrames).render(sliceSize: sliceSize)
    }

    @Test(arguments: [1, 2])
    func tempoKeepsThePitchAndTakesExactlyTheFramesOverTheTempo(channels: Int) throws {
        let output = try render(tempo: 1.25, Array(repeating: Self.tone, count: channels))
        for samples in output {
            #expect(samples.count == Int((Double(Self.frames) / 1.25).rounded()))
            let frequency = Tone.frequency(Tone.middle(samples), sampleRate: Self.rate)
            #expect(abs(frequency - 440) <= 1, "\(frequency) Hz")
        }
    }

    @Test(arguments: [(12, 880), (-12, 220), (7, 440 * exp2(7.0 / 12))] as [(Float, Double)])
    func pitchMovesTheToneAndKeepsTheLength(semitones: Float, expected: Double) throws {
        let output = try render(pitch: semitones)[0]
        #expect(output.count == Self.frames)
        let frequency = Tone.frequency(Tone.middle(output), sampleRate: Self.rate)
        #expect(abs(frequency - expected) <= 2, "\(semitones) semitones: \(frequency) Hz")
    }

    @Test(arguments: [(1.25, 550), (0.8, 352)] as [(Float, Double)])
    func speedChangesLengthAndPitchTogether(speed: Float, expected: Double) throws {
        let output = try render(speed: speed)[0]
        #expect(output.count == Int((Double(Self.frames) / Double(speed)).rounded()))
        let frequency = Tone.frequency(Tone.middle(output), sampleRate: Self.rate)
        #expect(abs(frequency - expected) <= 1, "speed \(speed): \(frequency) Hz")
    }

    @Test func speedAndTempoCombine() throws {
        let output = try render(tempo: 0.8, speed: 1.25)[0]
        #expect(output.count == Self.frames, "tempo 0.8 × speed 1.25 keeps the length")
        let frequency = Tone.frequency(Tone.middle(output), sampleRate: Self.rate)
        #expect(abs(frequency - 550) <= 1, "and speed raises the pitch: \(frequency) Hz")
    }

    @Test func defaultSettingsPassTheSamplesThroughUntouched() throws {
        let input = [Signal.noise(frames: 10_001, seed: 2), Signal.noise(frames: 10_001, seed: 3)]
        #expect(try render(input, sliceSize: 777) == input)
    }

    /// The amplitude envelope of the output follows the input's, mapped through the time
    /// change: output time u carries input time u × tempo × speed, from the first frame on.
    @Test(arguments: [(Float(1.25), Float(0), Float(1)), (1, 12, 1), (1, 0, 1.25), (0.5, -5, 1), (2, 3, 0.9)])
    func theOutputIsAlignedWithTheInput(tempo: Float, pitch: Float, speed: Float) throws {
        let modulation = 3.0
        let input = (0..<Int(4 * Self.rate)).map { frame -> Float in
            let time = Double(frame) / Self.rate
            return Float((0.5 + 0.4 * sin(2 * .pi * modulation * time)) * sin(2 * .pi * 440 * time))
        }
        let output = try render(tempo: tempo, pitch: pitch, speed: speed, [input])[0]
        let timeScale = Double(tempo) * Double(speed)
        let window = 441
        let centres = Array(stride(from: window, to: output.count - 2 * window, by: window))
        let envelope = centres.map { centre in
            Signal.rms(Array(output[centre - window / 2..<centre + window / 2])) * 2.0.squareRoot()
        }
        func error(lag: Int) -> Double {
            zip(centres, envelope).reduce(0) { sum, pair in
                let time = Double(pair.0 + lag) * timeScale / Self.rate
                let expected = 0.5 + 0.4 * sin(2 * .pi * modulation * time)
                return sum + (pair.1 - expected) * (pair.1 - expected)
            }
        }
        let best = try #require(stride(from: -4000, through: 4000, by: 4).min { error(lag: $0) < error(lag: $1) })
        #expect(abs(best) <= 44, "the output lags its input by \(best) frames (tempo \(tempo), pitch \(pitch), speed \(speed))")
        #expect(Signal.rms(Array(output.prefix(441))) > 0.2, "no leading silence")
    }

    @Test(arguments: [(Float(1.25), Float(0), Float(1)), (1, 12, 1), (1, 0, 1.25), (0.7, -5, 1.1)])
    func theOutputDoesNotDependOnTheSliceSize(tempo: Float, pitch: Float, speed: Float) throws {
        let input = [Signal.noise(frames: 30_011, seed: 5), Signal.sine(frequency: 440, sampleRate: Self.rate, frames: 30_011)]
        let reference = try render(tempo: tempo, pitch: pitch, speed: speed, input, sliceSize: 4096, maximumFrames: 8192)
        for slice in [1, 64, 65, 128, 1000, 8191, 8192] {
            let other = try render(tempo: tempo, pitch: pitch, speed: speed, input, sliceSize: slice, maximumFrames: 8192)
            #expect(other == reference, "slices of \(slice)")
        }
        #expect(try render(tempo: tempo, pitch: pitch, speed: speed, input, sliceSize: 4096, maximumFrames: 8192) == reference,
                "the same again: deterministic")
    }

    @Test(arguments: [(Float(1.25), Float(0), Float(1)), (1, 12, 1), (1, 0, 1.25), (0.3, 5, 3.5), (4, -24, 0.25)])
    func outputFramesTellsTheExactLength(tempo: Float, pitch: Float, speed: Float) throws {
        for frames in [1, 999, 44_101] {
            let node = try TimePitchNode(tempo: tempo, pitch: pitch, speed: speed)
            let expected = try #require(node.outputFrames(forInputFrames: Int64(frames)))
            #expect(expected == Int64((Double(frames) / (Double(tempo) * Double(speed))).rounded()))
            let output = try TimePitchGraph(node, channels: [Signal.noise(frames: frames, seed: 8)]).render(sliceSize: 512)
            #expect(output[0].count == Int(expected), "\(frames) frames at tempo \(tempo), pitch \(pitch), speed \(speed)")
        }
    }

    /// Nothing is allocated from the first slice on, however long the stream: SoundTouch's
    /// buffers and the engine's are all made at initialize.
    @Test(arguments: [(Float(1.25), Float(0), Float(1)), (0.25, 0, 1), (4, 0, 1), (1, 12, 1), (1, -24, 1), (1, 0, 0.5), (0.8, 3, 1.2)])
    func renderingAllocatesNothing(tempo: Float, pitch: Float, speed: Float) throws {
        let input = [Signal.noise(frames: 20 * 44100, seed: 6), Signal.noise(frames: 20 * 44100, seed: 7)]
        let make = {
            try TimePitchGraph(try TimePitchNode(tempo: tempo, pitch: pitch, speed: speed), channels: input, maximumFrames: 512) { graph, node in
                try graph.scheduleParameter(TimePitchNode.Parameter.tempo, on: node, value: tempo == 4 ? 3 : tempo * 1.1, atFrame: 300_000)
            }
        }
        let warmUp = try make()
        while case .rendered = try warmUp.output.renderSlice(frameCount: 512) {}
        let harness = try make()
        var slices = 0
        let before = malloc_counter_thread_allocations()
        while case .rendered = try harness.output.renderSlice(frameCount: 512) { slices += 1 }
        #expect(malloc_counter_thread_allocations() - before == 0, "tempo \(tempo), pitch \(pitch), speed \(speed)")
        #expect(slices > 400)
    }

    @Test func aResetGraphRendersTheSameSamplesAgain() throws {
        let input = [Signal.noise(frames: 40_000, seed: 10)]
        let harness = try TimePitchGraph(try TimePitchNode(tempo: 1.3, pitch: 4), channels: input) { graph, node in
            try graph.scheduleParameter(TimePitchNode.Parameter.tempo, on: node, value: 0.9, atFrame: 9000)
        }
        let first = try harness.render(sliceSize: 1000)
        #expect(harness.node.parameter(TimePitchNode.Parameter.tempo) == 0.9)
        try harness.graph.reset()
        #expect(harness.node.parameter(TimePitchNode.Parameter.tempo) == 1.3)
        let second = try harness.render(sliceSize: 333)
        #expect(!first[0].isEmpty)
        #expect(second == first)
    }

    /// A tempo change mid-stream: the tone keeps its pitch on both sides, the first part is
    /// shortened by the first tempo and the rest by the second, and the end lands where they say.
    @Test func tempoChangesWhileRendering() throws {
        let input = Signal.sine(frequency: 440, sampleRate: Self.rate, frames: 4 * 44100)
        let harness = try TimePitchGraph(try TimePitchNode(tempo: 1.25), channels: [input]) { graph, node in
            try graph.scheduleParameter(TimePitchNode.Parameter.tempo, on: node, value: 0.8, atFrame: 44100)
        }
        let output = try harness.render(sliceSize: 512)[0]
        let expected = 44100 + (4 * 44100 - 44100 * 1.25) / 0.8
        #expect(abs(Double(output.count) - expected) < 0.05 * Self.rate, "\(output.count) frames, about \(expected) due")
        #expect(abs(Tone.frequency(output[4410..<39690], sampleRate: Self.rate) - 440) <= 1)
        #expect(abs(Tone.frequency(output[60000..<output.count - 8000], sampleRate: Self.rate) - 440) <= 1)
    }

    /// A tempo change starts SoundTouch even when the node began as a pass-through.
    @Test func aTempoChangeStartsStretchingAPassThrough() throws {
        let input = Signal.sine(frequency: 440, sampleRate: Self.rate, frames: 3 * 44100)
        let harness = try TimePitchGraph(try TimePitchNode(), channels: [input]) { graph, node in
            try graph.scheduleParameter(TimePitchNode.Parameter.tempo, on: node, value: 2, atFrame: 44100)
        }
        let output = try harness.render(sliceSize: 1024)[0]
        #expect(Array(output.prefix(44100)) == Array(input.prefix(44100)), "untouched until the change")
        #expect(output.count == 44100 + 44100, "then the last two seconds take one")
        #expect(abs(Tone.frequency(output[50000..<84000], sampleRate: Self.rate) - 440) <= 1)
    }

    @Test func pitchAndSpeedAreFixedWhileRendering() throws {
        #expect(throws: GraphError.parameterFixedWhileRendering(node: "timepitch", name: "pitch")) {
            _ = try TimePitchGraph(try TimePitchNode(), channels: [Self.tone]) { graph, node in
                try graph.scheduleParameter(TimePitchNode.Parameter.pitch, on: node, value: 3, atFrame: 100)
            }
        }
        #expect(throws: GraphError.parameterFixedWhileRendering(node: "timepitch", name: "speed")) {
            _ = try TimePitchGraph(try TimePitchNode(), channels: [Self.tone]) { graph, node in
                try graph.scheduleParameter(TimePitchNode.Parameter.speed, on: node, value: 2, atFrame: 100)
            }
        }
    }

    @Test func valuesOutOfRangeAreRefusedNamingTheParameterAndItsRange() throws {
        #expect(throws: GraphError.parameterOutOfRange(node: "timepitch", name: "tempo", value: 5, range: 0.25...4)) {
            try TimePitchNode(tempo: 5)
        }
        #expect(GraphError.parameterOutOfRange(node: "timepitch", name: "pitch", value: 30, range: -24...24).description
                == "parameter 'pitch' of node 'timepitch' must be from -24.0 to 24.0, not 30.0")
        let kind = try #require(NodeCatalogue.kind(named: "timepitch"))
        let context = NodeContext(sampleRate: 44100, findPreset: { name in throw PresetError(source: name, field: nil, problem: "none") })
        #expect(throws: NodeSettingError(node: "t", kind: "timepitch", field: "speed", problem: "must be from 0.25 to 4, not 0.1")) {
            try NodeCatalogue.make("t", kind: kind, fields: ["speed": 0.1], context: context)
        }
        let made = try #require(try NodeCatalogue.make("t", kind: kind, fields: ["tempo": 1.5, "pitch": "-3", "quality": "medium"],
                                                       context: context) as? TimePitchNode)
        #expect(made.parameter(TimePitchNode.Parameter.tempo) == 1.5 && made.parameter(TimePitchNode.Parameter.pitch) == -3)
        #expect(made.quality == .medium)
        #expect(made.planDetail == "tempo 1.5, pitch -3 st, stretched by SoundTouch \(TimeStretcher.libraryVersion), resampled by soxr medium")
        #expect(try TimePitchNode(speed: 1.25).planDetail == "speed 1.25, resampled by soxr best")
        #expect(try TimePitchNode(pitch: 12).planDetail == "pitch +12 st, stretched by SoundTouch \(TimeStretcher.libraryVersion), resampled by soxr best")
        #expect(try TimePitchNode().planDetail == "pass-through")
    }

    @Test func moreChannelsThanSoundTouchTakesAreRefusedAtInitialize() throws {
        #expect(throws: GraphError.self) {
            _ = try TimePitchGraph(try TimePitchNode(tempo: 1.1), channels: Array(repeating: [0, 0, 0], count: 17))
        }
    }
}
