import AudioGraph

/// Something that feeds a graph from a file through a render callback.
public protocol FileSource: AnyObject {
    /// What it produces, in the canonical form.
    var format: StreamFormat { get }
    /// Frames handed to the graph so far.
    var framesRead: Int64 { get }
    /// Fills `buffers` with the next `request.frameCount` frames; a `RenderCallback`.
    func render(_ flags: inout RenderActionFlags, _ request: RenderRequest, _ buffers: AudioBufferList) throws -> Int
}

extension FileSource {
    /// Feeds input bus `bus` of `node` in `graph` from this source, setting that bus's format.
    public func attach(to node: AudioNode, bus: Int = 0, in graph: Graph) throws {
        try node.setStreamFormat(format, scope: .input, bus: bus)
        try graph.setRenderCallback(for: node, bus: bus) { [self] flags, request, buffers in
            try render(&flags, request, buffers)
        }
    }
}

/// A file source that can go back to its first frame, so the graph it feeds can render again
/// after `Graph.reset()`. A source reading a pipe or reading ahead on a thread cannot.
public protocol RewindableSource: FileSource {
    /// Goes back to the first frame; the next render reads the file from its start.
    func rewind() throws
}
