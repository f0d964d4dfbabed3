import ArgumentParser
import Aurender

/// The options that put LADSPA and LV2 plugins into the render: `--plugin`, `--plugin-after-eq`,
/// `--tail` (which a convolution's tail follows too; `RenderCommand` checks it is used).
struct PluginOptions: ParsableArguments {
    @Option(name: .customLong("plugin"), help: ArgumentHelp(
        "A plugin, repeatable, applied in the order given, before the EQ: an LV2 URI, ladspa:LABEL or ladspa:FILE.so:LABEL, "
            + "then optionally @name=value,... by port symbol or name, case ignored (preset=NAME picks a preset). See 'aurender plugins'.",
        valueName: "id[@name=value,...]"))
    var specs: [String] = []

    @Flag(help: "Put the plugins after the EQ instead of before it.")
    var pluginAfterEq = false

    @Option(help: ArgumentHelp("The most tail a plugin or --convolve renders after the input ends (a time, as --start; default 60s). "
                               + "A tail ends sooner once it stays under -120 dBFS.", valueName: "time"))
    var tail: TimeArgument?

    func validate() throws {
        if specs.isEmpty, pluginAfterEq { throw ValidationError("--plugin-after-eq needs --plugin") }
    }

    /// The flags given, which a graph file cannot take (its plugin nodes state them).
    var flagsAGraphStates: [String] {
        [(!specs.isEmpty, "--plugin"), (pluginAfterEq, "--plugin-after-eq"), (tail != nil, "--tail")].filter(\.0).map(\.1)
    }

    /// The plugin nodes at `sampleRate`, in order; a plugin error is a usage error naming the plugin.
    func makeNodes(sampleRate: Double) throws -> [AudioNode] {
        let limit = (tail?.time ?? PluginKind.defaultTailLimit).frames(at: sampleRate)
        do {
            return try specs.enumerated().map { index, text throws(PluginError) in
                try PluginSpec(parsing: text).makeNode(name: "plugin \(index + 1)", sampleRate: sampleRate, tailLimit: limit)
            }
        } catch {
            if case .notInstalled = error { throw RenderError.usage("\(error) ('aurender plugins' lists them all)") }
            throw RenderError.usage(error.description)
        }
    }

    /// The nodes the render gets around `equalizer`: the plugins before it, or after it.
    func arrange(_ equalizer: [AudioNode], sampleRate: Double) throws -> [AudioNode] {
        let plugins = try makeNodes(sampleRate: sampleRate)
        return pluginAfterEq ? equalizer + plugins : plugins + equalizer
    }
}
