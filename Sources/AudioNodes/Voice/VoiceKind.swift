import AudioGraph
import Resampling
import VoiceProcessing

/// The voice node as a catalogued kind: noise suppression, gain control, high-pass and echo
/// cancellation against a far-end file, each a field of its own.
public enum VoiceKind {
    /// The kind: the far end, the resampling and whether gain control runs (`agc` given) are
    /// settings; the stages' levels, the high-pass and the gain control's target are parameters
    /// that events change while rendering.
    public static let kind = NodeKind(
        name: "voice",
        summary: "voice processing by WebRTC: noise suppression, gain control, high-pass and echo cancellation against a far-end file",
        settings: [
            SettingDescription("agc", .number(.decibels, VoiceSettings.gainTargetRange),
                               "gain control, with this target for the speech's peaks in dBFS; events move the target (default: no gain control)"),
            SettingDescription("echoReference", .text, "the far-end file whose echo is cancelled (relative to the graph file; default: none)"),
            SettingDescription("quality", .choice(ResamplerQuality.allCases.map(\.name)),
                               "the quality asked of the resampler around WebRTC's rates (default: the job's, else best)"),
            SettingDescription("engine", .choice(ResamplerRegistry.engines.map(\.name)),
                               "the resampler engine around WebRTC's rates (default: the job's, else \(ResamplerRegistry.defaultEngine.name))"),
        ],
        parameters: VoiceNode.descriptions(gainControl: true),
        make: { name, settings, context in
            let reference = try context.path("echoReference", in: settings).map { path in try EchoReferenceFile(path: path) }
            let quality = settings.text("quality").flatMap(ResamplerQuality.init(name:)) ?? context.resamplerQuality
            let engine = try settings.text("engine").map { try ResamplerRegistry.engine(named: $0) } ?? context.resampler
            return try VoiceNode(name: name, settings: VoiceSettings(gainTarget: settings.number("agc")), reference: reference,
                                 resampler: engine, quality: quality)
        })
}
