import AudioDSP
import AudioGraph

/// A room around its input (`Reverb`, a feedback delay network): `AVAudioUnitReverb`'s factory
/// presets by name and its wet/dry mix, with SoX's reverberance, HF damping, room scale, stereo
/// depth, pre-delay and wet gain as parameters.
///
/// The preset is fixed when the node is made (it sizes the delay lines); every other field
/// changes while rendering. Mono or stereo. The reverberation rings on after the input ends, by
/// `BlockEffectNode`'s rules: until it stays under −120 dBFS, up to the tail limit; nothing runs
/// late, so the output lines up with the input.
public final class ReverbNode: TailingKernelNode<Reverb> {
    /// The node's parameters.
    public enum Parameter: Int, CaseIterable, Sendable {
        case reverberance, damping, roomScale, stereoDepth, preDelay, wetGain, wet
    }

    /// The parameters, their defaults from `preset`.
    public static func descriptions(preset: ReverbPreset) -> [ParameterDescription] {
        [
            ParameterDescription(id: Parameter.reverberance.rawValue, name: "reverberance", range: 0...100, defaultValue: 50, unit: .linear),
            ParameterDescription(id: Parameter.damping.rawValue, name: "damping", range: 0...100, defaultValue: Float(preset.damping * 100), unit: .linear),
            ParameterDescription(id: Parameter.roomScale.rawValue, name: "roomscale", range: 0...100, defaultValue: 100, unit: .linear),
            ParameterDescription(id: Parameter.stereoDepth.rawValue, name: "stereodepth", range: 0...100, defaultValue: 100, unit: .linear),
            ParameterDescription(id: Parameter.preDelay.rawValue, name: "predelay", range: 0...Float(Reverb.maximumPreDelay),
                                 defaultValue: Float(preset.preDelay), unit: .seconds),
            ParameterDescription(id: Parameter.wetGain.rawValue, name: "wetgain", range: -10...10, defaultValue: 0, unit: .decibels),
            ParameterDescription(id: Parameter.wet.rawValue, name: "wet", range: 0...100, defaultValue: 50, unit: .linear),
        ]
    }

    /// The room, fixed when made.
    public let preset: ReverbPreset

    /// A reverb in `settings.preset`'s room at `sampleRate` (wet, damping and the others as
    /// fractions); the reverberation rings on for up to `tailLimit` frames after the input. A
    /// value out of its range is refused.
    public init(name: String = "reverb", sampleRate: Double, settings: Reverb.Settings, tailLimit: Int64) throws(GraphError) {
        preset = settings.preset
        super.init(name: name, sampleRate: sampleRate, parameters: Self.descriptions(preset: settings.preset), tailLimit: tailLimit)
        for (parameter, value) in [(Parameter.reverberance, settings.reverberance * 100), (.damping, settings.damping * 100),
                                   (.roomScale, settings.roomScale * 100), (.stereoDepth, settings.stereoDepth * 100),
                                   (.preDelay, settings.preDelay), (.wetGain, settings.wetGain), (.wet, settings.wet * 100)] {
            try setParameter(parameter.rawValue, Float(value))
        }
    }

    /// The settings the parameters stand at, in the preset's room.
    public override var settings: Reverb.Settings {
        func fraction(_ parameter: Parameter) -> Double { Double(self.parameter(parameter.rawValue)) / 100 }
        var settings = Reverb.Settings(preset: preset, wet: fraction(.wet))
        settings.reverberance = fraction(.reverberance)
        settings.damping = fraction(.damping)
        settings.roomScale = fraction(.roomScale)
        settings.stereoDepth = fraction(.stereoDepth)
        settings.preDelay = Double(parameter(Parameter.preDelay.rawValue))
        settings.wetGain = Double(parameter(Parameter.wetGain.rawValue))
        return settings
    }

    public override var planDetail: String? {
        let settings = settings
        let time = (settings.reverberationTime * 100).rounded() / 100
        let values = parameterDescriptions.map { description -> String in
            let value = description.describe(parameter(description.id))
            return "\(description.name) \(description.unit == .linear ? value + " %" : value)"
        }
        return (["preset '\(preset.name)' (RT60 \(time) s)"] + values + ["tail up to \(EffectTail.describe(tailLimit, sampleRate: sampleRate))"])
            .joined(separator: ", ")
    }

    public override func validateFormats() throws(GraphError) {
        try super.validateFormats()
        let format = try requiredStreamFormat(scope: .input, bus: 0)
        if format.channelCount > 2 {
            throw .unsupportedFormat(node: name, scope: .input, bus: 0, format: format, reason: "a reverb takes one or two channels")
        }
    }

    /// The reverb as a catalogued node kind: the preset and the tail as settings, SoX's controls and the wet share as parameters.
    public static let kind = NodeKind(
        name: "reverb", summary: "an algorithmic reverb (a feedback delay network) with AVAudioUnitReverb's presets and SoX's controls",
        settings: [
            SettingDescription("preset", .choice(ReverbPreset.all.map(\.name)), "the room (default: medium hall)"),
            EffectTail.setting,
        ],
        parameters: descriptions(preset: ReverbPreset.named("medium hall")!),
        make: { name, settings, context in
            let preset = settings.text("preset").flatMap(ReverbPreset.named) ?? ReverbPreset.named("medium hall")!
            return try ReverbNode(name: name, sampleRate: context.sampleRate, settings: Reverb.Settings(preset: preset),
                                  tailLimit: EffectTail.limit(settings, sampleRate: context.sampleRate))
        })
}
