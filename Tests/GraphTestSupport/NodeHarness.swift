import AudioGraph
import MallocCounter
import Foundation

/// A graph of callback source → one node → generic output over a fixed signal, for the node
/// and plugin tests.
public final class NodeHarness {
    public let graph = Graph()
    public let node: AudioNode
    public let output = GenericOutput()
    private let channels: [[Float]]
    private var position = 0

    /// Feeds `channels` at `sampleRate` through `node`, in slices of at most `maximumFrames`.
    public init(node: AudioNode, channels: [[Float]], sampleRate: Double = 44100, maximumFrames: Int = 4096) throws {
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

    /// Renders up to `frames` frames (everything by default) in slices of `sliceSize`.
    public func render(sliceSize: Int = 4096, frames limit: Int = .max) throws -> [[Float]] {
        try output.renderAll(sliceSize: sliceSize, frames: limit)
    }
}

extension GenericOutput {
    /// Pulls up to `frames` frames (everything by default) in slices of `sliceSize`, returning
    /// each channel's samples.
    public func renderAll(sliceSize: Int = 4096, frames limit: Int = .max) throws -> [[Float]] {
        var result = Array(repeating: [Float](), count: streamFormat(scope: .input)?.channelCount ?? 0)
        while (result.first?.count ?? 0) < limit,
              case .rendered(let frames) = try renderSlice(frameCount: min(sliceSize, limit - (result.first?.count ?? 0))) {
            for channel in result.indices {
                result[channel].append(contentsOf: UnsafeBufferPointer(start: buffers[channel], count: frames))
            }
        }
        return result
    }
}

/// A test graph that renders through a generic output.
public protocol RendersToOutput: AnyObject {
    /// The graph's generic output.
    var output: GenericOutput { get }
}

extension NodeHarness: RendersToOutput {}

/// Counts the allocations of a whole render after its first slice, in slices of `sliceSize`.
///
/// `makeHarness` builds the graph; it is called twice, and the first graph is rendered to its
/// end uncounted, so the Swift runtime's type metadata for every path is in place (it is made
/// once per process, and tests run in parallel): what is counted is the steady state.
public func steadyStateAllocations(sliceSize: Int, _ makeHarness: () throws -> RendersToOutput) throws -> (allocations: Int, slices: Int) {
    let warmUp = try makeHarness()
    while case .rendered = try warmUp.output.renderSlice(frameCount: sliceSize) {}
    let harness = try makeHarness()
    _ = try harness.output.renderSlice(frameCount: sliceSize)
    let before = malloc_counter_thread_allocations()
    var slices = 0
    while case .rendered = try harness.output.renderSlice(frameCount: sliceSize) { slices += 1 }
    return (malloc_counter_thread_allocations() - before, slices)
}
