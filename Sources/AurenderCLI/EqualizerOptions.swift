import ArgumentParser
import Aurender
import FoundationEssentials

/// The options that put an iPod-style equalizer into the render.
struct EqualizerOptions: ParsableArguments {
    @Option(name: .customLong("eq"), help: ArgumentHelp(
        "An EQ preset by name (case, spaces and punctuation ignored: \"Bass Booster\", bass-booster) or a preset JSON file. See 'aurender presets'.",
        valueName: "preset"), completion: CompletionValues.presets)
    var preset: String?

    @Option(help: ArgumentHelp(
        "accurate: solve the band overlap so each band centre gets exactly the preset's gain; classic: the plain cascade (misses by up to 1.8 dB).",
        valueName: "mode"))
    var eqMode: GraphicEQDesign.Mode?

    /// The design asked for; accurate unless `--eq-mode` says otherwise.
    var mode: GraphicEQDesign.Mode { eqMode ?? .accurate }

    @Option(parsing: .unconditional,
            help: ArgumentHelp("Gain before the EQ in dB (\(KindRanges.text(GraphicEQNode.kind, "preamp"))), or auto: minus the preset's largest boost.",
                               valueName: "dB|auto"))
    var preamp: PreampArgument?

    func validate() throws {
        if preset == nil, preamp != nil { throw ValidationError("--preamp needs --eq") }
        if preset == nil, eqMode != nil { throw ValidationError("--eq-mode needs --eq") }
    }

    /// The flags given, which a graph file cannot take (its EQ nodes set presets and modes).
    var flagsAGraphStates: [String] {
        [(preset != nil, "--eq"), (preamp != nil, "--preamp"), (eqMode != nil, "--eq-mode")].filter(\.0).map(\.1)
    }

    /// The preset named by `--eq`: a JSON file, a user preset, or a built-in one.
    func resolvePreset(environment: [String: String]) throws -> EQPreset? {
        guard let preset else { return nil }
        return try Self.findPreset(preset, environment: environment)
    }

    /// A preset by name or JSON file path, through the library's lookup; an unknown name is a
    /// usage error listing the nearest and the command that lists them all.
    static func findPreset(_ preset: String, environment: [String: String]) throws -> EQPreset {
        do { return try PresetLookup(environment: environment).preset(named: preset) } catch { throw RenderError.usage(hint(for: error)) }
    }

    /// The lookup's message, with the command that lists the presets where a name was unknown.
    static func hint(for error: PresetLookupError) -> String {
        if case .unknown = error { return "\(error) ('aurender presets' lists them all)" }
        return error.description
    }

    /// The equalizer stage for `preset`, by the name given to `--eq` (a flat one drops out when made).
    func stages(for preset: EQPreset?) -> [ChainStage] {
        guard let preset, let name = self.preset else { return [] }
        var fields: [String: SettingValue] = ["preset": .text(name), "mode": .text(mode.rawValue)]
        if let preamp { fields["preamp"] = .number(preamp.decibels(for: preset)) }
        return [ChainStage("eq", fields: fields)]
    }
}

extension GraphicEQDesign.Mode: ExpressibleByArgument {}

/// A preamp on the command line: decibels, or `auto`.
enum PreampArgument: ExpressibleByArgument {
    case decibels(Double)
    case auto

    init?(argument: String) {
        if argument.lowercased() == "auto" { self = .auto; return }
        guard let value = ValueSyntax.level(argument), KindRanges.range(GraphicEQNode.kind, "preamp").contains(value) else { return nil }
        self = .decibels(value)
    }

    /// The preamp in dB for `preset`.
    func decibels(for preset: EQPreset) -> Double {
        switch self {
        case .decibels(let value): value
        case .auto: -preset.largestBoost
        }
    }
}
