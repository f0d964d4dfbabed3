import AudioGraph
import PluginHost

/// A hosted LADSPA or LV2 plugin as a catalogued node kind (`plugin`).
///
/// Its parameters are the plugin's controls, known only once the plugin is found, so a graph
/// file gives their first values in `controls` (`gain=-6,delay=0.5`); events then change them
/// by port symbol, as they change an EQ's.
public enum PluginKind {
    /// The tail limit when none is given: 60 seconds.
    public static let defaultTailLimit = TimeValue.seconds(60)

    /// Its description.
    public static let kind = NodeKind(
        name: "plugin", summary: "hosts a LADSPA or LV2 plugin (see 'aurender plugins')",
        settings: [
            SettingDescription("plugin", .text, "the plugin: an LV2 URI, ladspa:LABEL or ladspa:FILE.so:LABEL", required: true),
            SettingDescription("controls", .text, "control values by port symbol or name, name=value,... (default: the plugin's)"),
            SettingDescription("preset", .text, "a preset of the plugin, by URI or label"),
            SettingDescription("tail", .time, "the most tail rendered after the input ends (default: 60 s; it stops at -120 dBFS)"),
        ],
        make: { name, settings, context in
            let spec = try PluginSpec(id: settings.text("plugin")!, preset: settings.text("preset"), controls: settings.text("controls") ?? "")
            let tail = (settings.time("tail") ?? defaultTailLimit).frames(at: context.sampleRate)
            return try spec.makeNode(name: name, sampleRate: context.sampleRate, tailLimit: tail)
        })
}
