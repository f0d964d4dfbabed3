import AudioGraph
import Foundation
import PluginHost

/// A graph of callback source → one plugin node → generic output over a fixed signal.
final class PluginHarness {
    let graph = Graph()
    let node: AudioNode
    let output = GenericOutput()
    private let channels: [[Float]]
    private var position = 0

    init(node: AudioNode, channels: [[Float]], sampleRate: Double = 44100, maximumFrames: Int = 4096) throws {
        self.node = node
        self.channels = channels
        try graph.setMaximumFramesPerSlice(maximumFrames)
        try graph.addNode(node)
        try graph.addNode(output)
        try node.setStreamFormat(.canonical(sampleRate: sampleRate, channelCount: channels.count), scope: .input)
        try graph.setRenderCallback(for: node) { [unowned self] flags, request, buffers in
            let frames = min(request.frameCount, self.channels[0].count - position)
            for channel in 0..<buffers.channelCount {
                self.channels[channel].withUnsafeBufferPointer { source in
                    buffers[channel].update(from: source.baseAddress! + position, count: frames)
                }
            }
            position += frames
            buffers.endStream(filled: frames, requested: request.frameCount, flags: &flags)
            return frames
        }
        try graph.connect(node, to: output)
        try graph.initialize()
    }

    /// Renders everything in slices of `sliceSize`.
    func render(sliceSize: Int = 4096) throws -> [[Float]] {
        var result = Array(repeating: [Float](), count: channels.count)
        while case .rendered(let frames) = try output.renderSlice(frameCount: sliceSize) {
            for channel in result.indices {
                result[channel].append(contentsOf: UnsafeBufferPointer(start: output.buffers[channel], count: frames))
            }
        }
        return result
    }
}

/// A deterministic test signal: a 441 Hz sine at `amplitude` plus a little pseudo-random noise.
func testSignal(frames: Int, channels: Int, amplitude: Float = 0.5) -> [[Float]] {
    var seed: UInt32 = 12345
    return (0..<channels).map { channel in
        (0..<frames).map { frame in
            seed = seed &* 1_664_525 &+ 1_013_904_223
            let noise: Float = Float(seed >> 8) / Float(1 << 24) - 0.5
            let phase: Double = 2 * Double.pi * 441 * Double(frame) / 44100 + Double(channel)
            return amplitude * Float(sin(phase)) + 0.01 * noise
        }
    }
}

/// A plugin node from a spec, at 44.1 kHz.
func pluginNode(_ spec: String, tail: Int64 = 441_000, sampleRate: Double = 44100) throws(PluginError) -> PluginNode {
    try PluginSpec(parsing: spec).makeNode(name: "plugin", sampleRate: sampleRate, tailLimit: tail)
}
