extension Graph {
    /// Phase 1 of initialize: exactly one output node, every input bus fed, no cycles.
    /// Returns every node, each after the nodes that feed it.
    func validate() throws(GraphError) -> [AudioNode] {
        let outputs = nodes.filter { $0 is GenericOutput }
        guard !outputs.isEmpty else { throw .noOutputNode }
        guard outputs.count == 1 else { throw .multipleOutputNodes(outputs.map(\.name)) }

        var order: [AudioNode] = []
        var state: [ObjectIdentifier: VisitState] = [:]
        var path: [AudioNode] = []

        func visit(_ node: AudioNode) throws(GraphError) {
            switch state[ObjectIdentifier(node)] {
            case .done?: return
            case .visiting?:
                let start = path.firstIndex { $0 === node } ?? 0
                throw .cycle(path[start...].map(\.name) + [node.name])
            case nil: break
            }
            state[ObjectIdentifier(node)] = .visiting
            path.append(node)
            for bus in 0..<node.inputBusCount {
                switch source(of: node, bus: bus) {
                case .node(let upstream, _)?: try visit(upstream)
                case .callback?: break
                case nil: throw .inputNotFed(node: node.name, bus: bus)
                }
            }
            path.removeLast()
            state[ObjectIdentifier(node)] = .done
            order.append(node)
        }
        for node in outputs + nodes { try visit(node) }
        return order
    }

    private enum VisitState { case visiting, done }
}
