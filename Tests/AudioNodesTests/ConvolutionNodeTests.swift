import AudioGraph
import AudioNodes
import Foundation
import GraphTestSupport
import TestSupport
import Testing

/// The convolution node against direct convolution computed here in double precision: the
/// layouts (shared, per channel, true stereo), the wet/dry mix and gain, the tail, slice sizes,
/// responses at other rates, and what it refuses.
@Suite struct ConvolutionNodeTests {
    static let rate = 8000.0

    static func sum(_ a: [Double], _ b: [Double]) -> [Double] {
        (0..<max(a.count, b.count)).map { ($0 < a.count ? a[$0] : 0) + ($0 < b.count ? b[$0] : 0) }
    }

    static func node(_ responses: [[Float]], wet: Float = 100, gain: Float = 0, normalizes: Bool = false,
                     tail: Int64 = 60 * 8000) throws -> ConvolutionNode {
        try ConvolutionNode(response: ImpulseResponse(path: "test.wav", channels: responses, sampleRate: rate), normalizes: normalizes,
                            wet: wet, gain: gain, tailLimit: tail)
    }

    /// A 32-bit float WAV of `channels`.
    static func floatWave(_ channels: [[Float]], rate: UInt32) -> [UInt8] {
        let interleaved = (0..<channels[0].count).flatMap { frame in channels.map { $0[frame] } }
        let data = interleaved.flatMap { sample in withUnsafeBytes(of: sample.bitPattern.littleEndian) { Array($0) } }
        return WaveFile.bytes(channels: UInt16(channels.count), sampleRate: rate, bitsPerSample: 32, data: data, formatTag: 3)
    }

    @Test func aLongStereoResponseMatchesDirectConvolutionChannelByChannel() throws {
        // 1.5 s of random response at 8 kHz: partitions of 1024 frames, twelve of them.
        let responses = [DirectConvolution.noise(12_000, seed: 1, amplitude: 0.01), DirectConvolution.noise(11_000, seed: 2, amplitude: 0.01)]
        let input = [DirectConvolution.noise(8_000, seed: 3, amplitude: 0.5), DirectConvolution.noise(8_000, seed: 4, amplitude: 0.5)]
        let node = try Self.node(responses)
        #expect(node.partitionLength == 1024)
        let output = try NodeHarness(node: node, channels: input, sampleRate: Self.rate).render()
        for channel in 0..<2 {
            let reference = DirectConvolution.convolve(input[channel], responses[channel])
            #expect(DirectConvolution.errorLevel(output[channel], reference) < -120, "channel \(channel)")
        }
        // The tail runs to the longer convolution's last frame, whose level is far above -120 dBFS.
        #expect(output[0].count == 8_000 + 12_000 - 1)
    }

    @Test func aMonoResponseServesEveryChannel() throws {
        let response = DirectConvolution.noise(3_000, seed: 5, amplitude: 0.02)
        let input = (0..<3).map { DirectConvolution.noise(4_000, seed: UInt64(10 + $0), amplitude: 0.5) }
        let output = try NodeHarness(node: Self.node([response]), channels: input, sampleRate: Self.rate).render()
        #expect(output.count == 3)
        for channel in 0..<3 { #expect(DirectConvolution.errorLevel(output[channel], DirectConvolution.convolve(input[channel], response)) < -120) }
    }

    @Test func fourChannelsOnStereoAreTrueStereo() throws {
        let responses = (0..<4).map { DirectConvolution.noise(2_500 + 300 * $0, seed: UInt64(20 + $0), amplitude: 0.02) }
        let left = DirectConvolution.noise(5_000, seed: 30, amplitude: 0.5), right = DirectConvolution.noise(5_000, seed: 31, amplitude: 0.5)
        let node = try Self.node(responses)
        let output = try NodeHarness(node: node, channels: [left, right], sampleRate: Self.rate).render()
        #expect(node.planDetail?.contains("true stereo (LL, LR, RL, RR)") == true)
        // LL and RL make the left output, LR and RR the right.
        #expect(DirectConvolution.errorLevel(output[0], Self.sum(DirectConvolution.convolve(left, responses[0]), DirectConvolution.convolve(right, responses[2]))) < -120)
        #expect(DirectConvolution.errorLevel(output[1], Self.sum(DirectConvolution.convolve(left, responses[1]), DirectConvolution.convolve(right, responses[3]))) < -120)
    }

    @Test func wetDryAndGainMixAsDocumented() throws {
        let response = DirectConvolution.noise(900, seed: 40, amplitude: 0.05), input = DirectConvolution.noise(3_000, seed: 41, amplitude: 0.5)
        let output = try NodeHarness(node: Self.node([response], wet: 25, gain: -6), channels: [input], sampleRate: Self.rate).render()
        let convolved = DirectConvolution.convolve(input, response), wetGain = 0.25 * pow(10, -6.0 / 20)
        let reference = convolved.indices.map { convolved[$0] * wetGain + ($0 < input.count ? 0.75 * Double(input[$0]) : 0) }
        #expect(DirectConvolution.errorLevel(output[0], reference) < -120)
    }

    @Test func allDryIsTheInputFrameForFrame() throws {
        let input = DirectConvolution.noise(5_000, seed: 42, amplitude: 0.5)
        let output = try NodeHarness(node: Self.node([DirectConvolution.noise(2_000, seed: 43)], wet: 0), channels: [input], sampleRate: Self.rate).render()
        #expect(output[0] == input, "the dry signal comes out aligned, and the tail is silent")
    }

    @Test func normalizingGivesTheLoudestOutputUnitEnergy() throws {
        let responses = (0..<4).map { DirectConvolution.noise(1_000, seed: UInt64(50 + $0), amplitude: 0.3) }
        let energy = { (h: [Float]) in h.reduce(0.0) { $0 + Double($1) * Double($1) } }
        let loudest = max(energy(responses[0]) + energy(responses[2]), energy(responses[1]) + energy(responses[3]))
        let node = try Self.node(responses, normalizes: true)
        let input = [DirectConvolution.noise(2_000, seed: 60, amplitude: 0.5), DirectConvolution.noise(2_000, seed: 61, amplitude: 0.5)]
        let output = try NodeHarness(node: node, channels: input, sampleRate: Self.rate).render()
        #expect(abs(Double(node.scale) - 1 / loudest.squareRoot()) < 1e-6 / loudest.squareRoot())
        let scaled = responses.map { $0.map { $0 * node.scale } }
        #expect(DirectConvolution.errorLevel(output[0], Self.sum(DirectConvolution.convolve(input[0], scaled[0]), DirectConvolution.convolve(input[1], scaled[2]))) < -120)
        #expect(throws: ImpulseResponseError(path: "test.wav", problem: "is silent, so it cannot be normalized")) {
            try Self.node([[0, 0, 0]], normalizes: true)
        }
    }

