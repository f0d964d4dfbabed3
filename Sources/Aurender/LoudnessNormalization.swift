import Loudness

/// Loudness or peak normalization: the gain that brings a programme's integrated loudness,
/// sample peak or true peak to a target, kept under a true-peak ceiling
/// (`--normalize -14LUFS --true-peak -1dBTP`, `--normalize-peak -1dBFS`).
///
/// The render measures first (the whole graph's output, so an EQ's effect on loudness counts),
/// then renders again with the gain; the sample rate is never changed to do it.
public struct LoudnessNormalization: Sendable, Equatable {
    /// What to do when reaching the target would put the true peak above the ceiling.
    public enum OverCeiling: String, CaseIterable, Sendable {
        /// Write nothing; fail with `RenderError.truePeakOver`, which says the loudest reachable level.
        case refuse
        /// Use the largest gain that keeps the true peak at the ceiling, short of the target.
        case lower
        /// Reach the target and hold the true peak under the ceiling with a true-peak limiter
        /// last before the output (the gain is found by measuring through the limiter).
        case limit
    }

    /// What the target is a level of.
    public enum Measure: String, CaseIterable, Sendable {
        /// Integrated loudness (BS.1770), in LUFS.
        case integratedLoudness
        /// The highest sample, in dBFS.
        case samplePeak
        /// The highest inter-sample peak, in dBTP.
        case truePeak

        /// The unit of a level of this measure.
        public var unit: String {
            switch self {
            case .integratedLoudness: "LUFS"
            case .samplePeak: "dBFS"
            case .truePeak: "dBTP"
            }
        }
    }

    /// The level to reach, in the measure's unit.
    public var target: Double
    /// What the target is a level of.
    public var measure: Measure
    /// The highest true peak allowed, in dBTP.
    public var truePeakCeiling: Double
    public var overCeiling: OverCeiling

    /// Normalization to `target` of `measure`, the true peak kept under `truePeakCeiling`
    /// (`.infinity`: no ceiling).
    public init(target: Double, measure: Measure = .integratedLoudness, truePeakCeiling: Double = -1, overCeiling: OverCeiling = .refuse) {
        self.target = target
        self.measure = measure
        self.truePeakCeiling = truePeakCeiling
        self.overCeiling = overCeiling
    }

    /// What normalizing did: the measurement before, the gain, and the levels it gives.
    public struct Outcome: Sendable, Equatable {
        public var measured: LoudnessMeasurement
        public var gain: Double
        /// Integrated loudness after the gain, in LUFS; nil when it cannot be measured (a peak
        /// normalization of a programme too short or quiet for the gate).
        public var integrated: Double?
        /// Sample peak after the gain, in dBFS.
        public var samplePeak: Double?
        /// True peak after the gain, in dBTP (BS.1770-4's 4×, libebur128's).
        public var truePeak: Double?
        /// The 8× reconstructed peak after the gain, in dBTP.
        public var reconstructedPeak: Double?
        /// Whether the gain was lowered to respect the ceiling.
        public var lowered: Bool
        /// Whether a limiter holds the true peak at the ceiling (the levels after the gain are
        /// then measured through it).
        public var limited = false
        /// Whether the levels after the gain are within `reachTolerance` of the target; a
        /// limiter may not get there, when more gain only makes it limit more.
        public var reachedTarget = true
    }

    /// How near the target a normalization through a limiter must come to have reached it.
    public static let reachTolerance = 0.5

    /// The level of `measurement` the target is a level of.
    public func level(of measurement: LoudnessMeasurement) -> Double? {
        switch measure {
        case .integratedLoudness: measurement.integrated
        case .samplePeak: measurement.samplePeak
        case .truePeak: measurement.truePeak
        }
    }

    /// The gain for `measured` (of `path`), or the error that says why there is none.
    public func outcome(for measured: LoudnessMeasurement, path: String) throws(RenderError) -> Outcome {
        guard let reference = level(of: measured) else { throw measure == .integratedLoudness ? .silent(path: path) : .noPeak(path: path) }
        var gain = target - reference, lowered = false
        if let peak = measured.highestTruePeak, peak + gain > truePeakCeiling + 1e-9 {
            let highest = truePeakCeiling - peak
            if overCeiling == .limit {
                return Outcome(measured: measured, gain: gain, integrated: measured.integrated.map { $0 + gain },
                               samplePeak: measured.samplePeak.map { $0 + gain }, truePeak: truePeakCeiling,
                               reconstructedPeak: truePeakCeiling, lowered: false, limited: true)
            }
            guard overCeiling == .lower else {
                throw .truePeakOver(path: path, target: target, unit: measure.unit, gain: gain, truePeak: peak + gain,
                                    ceiling: truePeakCeiling, reachable: reference + highest)
            }
            gain = highest
            lowered = true
        }
        return Outcome(measured: measured, gain: gain, integrated: measured.integrated.map { $0 + gain },
                       samplePeak: measured.samplePeak.map { $0 + gain }, truePeak: measured.truePeak.map { $0 + gain },
                       reconstructedPeak: measured.reconstructedPeak.map { $0 + gain }, lowered: lowered)
    }
}
