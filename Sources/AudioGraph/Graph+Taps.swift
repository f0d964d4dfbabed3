extension Graph {
    /// Installs a tap on output bus `bus` of `node`: `block` sees every slice that bus gives,
    /// once and in order, as AVAudioEngine's `installTap(onBus:bufferSize:format:block:)` does.
    ///
    /// The block gets a read-only view of the slice, no copy, and the slice's sample time: the
    /// frame index of its first frame in that bus's own stream, counted from `initialize()` or
    /// `reset()` whenever the tap was installed. It is the output's sample time unless a node
    /// downstream changes the stream's length or rate (time and pitch, a rate converter, a trim).
    /// The block runs on the render thread, inside `renderSlice`; see `TapBlock`. A tap reads,
    /// so the output is the same with or without it. A bus that feeds nothing is never pulled,
    /// so its tap sees nothing; the generic output's bus 0 is the graph's output.
    ///
    /// Install and remove taps between slices, on the thread that renders (the graph is not
    /// `Sendable`, so Swift keeps it to one thread at a time): before or after `initialize()`,
    /// and a change takes effect at the next slice, with no lock on the render path. A block may
    /// remove its own tap; the call it is in is its last.
    ///
    /// Throws `GraphError.nodeNotInGraph`, `.noSuchBus` for a bus the node does not have and
    /// `.tapAlreadyInstalled` when the bus has a tap: remove it first.
    public func installTap(on node: AudioNode, bus: Int = 0, block: @escaping TapBlock) throws(GraphError) {
        try requireOutputBus(bus, of: node)
        if node.outputTaps[bus].block != nil { throw .tapAlreadyInstalled(node: node.name, bus: bus) }
        node.outputTaps[bus].block = block
    }

    /// Removes the tap of output bus `bus` of `node`, if it has one; its block is not called
    /// again. Throws as `installTap(on:bus:block:)` does for a node or a bus that is not there.
    public func removeTap(on node: AudioNode, bus: Int = 0) throws(GraphError) {
        try requireOutputBus(bus, of: node)
        node.outputTaps[bus].block = nil
    }

    private func requireOutputBus(_ bus: Int, of node: AudioNode) throws(GraphError) {
        try requireMember(node)
        guard node.outputTaps.indices.contains(bus) else { throw .noSuchBus(node: node.name, scope: .output, bus: bus) }
    }
}
