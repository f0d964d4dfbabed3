import AudioGraph
import AudioNodes
import Foundation
import TestSupport
import Testing

/// Two callbacks → (EQ on the first) → mixer → generic output, with a gain change scheduled.
/// The callbacks read from positions the test rewinds, as a caller of `Graph.reset()` must.
final class ResettableMix {
    let graph = Graph()
    let eq: GraphicEQNode
    let mixer: MixerNode
    let output = GenericOutput()
    private let signals: [[Float]]
    var positions = [0, 0]

    init(frames: Int = 20000) throws {
        signals = [Signal.noise(frames: frames, seed: 3), Signal.sine(frequency: 220, sampleRate: 8000, frames: frames / 2)]
        let presets = try EQPresetLibrary.builtIn
        eq = try GraphicEQNode(presets: [try #require(EQPresetLibrary.find("Bass Booster", in: presets)),
                                         try #require(EQPresetLibrary.find("Treble Booster", in: presets))])
        mixer = try MixerNode(inputBusCount: 2, output: .canonical(sampleRate: 8000, channelCount: 2))
        for node in [eq, mixer, output] as [AudioNode] { try graph.addNode(node) }
        try eq.setStreamFormat(.canonical(sampleRate: 8000, channelCount: 1), scope: .input)
        try mixer.setStreamFormat(.canonical(sampleRate: 8000, channelCount: 1), scope: .input, bus: 1)
        try graph.setRenderCallback(for: eq) { [unowned self] flags, request, buffers in feed(0, &flags, request, buffers) }
        try graph.setRenderCallback(for: mixer, bus: 1) { [unowned self] flags, request, buffers in feed(1, &flags, request, buffers) }
        try graph.connect(eq, to: mixer, inputBus: 0)
        try graph.connect(mixer, to: output)
        try mixer.setParameter(MixerNode.id(.pan, bus: 1), 0.5)
        try graph.scheduleParameter(MixerNode.id(.gain, bus: 0), on: mixer, value: -12, atFrame: 3001)
        try graph.scheduleParameter(GraphicEQNode.Parameter.preset, on: eq, value: 1, atFrame: 7000)
        try graph.initialize()
    }

    private func feed(_ index: Int, _ flags: inout RenderActionFlags, _ request: RenderRequest, _ buffers: AudioBufferList) -> Int {
        let frames = min(request.frameCount, signals[index].count - positions[index])
        signals[index].withUnsafeBufferPointer { buffers[0].update(from: $0.baseAddress! + positions[index], count: frames) }
        positions[index] += frames
        buffers.endStream(filled: frames, requested: request.frameCount, flags: &flags)
        return frames
    }

    func render(sliceSize: Int) throws -> [[Float]] {
        var result: [[Float]] = [[], []]
        while case .rendered(let frames) = try graph.renderSlice(frameCount: sliceSize) {
            for channel in result.indices {
                result[channel].append(contentsOf: UnsafeBufferPointer(start: output.buffers[channel], count: frames))
            }
        }
        return result
    }
}

@Suite struct GraphResetTests {
    @Test func aResetGraphRendersTheSameSamplesAgain() throws {
        let mix = try ResettableMix()
        let first = try mix.render(sliceSize: 512)
        #expect(first[0].count == 20000)
        #expect(mix.mixer.parameter(MixerNode.id(.gain, bus: 0)) == -12)
        try mix.graph.reset()
        mix.positions = [0, 0]
        #expect(mix.mixer.parameter(MixerNode.id(.gain, bus: 0)) == 0, "reset undoes the scheduled changes")
        #expect(mix.output.sampleTime == 0)
        let second = try mix.render(sliceSize: 700)
        #expect(second == first)
    }

    @Test func aResetInTheMiddleStartsOverFromTheFirstFrame() throws {
        let mix = try ResettableMix()
        let whole = try mix.render(sliceSize: 4096)
        try mix.graph.reset()
        mix.positions = [0, 0]
        _ = try mix.graph.renderSlice(frameCount: 4096)
        _ = try mix.graph.renderSlice(frameCount: 4000)
        try mix.graph.reset()
        mix.positions = [0, 0]
        #expect(try mix.render(sliceSize: 1000) == whole)
    }

    @Test func aGraphInitializedAgainRendersTheSameSamples() throws {
        let mix = try ResettableMix()
        let first = try mix.render(sliceSize: 512)
        mix.graph.uninitialize()
        try mix.graph.initialize()
        mix.positions = [0, 0]
        #expect(try mix.render(sliceSize: 512) == first)
    }

    @Test func resettingAnUninitializedGraphIsRefused() {
        #expect(throws: GraphError.notInitialized) { try Graph().reset() }
    }
}
