import AudioGraph
import AudioNodes
import Foundation
import GraphTestSupport
import MallocCounter
import TestSupport
import Testing

/// Sources → mixer → generic output, each source a fixed signal that counts its pulls.
final class MixHarness: RendersToOutput {
    let graph = Graph()
    let mixer: MixerNode
    let output = GenericOutput()
    var pulls: [Int]
    private var signals: [[[Float]]]
    private var positions: [Int]

    init(inputs: [[[Float]]], outputChannels: Int, sampleRate: Double = 8000, maximumFrames: Int = 4096,
         configure: (MixerNode) throws -> Void = { _ in }) throws {
        signals = inputs
        positions = Array(repeating: 0, count: inputs.count)
        pulls = Array(repeating: 0, count: inputs.count)
        mixer = try MixerNode(inputBusCount: inputs.count, output: .canonical(sampleRate: sampleRate, channelCount: outputChannels))
        try graph.setMaximumFramesPerSlice(maximumFrames)
        try graph.addNode(mixer)
        try graph.addNode(output)
        for (bus, channels) in inputs.enumerated() {
            try mixer.setStreamFormat(.canonical(sampleRate: sampleRate, channelCount: channels.count), scope: .input, bus: bus)
            try graph.setRenderCallback(for: mixer, bus: bus) { [unowned self] flags, request, buffers in
                pulls[bus] += 1
                let frames = min(request.frameCount, signals[bus][0].count - positions[bus])
                for channel in 0..<buffers.channelCount {
                    signals[bus][channel].withUnsafeBufferPointer { buffers[channel].update(from: $0.baseAddress! + positions[bus], count: frames) }
                }
                positions[bus] += frames
                buffers.endStream(filled: frames, requested: request.frameCount, flags: &flags)
                return frames
            }
        }
        try graph.connect(mixer, to: output)
        try configure(mixer)
        try graph.initialize()
    }

    func render(sliceSize: Int = 4096) throws -> [[Float]] {
        try output.renderAll(sliceSize: sliceSize)
    }
}

@Suite struct MixerNodeTests {
    @Test func twoSignalsMixToTheirWeightedSum() throws {
        let a = Signal.noise(frames: 5000, seed: 1), b = Signal.noise(frames: 5000, seed: 2)
        let harness = try MixHarness(inputs: [[a], [b]], outputChannels: 1) { mixer in
            try mixer.setParameter(MixerNode.id(.gain, bus: 0), -6)
        }
        let mixed = try harness.render()[0]
        let gain = powf(10, -6.0 / 20)
        #expect(mixed == zip(a, b).map { (0 + gain * $0) + $1 })
    }

    @Test(arguments: [(Float(-1), Float(1), Float(0)), (0, 0.70710677, 0.70710677), (1, 0, 1)])
    func monoPanIsConstantPower(pan: Float, left: Float, right: Float) throws {
        let harness = try MixHarness(inputs: [[[Float](repeating: 1, count: 100)]], outputChannels: 2) { mixer in
            try mixer.setParameter(MixerNode.id(.pan, bus: 0), pan)
        }
        let mixed = try harness.render()
        #expect(abs(mixed[0][50] - left) < 1e-6 && abs(mixed[1][50] - right) < 1e-6)
        #expect(abs(mixed[0][50] * mixed[0][50] + mixed[1][50] * mixed[1][50] - 1) < 1e-6, "constant power")
    }

    @Test(arguments: [(Float(-1), Float(1), Float(0)), (-0.5, 1, 0.5), (0, 1, 1), (0.5, 0.5, 1)])
    func stereoPanIsABalance(pan: Float, left: Float, right: Float) throws {
        let ones = [Float](repeating: 1, count: 100)
        let harness = try MixHarness(inputs: [[ones, ones]], outputChannels: 2) { mixer in
            try mixer.setParameter(MixerNode.id(.pan, bus: 0), pan)
        }
        let mixed = try harness.render()
        #expect(mixed[0][10] == left && mixed[1][10] == right)
    }

    @Test func disabledBusesAreNotPulledAndMutedOnesAre() throws {
        let one = [Float](repeating: 0.25, count: 10_000)
        let harness = try MixHarness(inputs: [[one], [one], [one]], outputChannels: 1) { mixer in
            try mixer.setParameter(MixerNode.id(.enable, bus: 1), 0)
            try mixer.setParameter(MixerNode.id(.mute, bus: 2), 1)
        }
        let mixed = try harness.render(sliceSize: 1000)[0]
        #expect(mixed.count == 10_000 && mixed.allSatisfy { $0 == 0.25 })
        #expect(harness.pulls[1] == 0, "a disabled bus is not pulled")
        #expect(harness.pulls[2] == harness.pulls[0], "a muted bus keeps its place in time")
    }

