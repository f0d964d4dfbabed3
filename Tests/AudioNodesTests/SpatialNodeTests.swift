import AudioDSP
import AudioGraph
import AudioNodes
import Foundation
import GraphTestSupport
import MallocCounter
import TestSupport
import Testing

/// Sources → spatial node → generic output, each source a fixed signal.
final class SpatialHarness: RendersToOutput {
    let graph = Graph()
    let node: SpatialNode
    let output = GenericOutput()
    private var signals: [[[Float]]]
    private var positions: [Int]

    init(inputs: [[[Float]]], rendering: SpatialNode.Rendering, layout: SpeakerLayout? = nil, sampleRate: Double = 48_000,
         maximumFrames: Int = 4096, configure: (SpatialNode, Graph) throws -> Void = { _, _ in }) throws {
        signals = inputs
        positions = Array(repeating: 0, count: inputs.count)
        node = try SpatialNode(inputBusCount: inputs.count, rendering: rendering, layout: layout, sampleRate: sampleRate)
        try graph.setMaximumFramesPerSlice(maximumFrames)
        try graph.addNode(node)
        try graph.addNode(output)
        for (bus, channels) in inputs.enumerated() {
            try node.setStreamFormat(.canonical(sampleRate: sampleRate, channelCount: channels.count), scope: .input, bus: bus)
            try graph.setRenderCallback(for: node, bus: bus) { [unowned self] flags, request, buffers in
                let frames = min(request.frameCount, signals[bus][0].count - positions[bus])
                for channel in 0..<buffers.channelCount {
                    signals[bus][channel].withUnsafeBufferPointer { buffers[channel].update(from: $0.baseAddress! + positions[bus], count: frames) }
                }
                positions[bus] += frames
                buffers.endStream(filled: frames, requested: request.frameCount, flags: &flags)
                return frames
            }
        }
        try graph.connect(node, to: output)
        try configure(node, graph)
        try graph.initialize()
    }

    func render(sliceSize: Int = 4096) throws -> [[Float]] {
        try output.renderAll(sliceSize: sliceSize)
    }
}

@Suite struct SpatialNodeTests {
    static func power(_ signal: [Float], from start: Int = 0) -> Double {
        signal[start...].reduce(0) { $0 + Double($1) * Double($1) } / Double(signal.count - start)
    }

    /// An impulse at frame 1000 comes out of the binaural node at frame 1000 plus the HRIR's own
    /// onset (under 2 ms): the partition's latency is hidden, and the output is as long as the input.
    @Test func binauralOutputLinesUpWithTheInput() throws {
        var impulse = [Float](repeating: 0, count: 6000)
        impulse[1000] = 1
        let out = try SpatialHarness(inputs: [[impulse]], rendering: .binaural).render(sliceSize: 512)
        #expect(out[0].count == 6000)
        let first = try #require(out[0].firstIndex { abs($0) > 1e-3 })
        #expect(first >= 1000 && first < 1000 + 96, "the response starts at \(first)")
        #expect(out[0][..<1000].allSatisfy { abs($0) < 1e-6 })
    }

    /// A source moving by events every 300 frames (binaural, speakers and pan) renders the same
    /// bits in slices of 64, 1000 and 4096 frames.
    @Test(arguments: [SpatialNode.Rendering.binaural, .speakers, .pan])
    func aMovingSourceRendersTheSameForAnySliceSize(rendering: SpatialNode.Rendering) throws {
        let noise = DirectConvolution.noise(20_000, seed: 9, amplitude: 0.5)
        var outputs: [[[Float]]] = []
        for slice in [64, 1000, 4096] {
            let harness = try SpatialHarness(inputs: [[noise], [noise.reversed()]], rendering: rendering, layout: .surround51) { node, graph in
                for step in 0..<60 {
                    try graph.scheduleParameter(SpatialNode.id(.azimuth, bus: 0), on: node, value: Float(step * 6 - 180), atFrame: Int64(step * 300))
                    try graph.scheduleParameter(SpatialNode.id(.distance, bus: 1), on: node, value: Float(1 + step % 7), atFrame: Int64(step * 300 + 150))
                }
                try graph.scheduleParameter(SpatialNode.Parameter.yaw.rawValue, on: node, value: 45, atFrame: 7777)
            }
            outputs.append(try harness.render(sliceSize: slice))
        }
        #expect(outputs[0][0].count == 20_000)
        #expect(outputs[0][0].contains { abs($0) > 0.05 })
        #expect(outputs[1] == outputs[0])
        #expect(outputs[2] == outputs[0])
    }

    /// With 5.1 speakers a source at each speaker's angle feeds only that speaker.
    @Test(arguments: [(-30.0, 0), (30, 1), (0, 2), (-110, 4), (110, 5)])
    func aSourceAtASpeakersAngleFeedsOnlyThatSpeaker(azimuth: Double, channel: Int) throws {
        let ones = [Float](repeating: 0.5, count: 2000)
        let out = try SpatialHarness(inputs: [[ones]], rendering: .speakers, layout: .surround51) { node, _ in
            try node.setParameter(SpatialNode.id(.azimuth, bus: 0), Float(azimuth))
        }.render()
        for speaker in 0..<6 {
            let level = out[speaker][1000]
            #expect(abs(level - (speaker == channel ? 0.5 : 0)) < 1e-5, "speaker \(speaker) has \(level)")
        }
    }

