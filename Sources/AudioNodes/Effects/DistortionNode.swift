import AudioDSP
import AudioGraph

/// Distorts its input (`Distortion`): a drive in dB into a soft or hard clipper, a bit crusher or
/// a sample-rate decimator, with wet/dry, at four times the rate so the clippers do not alias.
///
/// Every parameter changes while rendering. The oversampling filters run late by
/// `Distortion.latency` frames, which `BlockEffectNode` hides, so the output lines up with the
/// input and has its length.
public final class DistortionNode: BlockEffectNode {
    /// The node's parameters.
    public enum Parameter: Int, CaseIterable, Sendable {
        case drive, shape, bits, decimation, wet
    }

    /// The parameters' descriptions, shared by the node and its catalogued kind.
    public static let descriptions: [ParameterDescription] = [
        ParameterDescription(id: Parameter.drive.rawValue, name: "drive", range: -24...48, defaultValue: 12, unit: .decibels),
        .indexed(id: Parameter.shape.rawValue, name: "shape", choices: Distortion.Shape.allCases.map(\.rawValue)),
        ParameterDescription(id: Parameter.bits.rawValue, name: "bits", range: 1...24, defaultValue: 8, unit: .linear),
        ParameterDescription(id: Parameter.decimation.rawValue, name: "decimation", range: 1...64, defaultValue: 4, unit: .linear),
        ParameterDescription(id: Parameter.wet.rawValue, name: "wet", range: 0...100, defaultValue: 100, unit: .linear),
    ]

    private var distortion: Distortion?

    /// A distortion starting at `settings` (wet as a fraction); a value out of its range is refused.
    public init(name: String = "distortion", settings: Distortion.Settings) throws(GraphError) {
        super.init(name: name, tailLimit: nil)
        try setParameter(Parameter.drive.rawValue, Float(settings.drive))
        try setParameter(Parameter.shape.rawValue, Float(Distortion.Shape.allCases.firstIndex(of: settings.shape)!))
        try setParameter(Parameter.bits.rawValue, Float(settings.bits))
        try setParameter(Parameter.decimation.rawValue, Float(settings.decimation))
        try setParameter(Parameter.wet.rawValue, Float(settings.wet * 100))
    }

    public override var parameterDescriptions: [ParameterDescription] { Self.descriptions }

    /// The settings the parameters stand at (bits and decimation to the nearest whole number).
    public var settings: Distortion.Settings {
        Distortion.Settings(drive: Double(parameter(Parameter.drive.rawValue)),
                            shape: Distortion.Shape.allCases[Int(parameter(Parameter.shape.rawValue))],
                            bits: Int(parameter(Parameter.bits.rawValue).rounded()),
                            decimation: Int(parameter(Parameter.decimation.rawValue).rounded()),
                            wet: Double(parameter(Parameter.wet.rawValue)) / 100)
    }

    public override var planDetail: String? {
        let settings = settings
        var parts = ["drive \(Self.descriptions[Parameter.drive.rawValue].describe(Float(settings.drive)))"]
        switch settings.shape {
        case .soft: parts.append("soft clip")
        case .hard: parts.append("hard clip")
        case .crush: parts.append("bit crush to \(settings.bits) bits")
        case .decimate: parts.append("decimation by \(settings.decimation)")
        }
        parts.append("wet \(Self.descriptions[Parameter.wet.rawValue].describe(Float(settings.wet * 100))) %")
        parts.append("4x oversampled, \(OversamplerDesign.standard.latency) frames of latency (compensated)")
        return parts.joined(separator: ", ")
    }

    public override func allocateBlocks(input: StreamFormat, output: StreamFormat) throws {
        distortion = Distortion(channelCount: input.channelCount, settings: settings)
    }

    public override func deallocateBlocks() { distortion = nil }

    public override func resetBlocks() throws {
        distortion?.update(settings)
        distortion?.reset()
    }

    public override func parameterDidChange(_ id: ParameterID) { distortion?.update(settings) }

    public override var processingLatency: Int { OversamplerDesign.standard.latency }

    public override func processBlock(input: AudioBufferList, output: AudioBufferList, frames: Int) throws {
        distortion?.process(input: input.channels.baseAddress!, output: output.channels.baseAddress!, frames: frames)
    }

    /// The distortion as a catalogued node kind: its settings are its parameters.
    public static let kind = NodeKind(
        name: "distortion", summary: "drives the signal into a soft or hard clipper, a bit crusher or a decimator, 4x oversampled (latency compensated)",
        settings: [], parameters: descriptions,
        make: { name, _, _ in try DistortionNode(name: name, settings: Distortion.Settings(drive: 12)) })
}
