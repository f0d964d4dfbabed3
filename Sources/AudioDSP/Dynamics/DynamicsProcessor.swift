/// A dynamics kernel that processes channels in place, sample by sample, with settings that may
/// change between blocks: what the compressor and the gate have in common, so one node type
/// (`DynamicsNode`) can host either.
public protocol DynamicsProcessor: Sendable {
    associatedtype Settings: Sendable
    /// A processor at `settings` for a stream at `sampleRate`.
    init(settings: Settings, sampleRate: Double)
    /// Takes new settings, keeping the detector's state.
    mutating func update(_ settings: Settings)
    /// Back to the state of a new processor.
    mutating func reset()
    /// Processes `frames` frames of `channelCount` channels in place.
    mutating func process(_ channels: UnsafePointer<UnsafeMutablePointer<Float>>, channelCount: Int, frames: Int)
}

extension Compressor: DynamicsProcessor {}
extension NoiseGate: DynamicsProcessor {}
