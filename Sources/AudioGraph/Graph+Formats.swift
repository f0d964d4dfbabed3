extension Graph {
    /// Phase 2 of initialize: formats flow from each source's output bus to the input bus it
    /// feeds, in one direction only; where two formats still disagree, a converter is needed.
    /// `order` lists sources before the nodes they feed.
    func propagateFormats(in order: [AudioNode]) throws(GraphError) {
        for node in order {
            for bus in 0..<node.inputBusCount {
                guard case .node(let upstream, let upstreamBus)? = source(of: node, bus: bus) else {
                    if node.streamFormat(scope: .input, bus: bus) == nil {
                        throw .missingFormat(node: node.name, scope: .input, bus: bus)
                    }
                    continue
                }
                guard let produced = upstream.streamFormat(scope: .output, bus: upstreamBus) else {
                    throw .missingFormat(node: upstream.name, scope: .output, bus: upstreamBus)
                }
                if node.hasExplicitFormat(scope: .input, bus: bus),
                   let expected = node.streamFormat(scope: .input, bus: bus), expected != produced {
                    throw .formatMismatch(source: upstream.name, sourceBus: upstreamBus, destination: node.name,
                                          destinationBus: bus, sourceFormat: produced, destinationFormat: expected)
                }
                node.propagate(produced, scope: .input, bus: bus)
            }
            for bus in 0..<node.outputBusCount where !node.hasExplicitFormat(scope: .output, bus: bus) {
                node.propagate(node.defaultOutputFormat(bus: bus), scope: .output, bus: bus)
            }
            try node.validateFormats()
        }
    }
}
