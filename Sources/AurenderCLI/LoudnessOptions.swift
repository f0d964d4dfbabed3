import ArgumentParser
import Aurender

/// The options that normalize a render's loudness (`--normalize -14LUFS --true-peak -1dBTP`).
struct LoudnessOptions: ParsableArguments {
    @Option(parsing: .unconditional,
            help: ArgumentHelp("Measure the rendered loudness (BS.1770), then render again with the gain that reaches this integrated loudness.",
                               valueName: "LUFS"))
    var normalize: LevelArgument<LUFSUnit>?

    @Option(parsing: .unconditional,
            help: ArgumentHelp("Measure the rendered peak, then render again with the gain that brings it here: the sample peak (-1, -1dBFS) or, written in dBTP (-1dBTP), the true peak.",
                               valueName: "dBFS|dBTP"))
    var normalizePeak: PeakArgument?

    @Option(name: .customLong("true-peak"), parsing: .unconditional,
            help: ArgumentHelp("With --normalize (default -1dBTP) or a sample --normalize-peak (default: none): the highest true peak allowed.",
                               valueName: "dBTP"))
    var truePeak: LevelArgument<DBTPUnit>?

    func validate() throws {
        if normalize != nil, normalizePeak != nil { throw ValidationError("give --normalize or --normalize-peak, not both") }
        if normalize == nil, normalizePeak == nil, let flag = [(truePeak != nil, "--true-peak"), (overCeiling != nil, "--over-ceiling")]
            .first(where: \.0)?.1 {
            throw ValidationError("\(flag) applies with --normalize or --normalize-peak")
        }
        if let limit, overCeiling == .limit, let ceiling = normalization?.truePeakCeiling, limit.value > ceiling {
            throw ValidationError("--limit \(RenderError.format(limit.value))dBTP is above the --true-peak ceiling \(RenderError.format(ceiling))dBTP "
                                  + "that --over-ceiling limit holds; give one ceiling")
        }
        if overCeiling == .limit, normalization?.truePeakCeiling.isFinite == false {
            throw ValidationError("--over-ceiling limit needs a ceiling: give --true-peak")
        }
        if truePeak != nil, normalizePeak?.measure == .truePeak {
            throw ValidationError("--true-peak is a ceiling; with a true-peak target (--normalize-peak in dBTP) the target is the ceiling")
        }
        try validateReplayGain()
    }

    @Option(help: ArgumentHelp("With --normalize or --normalize-peak, when the gain would put the peak over the ceiling: refuse (write nothing, exit 3, the default), lower (use the largest gain that fits) or limit (reach the target; a true-peak limiter holds the ceiling).",
                               valueName: "policy"))
    var overCeiling: LoudnessNormalization.OverCeiling?

    @Option(parsing: .unconditional,
            help: ArgumentHelp("End with a true-peak brick-wall limiter at this ceiling (5 ms lookahead, compensated; 50 ms release): the output's true peak stays at or under it.",
                               valueName: "dBTP"))
    var limit: LevelArgument<DBTPUnit>?

    @Option(help: ArgumentHelp("""
        Play each input back by the loudness gain its tags hold, as players do: track (each file at -18 LUFS) or album \
        (each album, its tracks' balance kept; a file with only a track gain gets that, with a warning). ReplayGain 2.0's tags \
        first, then an Opus file's R128 gains, then Sound Check's iTunNORM (each brought to -18 LUFS). The gain is lowered \
        where it would lift the stored peak over full scale. The output carries none of those tags. An input without \
        a stored gain is refused (exit 65) unless --replaygain-fallback is given.
        """, valueName: "track|album"))
    var replaygain: ReplayGainPlayback.Mode?

    @Option(parsing: .unconditional, help: ArgumentHelp("With --replaygain: dB added to every gain (default 0).", valueName: "dB"))
    var replaygainPreamp: LevelArgument<GainUnit>?

    @Flag(help: "With --replaygain: apply the whole gain even where it lifts the stored peak over full scale.")
    var replaygainAllowClipping = false

    @Option(parsing: .unconditional, help: ArgumentHelp("With --replaygain: the gain for an input whose tags hold none (default: it is refused).",
                                                        valueName: "dB"))
    var replaygainFallback: LevelArgument<GainUnit>?

    /// The playback by stored gains asked for, if any.
    var replayGain: ReplayGainPlayback? {
        replaygain.map { ReplayGainPlayback(mode: $0, preamp: replaygainPreamp?.value ?? 0, preventsClipping: !replaygainAllowClipping,
                                            fallback: replaygainFallback?.value) }
    }

