import AudioDSP
import AudioGraph

/// A node that runs a `DynamicsProcessor` over its input in place, its settings read from the
/// node's parameters: the lifecycle the compressor and the gate share. A subclass declares its
/// parameters and how they make the processor's settings.
open class DynamicsNode<Processor: DynamicsProcessor>: AudioNode {
    private var processor: Processor?

    /// The processor's settings, from the parameters as they stand; subclasses give them.
    open var settings: Processor.Settings { fatalError("a DynamicsNode subclass gives its settings") }

    public override var planDetail: String? {
        parameterDescriptions.map { "\($0.name) \($0.describe(parameter($0.id)))" }.joined(separator: ", ")
    }

    public override func allocateRenderResources() throws {
        guard let format = streamFormat(scope: .input, bus: 0) else { return }
        processor = Processor(settings: settings, sampleRate: format.sampleRate)
    }

    public override func deallocateRenderResources() { processor = nil }

    public override func reset() throws { processor?.reset() }

    public override func parameterDidChange(_ id: ParameterID) { processor?.update(settings) }

    public override func render(_ flags: inout RenderActionFlags, _ request: RenderRequest, _ output: AudioBufferList) throws -> Int {
        let frames = try pullInput(bus: 0, &flags, request, into: output)
        processor?.process(output.channels.baseAddress!, channelCount: output.channelCount, frames: frames)
        return frames
    }
}
