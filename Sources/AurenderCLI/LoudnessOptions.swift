import ArgumentParser
import Aurender

/// The options that normalize a render's loudness (`--normalize -14LUFS --true-peak -1dBTP`).
struct LoudnessOptions: ParsableArguments {
    @Option(parsing: .unconditional,
            help: ArgumentHelp("Measure the rendered loudness (BS.1770), then render again with the gain that reaches this integrated loudness.",
                               valueName: "LUFS"))
    var normalize: LevelArgument<LUFSUnit>?

    @Option(name: .customLong("true-peak"), parsing: .unconditional,
            help: ArgumentHelp("With --normalize: the highest true peak allowed.", valueName: "dBTP"))
    var truePeak: LevelArgument<DBTPUnit> = LevelArgument(value: -1)

    @Option(help: ArgumentHelp("With --normalize, when the gain would put the true peak over the ceiling: refuse (write nothing, exit 3) or lower (use the largest gain that fits).",
                               valueName: "policy"))
    var overCeiling: LoudnessNormalization.OverCeiling = .refuse

    /// The normalization asked for, if any.
    var normalization: LoudnessNormalization? {
        normalize.map { LoudnessNormalization(target: $0.value, truePeakCeiling: truePeak.value, overCeiling: overCeiling) }
    }
}

extension LoudnessNormalization.OverCeiling: ExpressibleByArgument {}

/// The unit a level is written in on the command line.
protocol LevelUnit {
    static var name: String { get }
    static var range: ClosedRange<Double> { get }
}

/// Loudness units relative to full scale.
enum LUFSUnit: LevelUnit {
    static let name = "LUFS"
    static let range = -70.0...0.0
}

/// Decibels of true peak.
enum DBTPUnit: LevelUnit {
    static let name = "dBTP"
    static let range = -30.0...0.0
}

/// A level on the command line, with or without its unit: `-14LUFS`, `-14`, `-1dBTP`.
struct LevelArgument<Unit: LevelUnit>: ExpressibleByArgument {
    let value: Double

    init(value: Double) { self.value = value }

    init?(argument: String) {
        var text = argument.filter { $0 != " " }
        if text.lowercased().hasSuffix(Unit.name.lowercased()) { text.removeLast(Unit.name.count) }
        guard let value = Double(text), Unit.range.contains(value) else { return nil }
        self.value = value
    }

    var defaultValueDescription: String { "\(RenderError.format(value))\(Unit.name)" }
}