    @Test(arguments: [1, 64, 65, 1000, 4096])
    func theOutputDoesNotDependOnTheSliceSize(sliceSize: Int) throws {
        let responses = [DirectConvolution.noise(5_000, seed: 70, amplitude: 0.01), DirectConvolution.noise(5_000, seed: 71, amplitude: 0.01)]
        let input = [DirectConvolution.noise(6_000, seed: 72, amplitude: 0.5), DirectConvolution.noise(6_000, seed: 73, amplitude: 0.5)]
        let reference = try NodeHarness(node: Self.node(responses, wet: 60, gain: 3), channels: input, sampleRate: Self.rate).render(sliceSize: 4096)
        let sliced = try NodeHarness(node: Self.node(responses, wet: 60, gain: 3), channels: input, sampleRate: Self.rate).render(sliceSize: sliceSize)
        #expect(sliced == reference)
    }

    @Test func anEventMovesTheMixAtItsFrame() throws {
        let input = DirectConvolution.noise(6_000, seed: 80, amplitude: 0.5), response = DirectConvolution.noise(500, seed: 81, amplitude: 0.05)
        let node = try Self.node([response], wet: 0)
        let graph = try ScheduledNodeGraph(node: node, channels: [input], sampleRate: Self.rate) { graph, node in
            try graph.scheduleParameter(ConvolutionNode.Parameter.wet.rawValue, on: node, value: 100, atFrame: 3_000)
        }
        let output = try graph.render(sliceSize: 700)
        let convolved = DirectConvolution.convolve(input, response)
        #expect(Array(output[0][..<3_000]) == Array(input[..<3_000]))
        #expect(DirectConvolution.errorLevel(Array(output[0][3_000...]), Array(convolved[3_000...])) < -120)
    }

    @Test func theTailStopsAtItsLimit() throws {
        let input = DirectConvolution.noise(2_000, seed: 90, amplitude: 0.5)
        let output = try NodeHarness(node: Self.node([DirectConvolution.noise(8_000, seed: 91, amplitude: 0.05)], tail: 800), channels: [input],
                                     sampleRate: Self.rate).render()
        #expect(output[0].count == 2_800)
    }

    @Test func renderingAllocatesNothing() throws {
        let responses = [DirectConvolution.noise(9_000, seed: 95, amplitude: 0.01), DirectConvolution.noise(9_000, seed: 96, amplitude: 0.01)]
        let signal = [DirectConvolution.noise(40_000, seed: 97, amplitude: 0.5), DirectConvolution.noise(40_000, seed: 98, amplitude: 0.5)]
        let (allocations, slices) = try steadyStateAllocations(sliceSize: 512) {
            try NodeHarness(node: Self.node(responses, wet: 50), channels: signal, sampleRate: Self.rate)
        }
        #expect(slices > 90)
        #expect(allocations == 0)
    }

