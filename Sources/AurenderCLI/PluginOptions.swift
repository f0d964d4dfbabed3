import ArgumentParser
import Aurender
import PluginHost

/// The options that put LADSPA and LV2 plugins into the render: `--plugin`, `--plugin-after-eq`, `--tail`
/// (which the delay, the reverb and the convolution follow too; the render command checks it applies).
struct PluginOptions: ParsableArguments {
    @Option(name: .customLong("plugin"), help: ArgumentHelp(
        "A plugin, repeatable, applied in the order given, before the EQ: an LV2 URI, ladspa:LABEL or ladspa:FILE.so:LABEL, "
            + "then optionally @name=value,... by port symbol or name, case ignored (preset=NAME picks a preset). See 'aurender plugins'.",
        valueName: "id[@name=value,...]"))
    var specs: [String] = []

    @Flag(help: "Put the plugins after the EQ instead of before it.")
    var pluginAfterEq = false

    @Option(help: ArgumentHelp("The most tail a plugin, --delay, --reverb or --convolve renders after the input ends (a time, as --start; default 60s). "
                               + "A tail ends sooner once it stays under -120 dBFS.", valueName: "time"))
    var tail: TimeArgument?

    func validate() throws {
        if specs.isEmpty, pluginAfterEq { throw ValidationError("--plugin-after-eq needs --plugin") }
    }

    /// The flags given, which a graph file cannot take (its plugin nodes state them).
    var flagsAGraphStates: [String] {
        [(!specs.isEmpty, "--plugin"), (pluginAfterEq, "--plugin-after-eq"), (tail != nil, "--tail")].filter(\.0).map(\.1)
    }

    /// The plugin stages, in order (`plugin 1`, `plugin 2`, …); a plugin's mistakes are found when it is made.
    var stages: [ChainStage] {
        specs.enumerated().map { index, text in
            let (id, controls) = PluginSpec.split(text)
            var fields: [String: SettingValue] = ["plugin": .text(id)]
            if !controls.isEmpty { fields["controls"] = .text(controls) }
            if let tail { fields["tail"] = ChainStage.field(tail.time) }
            return ChainStage("plugin", name: "plugin \(index + 1)", fields: fields)
        }
    }
}
