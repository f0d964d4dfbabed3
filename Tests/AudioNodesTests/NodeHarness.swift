import AudioGraph
import Foundation

/// A graph of callback source → one node → generic output over a fixed signal.
final class NodeHarness {
    let graph = Graph()
    let node: AudioNode
    let output = GenericOutput()
    private var channels: [[Float]]
    private var position = 0

    init(node: AudioNode, channels: [[Float]], sampleRate: Double, maximumFrames: Int = 4096) throws {
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
                buffers.zero(from: frames, frames: request.frameCount - frames)
            }
            position += frames
            if frames < request.frameCount { flags.insert(.endOfStream) }
            return frames
        }
        try graph.connect(node, to: output)
        try graph.initialize()
    }

    /// Renders up to `frames` frames (everything by default) in slices of `sliceSize`.
    func render(sliceSize: Int = 4096, frames limit: Int = .max) throws -> [[Float]] {
        var result = Array(repeating: [Float](), count: output.streamFormat(scope: .input)?.channelCount ?? 0)
        while result[0].count < limit, case .rendered(let frames) = try output.renderSlice(frameCount: min(sliceSize, limit - result[0].count)) {
            for channel in result.indices {
                result[channel].append(contentsOf: UnsafeBufferPointer(start: output.buffers[channel], count: frames))
            }
        }
        return result
    }
}

