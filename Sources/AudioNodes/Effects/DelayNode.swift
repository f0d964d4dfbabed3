import AudioDSP
import AudioGraph

/// An echo with feedback and an optional low-pass (`FeedbackDelay`), with `AVAudioUnitDelay`'s
/// parameters: delay time, feedback, low-pass cutoff and wet/dry mix.
///
/// Every parameter changes while rendering, from the frame its event names. The echoes ring on
/// after the input ends, by `BlockEffectNode`'s rules: until they stay under −120 dBFS, up to the
/// tail limit; nothing runs late, so the output lines up with the input.
public final class DelayNode: TailingKernelNode<FeedbackDelay> {
    /// The node's parameters.
    public enum Parameter: Int, CaseIterable, Sendable {
        case time, feedback, wet, lowpass
    }

    /// The parameters at a rate of `sampleRate`: the low-pass reaches half of it, where it is off.
    public static func descriptions(sampleRate: Double) -> [ParameterDescription] {
        [
            ParameterDescription(id: Parameter.time.rawValue, name: "time", range: 0...Float(FeedbackDelay.maximumTime), defaultValue: 0.5, unit: .seconds),
            ParameterDescription(id: Parameter.feedback.rawValue, name: "feedback", range: -100...100, defaultValue: 50, unit: .linear),
            ParameterDescription(id: Parameter.wet.rawValue, name: "wet", range: 0...100, defaultValue: 50, unit: .linear),
            ParameterDescription(id: Parameter.lowpass.rawValue, name: "lowpass", range: 10...Float(sampleRate / 2),
                                 defaultValue: Float(sampleRate / 2), unit: .hertz),
        ]
    }

    /// An echo at `sampleRate` with `settings` (feedback and wet as fractions); the echoes ring
    /// on for up to `tailLimit` frames after the input. A value out of its range is refused.
    public init(name: String = "delay", sampleRate: Double, settings: FeedbackDelay.Settings, tailLimit: Int64) throws(GraphError) {
        super.init(name: name, sampleRate: sampleRate, parameters: Self.descriptions(sampleRate: sampleRate), tailLimit: tailLimit)
        try setParameter(Parameter.time.rawValue, Float(settings.time))
        try setParameter(Parameter.feedback.rawValue, Float(settings.feedback * 100))
        try setParameter(Parameter.wet.rawValue, Float(settings.wet * 100))
        try setParameter(Parameter.lowpass.rawValue, Float(settings.lowpass ?? sampleRate / 2))
    }

    /// The settings the parameters stand at (the low-pass off at half the rate).
    public override var settings: FeedbackDelay.Settings {
        let cutoff = Double(parameter(Parameter.lowpass.rawValue))
        return FeedbackDelay.Settings(time: Double(parameter(Parameter.time.rawValue)), feedback: Double(parameter(Parameter.feedback.rawValue)) / 100,
                                      lowpass: cutoff < sampleRate / 2 ? cutoff : nil, wet: Double(parameter(Parameter.wet.rawValue)) / 100)
    }

    public override var planDetail: String? {
        let settings = settings
        let lowpass = settings.lowpass.map { "low-pass \(parameterDescriptions[Parameter.lowpass.rawValue].describe(Float($0)))" } ?? "no low-pass"
        return "time \(parameterDescriptions[Parameter.time.rawValue].describe(Float(settings.time))), feedback \(percent(.feedback)), "
            + "wet \(percent(.wet)), \(lowpass), tail up to \(EffectTail.describe(tailLimit, sampleRate: sampleRate))"
    }

    private func percent(_ id: Parameter) -> String { "\(parameterDescriptions[id.rawValue].describe(parameter(id.rawValue))) %" }

    /// The delay as a catalogued node kind: its parameters, and how long its tail may ring.
    public static let kind = NodeKind(
        name: "delay", summary: "an echo with feedback and an optional low-pass (AVAudioUnitDelay's parameters); its echoes ring on after the input",
        settings: [EffectTail.setting],
        parameters: descriptions(sampleRate: 768_000),
        make: { name, settings, context in
            try DelayNode(name: name, sampleRate: context.sampleRate, settings: FeedbackDelay.Settings(time: 0.5),
                          tailLimit: EffectTail.limit(settings, sampleRate: context.sampleRate))
        })
}
