import ArgumentParser
import Aurender
import FoundationEssentials
import VoiceProcessing

/// `--denoise [LEVEL]`, `--agc [TARGET_DBFS]` and `--echo-reference FAR_FILE`: one voice node
/// (WebRTC's audio processing) right after the input's conversion, before everything else, so it
/// sees the microphone as recorded and the far end lines up with it frame for frame.
extension EffectsOptions {
    /// The level bare `--denoise` asks for.
    static let defaultDenoise = VoiceSettings.NoiseSuppression.high
    /// The target bare `--agc` asks for, in dBFS.
    static let defaultGainTarget = -3.0

    /// The voice flags given, which a graph file cannot take (its voice nodes state them).
    var voiceFlags: [String] {
        [(denoise != nil, "--denoise"), (agc != nil, "--agc"), (echoReference != nil, "--echo-reference")].filter(\.0).map(\.1)
    }

    /// The voice processing asked for, checked; nil when no voice flag is given.
    func voiceSettings() throws -> VoiceSettings? {
        guard denoise != nil || agc != nil || echoReference != nil else { return nil }
        var settings = VoiceSettings()
        if let denoise {
            guard let level = VoiceSettings.NoiseSuppression(name: denoise) else {
                let names = VoiceSettings.NoiseSuppression.allCases.map(\.name)
                throw ValidationError("--denoise: the level must be \(names.dropLast().joined(separator: ", ")) or \(names.last!), not '\(denoise)'")
            }
            settings.noiseSuppression = level
        }
        if let agc {
            let range = VoiceSettings.gainTargetRange
            guard let target = ValueSyntax.level(agc), range.contains(target) else {
                throw ValidationError("--agc: the target must be from \(Self.text(range.lowerBound)) to \(Self.text(range.upperBound)) dBFS, not '\(agc)'")
            }
            settings.gainTarget = target
        }
        if echoReference?.isEmpty == true { throw ValidationError("--echo-reference: give the far-end file") }
        return settings
    }

    /// The voice stage; none without voice flags. The far-end file is opened when the node is
    /// made, before anything renders.
    func voiceStages() throws -> [ChainStage] {
        guard let settings = try voiceSettings() else { return [] }
        var fields: [String: SettingValue] = [:]
        if let level = settings.noiseSuppression { fields["denoise"] = .text(level.name) }
        if let target = settings.gainTarget { fields["agc"] = .number(target) }
        if let echoReference { fields["echoReference"] = .text(echoReference) }
        return [ChainStage("voice", fields: fields)]
    }

    /// The command line with bare `--denoise` and `--agc` given their defaults, since the argument
    /// parser has no option whose value may be left out. The next argument is the flag's value
    /// when it is one (a level's name; a number for `--agc`) or looks like one rather than a path
    /// (no `/` or `.`, not an option, no such file), so a wrong value is named, not taken for a
    /// file. `--denoise=LEVEL` is never ambiguous.
    static func expandingBareVoiceFlags(_ arguments: [String]) -> [String] {
        var expanded: [String] = []
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            expanded.append(argument)
            index += 1
            if argument == "--" {
                expanded += arguments[index...]
                break
            }
            let next = index < arguments.count ? arguments[index] : nil
            if argument == "--denoise", !(next.map { VoiceSettings.NoiseSuppression(name: $0) != nil || looksLikeAValue($0) } ?? false) {
                expanded.append(defaultDenoise.name)
            } else if argument == "--agc", !(next.map { ValueSyntax.level($0) != nil || looksLikeAValue($0) } ?? false) {
                expanded.append(text(defaultGainTarget))
            }
        }
        return expanded
    }
}

extension EffectsOptions {
    /// Whether `argument` reads as a mistyped value rather than a path or an option.
    private static func looksLikeAValue(_ argument: String) -> Bool {
        !argument.hasPrefix("-") && !argument.contains("/") && !argument.contains(".") && !FileManager.default.fileExists(atPath: argument)
    }

    /// Refuses `--echo-reference` where the far end cannot line up with the input: a batch (each
    /// recording has its own far end) or an excerpt (the far end starts with the whole input).
    func validateEchoReference(batch: Bool, excerpt: Bool) throws {
        guard echoReference != nil else { return }
        if batch {
            throw ValidationError("--echo-reference applies to a single render, not to a batch (-o FOLDER): each recording has its own far end")
        }
        if excerpt {
            throw ValidationError("--echo-reference lines the far end up with the input's first frame; with --start, --duration or --trim "
                                  + "it would not line up: cut both files alike first")
        }
    }
}
