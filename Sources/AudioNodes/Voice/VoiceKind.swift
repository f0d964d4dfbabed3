import AudioGraph
import Resampling
import VoiceProcessing

/// The voice node as a catalogued kind: noise suppression, gain control, high-pass and echo
/// cancellation against a far-end file, each a field of its own.
public enum VoiceKind {
    /// The noise-suppression choices, "off" first.
    static let denoiseChoices = ["off"] + VoiceSettings.NoiseSuppression.allCases.map(\.name)

    /// The kind: its fields are fixed when the node is made, since they choose WebRTC's stages.
    public static let kind = NodeKind(
        name: "voice",
        summary: "voice processing by WebRTC: noise suppression, gain control, high-pass and echo cancellation against a far-end file",
        settings: [
            SettingDescription("denoise", .choice(denoiseChoices), "noise suppression: \(SettingDescription.alternatives(denoiseChoices)) (default off)"),
            SettingDescription("agc", .number(.decibels, VoiceSettings.gainTargetRange),
                               "gain control's target for the speech's peaks, in dBFS (default: no gain control)"),
            SettingDescription("agcCompression", .number(.decibels, VoiceSettings.gainCompressionRange),
                               "the most gain the gain control adds to quiet speech, in dB (default 9)"),
            SettingDescription("highpass", .flag, "an 80 Hz high-pass filter first (default false)"),
            SettingDescription("echoReference", .text, "the far-end file whose echo is cancelled (relative to the graph file; default: none)"),
            SettingDescription("echoSuppression", .choice(VoiceSettings.EchoSuppression.allCases.map(\.name)),
                               "how hard residual echo is suppressed (default moderate)"),
            SettingDescription("quality", .choice(ResamplerQuality.allCases.map(\.name)),
                               "the quality asked of the resampler around WebRTC's rates (default: the job's, else best)"),
            SettingDescription("engine", .choice(ResamplerRegistry.engines.map(\.name)),
                               "the resampler engine around WebRTC's rates (default: the job's, else \(ResamplerRegistry.defaultEngine.name))"),
        ],
        make: { name, settings, context in
            let voice = VoiceSettings(noiseSuppression: settings.text("denoise").flatMap(VoiceSettings.NoiseSuppression.init(name:)),
                                      gainTarget: settings.number("agc"), gainCompression: settings.number("agcCompression") ?? 9,
                                      highPass: settings.flag("highpass") ?? false,
                                      echoSuppression: settings.text("echoSuppression").flatMap { text in
                                          VoiceSettings.EchoSuppression.allCases.first { $0.name == text } } ?? .moderate)
            let reference = try settings.text("echoReference").map { path in
                try EchoReferenceFile(path: context.resolve(path))
            }
            let quality = settings.text("quality").flatMap(ResamplerQuality.init(name:)) ?? context.resamplerQuality
            let engine = try settings.text("engine").map { try ResamplerRegistry.engine(named: $0) } ?? context.resampler
            return try VoiceNode(name: name, settings: voice, reference: reference, resampler: engine, quality: quality)
        })
}
