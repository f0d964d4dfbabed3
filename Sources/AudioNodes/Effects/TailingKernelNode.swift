import AudioDSP
import AudioGraph

/// An effect kernel with a tail that a `TailingKernelNode` drives: made for a channel count, a
/// rate and settings, it processes blocks, takes new settings between them, and says whether it
/// still holds sound.
public protocol TailingEffectKernel: AnyObject {
    /// What the node's parameters stand for.
    associatedtype Settings
    /// A kernel whose sound under `quietLevel` counts as none.
    init(channelCount: Int, sampleRate: Double, settings: Settings, quietLevel: Float)
    /// Forgets all sound, as at the start.
    func reset()
    /// Takes new settings, from the next block.
    func update(_ settings: Settings)
    /// Whether sound is still to come out at or above the quiet level at frame `position` or later.
    func holdsSound(from position: Int64) -> Bool
    /// Processes `frames` frames, one buffer per channel.
    func process(input: UnsafePointer<UnsafeMutablePointer<Float>>, output: UnsafePointer<UnsafeMutablePointer<Float>>, frames: Int)
}

extension FeedbackDelay: TailingEffectKernel {}
extension Reverb: TailingEffectKernel {}

/// A `BlockEffectNode` over a kernel with a tail (`DelayNode`'s line, `ReverbNode`'s network):
/// the kernel made at initialize with the settings the parameters stand at, given them again
/// whenever a parameter changes, and asked whether its tail still sounds.
///
/// A node of a kind says only what is its own: its parameters, the settings they stand for
/// (`settings`), its plan and its catalogue entry.
public class TailingKernelNode<Kernel: TailingEffectKernel>: BlockEffectNode {
    /// The rate the node is made for: its kernel's lengths follow it.
    public let sampleRate: Double
    private let parameterList: [ParameterDescription]
    private var kernel: Kernel?

    init(name: String, sampleRate: Double, parameters: [ParameterDescription], tailLimit: Int64) {
        self.sampleRate = sampleRate
        parameterList = parameters
        super.init(name: name, tailLimit: tailLimit)
    }

    public override var parameterDescriptions: [ParameterDescription] { parameterList }

    /// The settings the parameters stand at: each kind reads its own.
    public var settings: Kernel.Settings { preconditionFailure("\(type(of: self)) states the settings its parameters stand for") }

    public override func validateFormats() throws(GraphError) {
        try super.validateFormats()
        try EffectTail.requireRate(sampleRate, of: self)
    }

    public override func allocateBlocks(input: StreamFormat, output: StreamFormat) throws {
        kernel = Kernel(channelCount: input.channelCount, sampleRate: sampleRate, settings: settings, quietLevel: Self.tailThreshold)
    }

    public override func deallocateBlocks() { kernel = nil }

    public override func resetBlocks() throws {
        kernel?.reset()
        kernel?.update(settings)
    }

    public override func parameterDidChange(_ id: ParameterID) { kernel?.update(settings) }

    public override func holdsSound(from position: Int64) -> Bool { kernel?.holdsSound(from: position) ?? false }

    public override func processBlock(input: AudioBufferList, output: AudioBufferList, frames: Int) throws {
        kernel?.process(input: input.channels.baseAddress!, output: output.channels.baseAddress!, frames: frames)
    }
}
