import Aurender

/// `aurender diff APPROVED/ RENDERED/ --json`: the tolerances and every pair's figures, the
/// schema docs/batches-ci-make.md describes. Levels are to 0.01 and null when not measured (or
/// for no difference at all), so a reader finds the same keys every time.
struct FolderDiffJSON: Encodable {
    struct Tolerances: Encodable {
        @NullWhenAbsent var maxDifferenceDBFS: Double?
        @NullWhenAbsent var rmsDifferenceDBFS: Double?
        @NullWhenAbsent var loudnessLU: Double?
        @NullWhenAbsent var spectrumDB: Double?
        var lengthFrames: Int64
    }

    /// A tolerance a pair broke: its name (`maxDifference`, `rmsDifference`, `loudness`,
    /// `spectrum`, `length`, `format`, `identical`) and the sentence the text output prints.
    struct Failure: Encodable {
        var figure: String
        var message: String
    }

    struct Pair: Encodable {
        var path: String
        /// `passed`, `failed`, `missing`, `extra` or `unreadable`.
        var status: String
        @NullWhenAbsent var error: String?
        var failures: [Failure]
        @NullWhenAbsent var formatA: String?
        @NullWhenAbsent var formatB: String?
        @NullWhenAbsent var framesA: Int64?
        @NullWhenAbsent var framesB: Int64?
        @NullWhenAbsent var maxDifferenceDBFS: Double?
        @NullWhenAbsent var rmsDifferenceDBFS: Double?
        @NullWhenAbsent var firstDifferingFrame: Int64?
        @NullWhenAbsent var loudnessA: Double?
        @NullWhenAbsent var loudnessB: Double?
        @NullWhenAbsent var loudnessDifferenceLU: Double?
        @NullWhenAbsent var spectrumDifferenceDB: Double?
    }

    var approved: String
    var rendered: String
    var tolerances: Tolerances
    var passed: Int
    var failed: Int
    var pairs: [Pair]
    /// With `--approve`: what was done to the approved folder, one line each.
    @NullWhenAbsent var approval: [String]?

    init(approved: String, rendered: String, tolerances: ComparisonTolerances, pairs: [FolderComparison.Pair]) {
        self.approved = approved
        self.rendered = rendered
        self.tolerances = Tolerances(maxDifferenceDBFS: tolerances.maxDifferenceDBFS, rmsDifferenceDBFS: tolerances.rmsDifferenceDBFS,
                                     loudnessLU: tolerances.loudnessLU, spectrumDB: tolerances.spectrumDB, lengthFrames: tolerances.lengthFrames)
        passed = pairs.filter(\.passed).count
        failed = pairs.count - passed
        self.pairs = pairs.map(Self.pair)
    }

    private static func pair(_ pair: FolderComparison.Pair) -> Pair {
        var entry = Pair(path: pair.path, status: pair.status.rawValue, error: pair.error,
                         failures: pair.outcome?.failures.map { Failure(figure: $0.name, message: $0.description) } ?? [])
        guard let figures = pair.outcome?.figures else { return entry }
        entry.formatA = figures.formatA
        entry.formatB = figures.formatB
        guard figures.compared else { return entry }
        entry.framesA = figures.framesA
        entry.framesB = figures.framesB
        entry.maxDifferenceDBFS = finite(RenderComparison.level(Double(figures.largest)))
        entry.rmsDifferenceDBFS = finite(RenderComparison.level(figures.rms))
        entry.firstDifferingFrame = figures.firstDifferingFrame
        entry.loudnessA = figures.loudnessA.map(ReportJSON.level)
        entry.loudnessB = figures.loudnessB.map(ReportJSON.level)
        entry.loudnessDifferenceLU = finite(figures.loudnessDifference)
        entry.spectrumDifferenceDB = finite(figures.spectrumDifference)
        return entry
    }

    /// A level to 0.01, null when it is none or infinite.
    private static func finite(_ value: Double?) -> Double? {
        guard let value, value.isFinite else { return nil }
        return ReportJSON.level(value)
    }
}