    /// A source circling the listener in 5° steps keeps its summed power within 0.1 dB.
    @Test func theSummedPowerStaysWithinATenthOfADecibelAroundTheCircle() throws {
        let ones = [Float](repeating: 1, count: 72 * 400)
        let out = try SpatialHarness(inputs: [[ones]], rendering: .speakers, layout: .surround51) { node, graph in
            for step in 0..<72 {
                try graph.scheduleParameter(SpatialNode.id(.azimuth, bus: 0), on: node, value: Float(step * 5 - 180), atFrame: Int64(step * 400))
            }
        }.render()
        var decibels: [Double] = []
        for step in 0..<72 {
            var power = 0.0
            for speaker in 0..<6 { power += Double(out[speaker][step * 400 + 399]) * Double(out[speaker][step * 400 + 399]) }
            decibels.append(10 * log10(power))
        }
        #expect(decibels.max()! - decibels.min()! <= 0.1, "the power ranges over \(decibels.min()!)...\(decibels.max()!) dB")
    }

    /// Inverse distance by default: a source 2 m away is 6.02 dB down, 4 m away 12.04 dB; a
    /// linear model over 1…11 m at 6 m halves it.
    @Test func distanceLowersTheLevelAsTheModelSays() throws {
        let ones = [Float](repeating: 1, count: 1000)
        let pan = EqualPowerPan.gains(azimuth: 0).left
        for (distance, model, expected) in [(Float(2), Float(0), Float(0.5)), (4, 0, 0.25), (6, 1, 0.5)] {
            let out = try SpatialHarness(inputs: [[ones]], rendering: .pan) { node, _ in
                try node.setParameter(SpatialNode.id(.distance, bus: 0), distance)
                try node.setParameter(SpatialNode.Parameter.distanceModel.rawValue, model)
                try node.setParameter(SpatialNode.Parameter.maximumDistance.rawValue, 11)
            }.render()
            #expect(abs(out[0][500] - expected * pan) < 1e-5)
        }
    }

    /// A 5.1 bus rendered binaurally: its LFE reaches both ears alike at −3 dB, on time.
    @Test func aSurroundBusLFEReachesBothEarsAtMinus3dB() throws {
        var lfe = [Float](repeating: 0, count: 3000)
        lfe[1000] = 1
        let silent = [Float](repeating: 0, count: 3000)
        let out = try SpatialHarness(inputs: [[silent, silent, silent, lfe, silent, silent]], rendering: .binaural).render(sliceSize: 700)
        #expect(abs(out[0][1000] - SpatialNode.lfeGain) < 1e-5 && abs(out[1][1000] - SpatialNode.lfeGain) < 1e-5)
        #expect(out[0].enumerated().allSatisfy { $0.offset == 1000 || abs($0.element) < 1e-5 })
    }

    /// A bus started 1000 frames into the mix is silent until then and plays whole after, in
    /// any slice size and either rendering; the mix ends with the later bus.
    @Test(arguments: [SpatialNode.Rendering.binaural, .pan])
    func aLaterBusStartsOnItsFrame(rendering: SpatialNode.Rendering) throws {
        var impulse = [Float](repeating: 0, count: 3000)
        impulse[10] = 1
        var outputs: [[[Float]]] = []
        for slice in [4096, 300, 64] {
            let harness = try SpatialHarness(inputs: [[impulse], [impulse]], rendering: rendering) { node, _ in
                try node.setStartOffset(frames: 1000, bus: 1)
                try node.setParameter(SpatialNode.id(.gain, bus: 0), -96)
            }
            outputs.append(try harness.render(sliceSize: slice))
        }
        #expect(outputs[0][0].count == 4000)
        let first = try #require(outputs[0][0].firstIndex { abs($0) > 1e-4 })
        #expect(first >= 1010 && first < 1010 + 96, "the later bus's impulse is heard from \(first)")
        #expect(outputs[1] == outputs[0] && outputs[2] == outputs[0])
    }

    @Test(arguments: [SpatialNode.Rendering.binaural, .speakers])
    func renderingAllocatesNothing(rendering: SpatialNode.Rendering) throws {
        let noise = DirectConvolution.noise(30_000, seed: 4)
        let (allocations, slices) = try steadyStateAllocations(sliceSize: 512) {
            try SpatialHarness(inputs: [[noise], [noise, noise]], rendering: rendering, layout: .surround71) { node, graph in
                for step in 0..<50 {
                    try graph.scheduleParameter(SpatialNode.id(.azimuth, bus: step % 2), on: node, value: Float(step * 7 - 170), atFrame: Int64(step * 500))
                }
            }
        }
        #expect(slices > 10)
        #expect(allocations == 0)
    }
}
