import Loudness

/// Loudness normalization: the gain that brings a programme's integrated loudness to a
/// target, kept under a true-peak ceiling (`--normalize -14LUFS --true-peak -1dBTP`).
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
    }

    /// The integrated loudness to reach, in LUFS.
    public var target: Double
    /// The highest true peak allowed, in dBTP.
    public var truePeakCeiling: Double
    public var overCeiling: OverCeiling

    public init(target: Double, truePeakCeiling: Double = -1, overCeiling: OverCeiling = .refuse) {
        self.target = target
        self.truePeakCeiling = truePeakCeiling
        self.overCeiling = overCeiling
    }

    /// What normalizing did: the measurement before, the gain, and the levels it gives.
    public struct Outcome: Sendable, Equatable {
        public var measured: LoudnessMeasurement
        public var gain: Double
        /// Integrated loudness after the gain, in LUFS.
        public var integrated: Double
        /// True peak after the gain, in dBTP.
        public var truePeak: Double?
        /// Whether the gain was lowered to respect the ceiling.
        public var lowered: Bool
    }

    /// The gain for `measured` (of `path`), or the error that says why there is none.
    public func outcome(for measured: LoudnessMeasurement, path: String) throws(RenderError) -> Outcome {
        guard let integrated = measured.integrated else { throw .silent(path: path) }
        var gain = target - integrated, lowered = false
        if let peak = measured.truePeak, peak + gain > truePeakCeiling + 1e-9 {
            let highest = truePeakCeiling - peak
            guard overCeiling == .lower else {
                throw .truePeakOver(path: path, target: target, gain: gain, truePeak: peak + gain, ceiling: truePeakCeiling,
                                    reachable: integrated + highest)
            }
            gain = highest
            lowered = true
        }
        return Outcome(measured: measured, gain: gain, integrated: integrated + gain,
                       truePeak: measured.truePeak.map { $0 + gain }, lowered: lowered)
    }
}
