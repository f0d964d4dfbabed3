/// Which part of a node a property or format belongs to.
///
/// Core Audio's `AudioUnitScope`: the global scope is the whole unit (element 0); the
/// input and output scopes hold numbered elements, also called buses.
public enum Scope: String, Sendable, Codable {
    case global, input, output
}