    @Test func aResponseAtAnotherRateIsResampledKeepingItsResponse() throws {
        // A windowed-sinc low-pass at 16 kHz (cutoff 1 kHz, unit gain at DC), used at 8 kHz.
        let taps = 801, cutoff = 1000.0 / 16000
        let lowpass: [Float] = (0..<taps).map { n in
            let t = Double(n - taps / 2), window = 0.42 - 0.5 * cos(2 * .pi * Double(n) / Double(taps - 1)) + 0.08 * cos(4 * .pi * Double(n) / Double(taps - 1))
            return Float((t == 0 ? 2 * cutoff : sin(2 * .pi * cutoff * t) / (.pi * t)) * window)
        }
        let folder = try TemporaryFolder()
        try WaveFile.write(Self.floatWave([lowpass], rate: 16000), to: folder.file("lowpass-16k.wav"))
        let response = try ImpulseResponse.load(path: folder.file("lowpass-16k.wav"), sampleRate: Self.rate)
        #expect(response.fileRate == 16000 && response.resampledBy == "soxr best")
        #expect(response.frameCount == (taps + 1) / 2)
        let node = try ConvolutionNode(response: response, tailLimit: 0)
        #expect(node.planDetail?.contains("resampled from 16000 Hz by soxr best") == true)
        // Half a second of a tone in the pass band keeps its level; one in the stop band is gone.
        func level(_ frequency: Double) throws -> Double {
            let tone = Signal.sine(frequency: frequency, sampleRate: Self.rate, frames: 8000, amplitude: 0.5)
            let output = try NodeHarness(node: ConvolutionNode(response: response, tailLimit: 0), channels: [tone], sampleRate: Self.rate).render()
            return 20 * log10(Signal.rms(Array(output[0][2000..<6000])) / Signal.rms(Array(tone[2000..<6000])))
        }
        #expect(abs(try level(300)) < 0.05)
        #expect(try level(2500) < -60)
    }

    @Test func anUnreadableResponseIsNamedWithTheReason() throws {
        let folder = try TemporaryFolder()
        let missing = folder.file("missing.wav")
        let error = try #require(throws: ImpulseResponseError.self) { try ImpulseResponse.load(path: missing, sampleRate: Self.rate) }
        #expect(error.description.hasPrefix("impulse response \(missing): "))
        #expect(error.cause?.kind == .cannotOpen)
        try "not audio at all".write(toFile: folder.file("notes.wav"), atomically: true, encoding: .utf8)
        let garbage = try #require(throws: ImpulseResponseError.self) { try ImpulseResponse.load(path: folder.file("notes.wav"), sampleRate: Self.rate) }
        #expect(garbage.description.hasPrefix("impulse response \(folder.file("notes.wav")): "))
        try WaveFile.write(WaveFile.bytes(channels: 1, sampleRate: 8000), to: folder.file("empty.wav"))
        #expect(throws: ImpulseResponseError(path: folder.file("empty.wav"), problem: "holds no audio")) {
            try ImpulseResponse.load(path: folder.file("empty.wav"), sampleRate: Self.rate)
        }
    }

    @Test func channelCountsThatFitNoLayoutAreRefused() throws {
        let node = try Self.node([[1], [1], [1]])
        let error = try #require(throws: GraphError.self) { try NodeHarness(node: node, channels: [[0, 0], [0, 0]], sampleRate: Self.rate) }
        #expect("\(error)".contains("impulse response test.wav has 3 channels, which fit a 3-channel input, not 2 channels"))
    }

    @Test func graphFieldsAreCheckedWithTheirRanges() throws {
        let folder = try TemporaryFolder()
        try WaveFile.write(Self.floatWave([[1, 0.5]], rate: 8000), to: folder.file("ir.wav"))
        var context = NodeContext(sampleRate: Self.rate, findPreset: { name in throw ImpulseResponseError(path: name, problem: "is no preset") })
        context.paths = .anywhere(relativeTo: folder.path)
        let made = try NodeCatalogue.make("room", kind: ConvolutionNode.kind, fields: ["impulse": .text("ir.wav"), "wet": .number(40), "gain": .text("-3dB")],
                                          context: context)
        let node = try #require(made as? ConvolutionNode)
        #expect(node.parameter(ConvolutionNode.Parameter.wet.rawValue) == 40 && node.parameter(ConvolutionNode.Parameter.gain.rawValue) == -3)
        #expect(node.response.path == folder.file("ir.wav"))
        #expect(throws: NodeSettingError(node: "room", kind: "convolution", field: "wet", problem: "must be from 0 to 100, not 150")) {
            try NodeCatalogue.make("room", kind: ConvolutionNode.kind, fields: ["impulse": .text("ir.wav"), "wet": .number(150)], context: context)
        }
        #expect(throws: NodeSettingError(node: "room", kind: "convolution", field: "impulse", problem: "missing (\(ConvolutionNode.kind.setting("impulse")!.summary))")) {
            try NodeCatalogue.make("room", kind: ConvolutionNode.kind, fields: [:], context: context)
        }
    }
}

/// A signal → node → generic output graph whose source reads by sample time, with events
/// scheduled before it is initialized.
final class ScheduledNodeGraph: RendersToOutput {
    let graph = Graph()
    let output = GenericOutput()

    init(node: AudioNode, channels: [[Float]], sampleRate: Double, schedule: (Graph, AudioNode) throws -> Void) throws {
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

    func render(sliceSize: Int) throws -> [[Float]] {
        try output.renderAll(sliceSize: sliceSize)
    }
}