    @Test func theMixEndsWithTheLongestInput() throws {
        let short = [Float](repeating: 0.5, count: 1000), long = [Float](repeating: 0.25, count: 2500)
        let mixed = try MixHarness(inputs: [[short], [long]], outputChannels: 1).render(sliceSize: 700)[0]
        #expect(mixed.count == 2500)
        #expect(mixed[999] == 0.75 && mixed[1000] == 0.25 && mixed[2499] == 0.25)
    }

    /// A late bus starts on its exact frame whatever the slice size.
    @Test func startOffsetsLandOnTheirFrame() throws {
        let a = Signal.noise(frames: 3000, seed: 3), b = Signal.noise(frames: 1000, seed: 4)
        var outputs: [[Float]] = []
        for slice in [1, 64, 4096] {
            let harness = try MixHarness(inputs: [[a], [b]], outputChannels: 1) { mixer in
                try mixer.setStartOffset(frames: 2333, bus: 1)
            }
            outputs.append(try harness.render(sliceSize: slice)[0])
        }
        #expect(outputs[0] == outputs[1] && outputs[1] == outputs[2])
        let mixed = outputs[0]
        #expect(mixed.count == 3333)
        #expect(mixed[2332] == a[2332] && mixed[2333] == a[2333] + b[0] && mixed[3332] == b[999])
    }

    @Test func gainChangesGlideWithoutAClick() throws {
        let harness = try MixHarness(inputs: [[[Float](repeating: 0.5, count: 2000)]], outputChannels: 1)
        var mixed: [Float] = []
        for (slice, gain) in [(700, Float(0)), (700, -12), (600, 0)] {
            try harness.mixer.setParameter(MixerNode.id(.gain, bus: 0), gain)
            guard case .rendered(let frames) = try harness.output.renderSlice(frameCount: slice) else { break }
            mixed += UnsafeBufferPointer(start: harness.output.buffers[0], count: frames)
        }
        let steps = zip(mixed, mixed.dropFirst()).map { abs($0 - $1) }
        #expect(steps.max()! <= 0.5 * (1 - powf(10, -12.0 / 20)) / Float(MixerNode.rampFrames) + 1e-6, "no step beyond the glide's")
        #expect(mixed[699] == 0.5 && abs(mixed[700 + MixerNode.rampFrames] - 0.5 * powf(10, -12.0 / 20)) < 1e-6)
        #expect(mixed[1999] == 0.5)
    }

    @Test func masterVolumeScalesTheMix() throws {
        let harness = try MixHarness(inputs: [[[Float](repeating: 0.5, count: 10)]], outputChannels: 1) { mixer in
            try mixer.setParameter(MixerNode.masterVolume, -6.0206)
        }
        #expect(abs(try harness.render()[0][5] - 0.25) < 1e-5)
    }

    @Test func inputsMustShareTheMixRate() throws {
        let mixer = try MixerNode(inputBusCount: 1, output: .canonical(sampleRate: 48000, channelCount: 2))
        let graph = Graph()
        try graph.addNode(mixer)
        try graph.addNode(GenericOutput())
        try mixer.setStreamFormat(.canonical(sampleRate: 44100, channelCount: 2), scope: .input)
        try graph.setRenderCallback(for: mixer) { _, request, _ in request.frameCount }
        try graph.connect(mixer, to: graph.output!)
        #expect(throws: GraphError.self) { try graph.initialize() }
    }

    @Test func busCountCanChangeBeforeInitialize() throws {
        let mixer = try MixerNode(inputBusCount: 1, output: .canonical(sampleRate: 8000, channelCount: 2))
        try mixer.setParameter(MixerNode.id(.gain, bus: 0), -3)
        try mixer.setBusCount(3)
        #expect(mixer.inputBusCount == 3)
        #expect(mixer.parameter(MixerNode.id(.gain, bus: 0)) == -3)
        try mixer.setParameter(MixerNode.id(.pan, bus: 2), 0.5)
        #expect(throws: GraphError.self) { try mixer.setParameter(MixerNode.id(.pan, bus: 3), 0.5) }
    }

    @Test func mixingAllocatesNothing() throws {
        let a = Signal.noise(frames: 200_000, seed: 5), b = Signal.noise(frames: 150_000, seed: 6)
        let (allocations, slices) = try steadyStateAllocations(sliceSize: 512) {
            try MixHarness(inputs: [[a], [b, b]], outputChannels: 2, maximumFrames: 512) { mixer in
                try mixer.setStartOffset(frames: 10_000, bus: 1)
                try mixer.setParameter(MixerNode.id(.pan, bus: 0), -0.3)
            }
        }
        #expect(slices > 300)
        #expect(allocations == 0)
    }
}