    /// Refuses the `--replaygain-…` options without `--replaygain`, and `--replaygain` with a
    /// normalization, which would undo its gain.
    func validateReplayGain() throws {
        guard replaygain != nil else {
            let given = [(replaygainPreamp != nil, "--replaygain-preamp"), (replaygainAllowClipping, "--replaygain-allow-clipping"),
                         (replaygainFallback != nil, "--replaygain-fallback")].first(where: \.0)?.1
            if let given { throw ValidationError("\(given) applies with --replaygain track|album") }
            return
        }
        if let flag = [(normalize != nil, "--normalize"), (normalizePeak != nil, "--normalize-peak")].first(where: \.0)?.1 {
            throw ValidationError("--replaygain and \(flag) both set the level: give one")
        }
    }

    /// The limiter asked for by `--limit`; `--over-ceiling limit` adds one at the ceiling itself.
    var limiter: LimiterSettings? { limit.map { LimiterSettings(ceiling: $0.value) } }

    /// The normalization asked for, if any.
    var normalization: LoudnessNormalization? {
        if let normalizePeak {
            return LoudnessNormalization(target: normalizePeak.value, measure: normalizePeak.measure,
                                         truePeakCeiling: truePeak?.value ?? .infinity, overCeiling: overCeiling ?? .refuse)
        }
        return normalize.map { LoudnessNormalization(target: $0.value, truePeakCeiling: truePeak?.value ?? -1, overCeiling: overCeiling ?? .refuse) }
    }
}

extension LoudnessNormalization.OverCeiling: ExpressibleByArgument {}

extension ReplayGainPlayback.Mode: ExpressibleByArgument {}

/// A peak target: in dBFS (or no unit) the sample peak, in dBTP the true peak.
struct PeakArgument: ExpressibleByArgument {
    let value: Double
    let measure: LoudnessNormalization.Measure

    init?(argument: String) {
        if argument.lowercased().hasSuffix("dbtp") {
            guard let level = LevelArgument<DBTPUnit>(argument: argument) else { return nil }
            (value, measure) = (level.value, .truePeak)
        } else {
            guard let level = LevelArgument<DBFSPeakUnit>(argument: argument) else { return nil }
            (value, measure) = (level.value, .samplePeak)
        }
    }
}

/// A sample peak to normalize to, in dBFS.
enum DBFSPeakUnit: LevelUnit {
    static let name = "dBFS"
    static let range = -60.0...0.0
    static let suffixes: Set<String> = ["dbfs", "db"]
}

/// The unit a level is written in on the command line, and the values it allows.
protocol LevelUnit {
    static var name: String { get }
    static var range: ClosedRange<Double> { get }
    /// The unit suffixes that mean this kind of level (lowercased): a loudness target written
    /// in dB is a mistake, a peak written in dB is not.
    static var suffixes: Set<String> { get }
}

/// Loudness units relative to full scale.
enum LUFSUnit: LevelUnit {
    static let name = "LUFS"
    static let range = KindRanges.range(GenericOutputKind.kind, "normalize")
    static let suffixes: Set<String> = ["lufs"]
}

/// Decibels of true peak, as the limiter's ceiling takes them.
enum DBTPUnit: LevelUnit {
    static let name = "dBTP"
    static let range = KindRanges.range(LimiterNode.kind, "ceiling")
    static let suffixes: Set<String> = ["dbtp", "db"]
}

/// A gain in decibels, as the catalogued gain node takes it.
enum GainUnit: LevelUnit {
    static let name = "dB"
    static let range = KindRanges.range(GainNode.kind, "gain")
    static let suffixes: Set<String> = ["db"]
}

/// A mixer's volume in decibels, as the mixer's parameter takes it.
enum VolumeUnit: LevelUnit {
    static let name = "dB"
    static let range = KindRanges.range(MixerNode.kind, "volume")
    static let suffixes: Set<String> = ["db"]
}

/// A sample level in decibels relative to full scale.
enum DBFSUnit: LevelUnit {
    static let name = "dBFS"
    static let range = -400.0...0.0
    static let suffixes: Set<String> = ["dbfs", "db"]
}

/// A level on the command line, with or without a unit, in the library's syntax
/// (`ValueSyntax.level`): `-14LUFS`, `-14`, `-1dBTP`, `-6dB`, `-90dBFS`.
struct LevelArgument<Unit: LevelUnit>: ExpressibleByArgument {
    let value: Double

    init(value: Double) { self.value = value }

    init?(argument: String) {
        let written = argument.lowercased()
        if let suffix = ValueSyntax.levelSuffixes.first(where: { written.hasSuffix($0) }), !Unit.suffixes.contains(suffix) { return nil }
        guard let value = ValueSyntax.level(argument), Unit.range.contains(value) else { return nil }
        self.value = value
    }

    var defaultValueDescription: String { "\(RenderError.format(value))\(Unit.name)" }
}
