import AudioDSP
import AudioGraph
import AudioNodes
import FoundationEssentials
import Loudness
import AudioFormats
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What a render made, for machines: `--report FILE.json` and `--json` print it.
///
/// Levels are in dBFS (null for digital silence); the schema is documented in docs/batches-ci-make.md.
public struct RenderReport: Codable, Equatable, Sendable {
    /// The options that shaped the output.
    public struct Options: Codable, Equatable, Sendable {
        public var eqPreset: String?
        public var eqMode: String?
        public var srcQuality: String?
        public var ditherSeed: UInt64?
        public init(eqPreset: String? = nil, eqMode: String? = nil, srcQuality: String? = nil, ditherSeed: UInt64? = nil) {
            self.eqPreset = eqPreset
            self.eqMode = eqMode
            self.srcQuality = srcQuality
            self.ditherSeed = ditherSeed
        }
    }

    /// What `--normalize` or `--normalize-peak` measured and did; levels rounded to 0.01.
    public struct Normalization: Codable, Equatable, Sendable {
        /// What was normalized: `integratedLoudness`, `samplePeak` or `truePeak`.
        public var measure: String
        /// The target of a loudness normalization.
        public var targetLUFS: Double?
        /// The target of a peak normalization, in dBFS (sample peak) or dBTP (true peak).
        public var targetPeak: Double?
        /// The ceiling on the true peak; nil when there is none.
        public var truePeakCeilingDBTP: Double?
        /// The rendered programme's loudness before the gain.
        public var measuredLUFS: Double?
        public var loudnessRangeLU: Double
        public var gainDB: Double
        /// The loudness and peaks after the gain.
        public var integratedLUFS: Double?
        public var samplePeakDBFS: Double?
        public var truePeakDBTP: Double?
        /// The 8× reconstructed peak after the gain (flat to 0.45 of the rate), which the
        /// ceiling holds; `truePeakDBTP` is BS.1770-4's 4× figure, libebur128's.
        public var reconstructedPeakDBTP: Double?
        /// Whether the gain was lowered to keep the true peak under the ceiling.
        public var lowered: Bool
        /// Whether a true-peak limiter held the ceiling (the levels after the gain were measured through it).
        public var limited: Bool
        /// Whether the levels after the gain came within 0.5 of the target.
        public var reachedTarget: Bool

        init(_ normalization: LoudnessNormalization, _ outcome: LoudnessNormalization.Outcome) {
            measure = normalization.measure.rawValue
            targetLUFS = normalization.measure == .integratedLoudness ? normalization.target : nil
            targetPeak = normalization.measure == .integratedLoudness ? nil : normalization.target
            truePeakCeilingDBTP = normalization.truePeakCeiling.isFinite ? normalization.truePeakCeiling : nil
            measuredLUFS = outcome.measured.integrated.map(ReportJSON.level)
            loudnessRangeLU = ReportJSON.level(outcome.measured.range)
            gainDB = ReportJSON.level(outcome.gain)
            integratedLUFS = outcome.integrated.map(ReportJSON.level)
            samplePeakDBFS = outcome.samplePeak.map(ReportJSON.level)
            truePeakDBTP = outcome.truePeak.map(ReportJSON.level)
            reconstructedPeakDBTP = outcome.reconstructedPeak.map(ReportJSON.level)
            lowered = outcome.lowered
            limited = outcome.limited
            reachedTarget = outcome.reachedTarget
        }
    }

    public var aurender: String
    public var inputs: [String]
    public var output: String
    public var container: String
    public var encoding: String
    public var sampleRate: Double
    public var channels: Int
    public var frames: Int64
    public var durationSeconds: Double
    public var peakDBFS: Double?
    public var rmsDBFS: Double?
    public var clippedSamples: Int
    public var nonFiniteSamples: Int
    public var renderSeconds: Double
    public var realtimeFactor: Double?
    public var options: Options
    /// Present when the render normalized loudness.
    public var normalization: Normalization?
    /// Present when inputs ended before their stated length and were salvaged (`--salvage`).
    public var shortfalls: [Shortfall]?
    /// Present when the render trimmed silence: what each silence-trim node removed.
    public var silenceTrims: [SilenceTrim]?
    /// Present when the render carried tags, pictures, `bext`, iXML or markers, or could not.
    public var metadata: Metadata?
    /// Present when inputs were played back by their stored gains (`--replaygain`): one for each, in input order.
    public var replayGain: [ReplayGain]?

    /// The gain `--replaygain` applied to one input, and the tag it came from.
    public struct ReplayGain: Codable, Equatable, Sendable {
        /// The input, as the user named it.
        public var input: String
        /// `track` or `album`, as asked.
        public var mode: String
        /// The tag read (`REPLAYGAIN_ALBUM_GAIN`, `R128_TRACK_GAIN`, `iTunNORM`); absent when the fallback gain was applied.
        public var source: String?
        /// The stored gain, against -18 LUFS; absent with the fallback.
        public var storedGainDB: Double?
        /// The stored peak, linear; absent when none is stored.
        public var storedPeak: Double?
        /// The gain applied: the stored one (or the fallback) plus the preamp, less the lowering.
        public var appliedGainDB: Double
        /// How far the gain was lowered to keep the stored peak under full scale.
        public var loweredDB: Double

        init(_ applied: AppliedReplayGain) {
            input = applied.path
            mode = applied.mode.rawValue
            source = applied.stored?.source.rawValue
            storedGainDB = applied.stored.map { ReportJSON.level($0.gain) }
            storedPeak = applied.stored?.peak
            appliedGainDB = ReportJSON.level(applied.gain)
            loweredDB = ReportJSON.level(applied.lowering)
        }
    }

    /// What the output holds of its input's metadata, and the warnings that say what it does not.
    public struct Metadata: Codable, Equatable, Sendable {
        /// What the output holds.
        public var carried: CarriedMetadata
        /// The warning lines about metadata not read or not kept, as printed.
        public var warnings: [String]
    }

    /// What one silence-trim node removed at each end, in frames and seconds of its input (for
    /// a render of one file, the input as decoded and converted to the output's rate).
    public struct SilenceTrim: Codable, Equatable, Sendable {
        /// The node that trimmed (`silence` for a render's own).
        public var node: String
        /// The level a frame had to reach to be kept as audio.
        public var thresholdDB: Double
        /// The silence kept on each side of the audio.
        public var marginSeconds: Double
        /// The silence removed before the audio (all of the input when nothing reached the threshold).
        public var removedLeadingFrames: Int64
        public var removedLeadingSeconds: Double
        /// The silence removed after the audio.
        public var removedTrailingFrames: Int64
        public var removedTrailingSeconds: Double

        init(_ outcome: SilenceTrimNode.Outcome) {
            node = outcome.node
            thresholdDB = ReportJSON.level(outcome.thresholdDecibels)
            marginSeconds = outcome.seconds(outcome.marginFrames)
            removedLeadingFrames = outcome.removedAtStart
            removedLeadingSeconds = outcome.seconds(outcome.removedAtStart)
            removedTrailingFrames = outcome.removedAtEnd
            removedTrailingSeconds = outcome.seconds(outcome.removedAtEnd)
        }
    }

    /// An input that held fewer frames than its container states, rendered as far as it decoded.
    public struct Shortfall: Codable, Equatable, Sendable {
        /// The input, as the user named it.
        public var input: String
        /// The frames the container states; absent when it only shows it was cut short.
        public var statedFrames: Int64?
        /// The frames that decoded and were rendered.
        public var foundFrames: Int64
    }

    /// The report of a finished render that took `seconds`.
    public init(version: String, inputs: [String], output: String, summary: RenderJob.Summary, seconds: Double, options: Options,
                normalization: LoudnessNormalization? = nil) {
        func decibels(_ level: Double) -> Double? {
            level > 0 ? ReportJSON.level(20 * log10(level)) : nil
        }
        aurender = version
        self.inputs = inputs
        self.output = output
        container = summary.outputType.name
        encoding = summary.outputEncoding.name
        sampleRate = summary.outputFormat.sampleRate
        channels = summary.outputFormat.channelCount
        frames = summary.frames
        durationSeconds = Double(summary.frames) / summary.outputFormat.sampleRate
        peakDBFS = decibels(Double(summary.clipCount.peak))
        rmsDBFS = summary.rms.flatMap(decibels)
        clippedSamples = summary.clipCount.overs
        nonFiniteSamples = summary.clipCount.nonFinite
        renderSeconds = (seconds * 10000).rounded() / 10000
        realtimeFactor = seconds > 0 ? (durationSeconds / seconds * 10).rounded() / 10 : nil
        self.options = options
        if let normalization, let outcome = summary.normalization { self.normalization = Normalization(normalization, outcome) }
        if !summary.silenceTrims.isEmpty { silenceTrims = summary.silenceTrims.map(SilenceTrim.init) }
        if !summary.metadata.carried.isEmpty || !summary.metadata.warnings.isEmpty {
            metadata = Metadata(carried: summary.metadata.carried, warnings: summary.metadata.warnings)
        }
        if !summary.replayGains.isEmpty { replayGain = summary.replayGains.map(ReplayGain.init) }
        if !summary.shortfalls.isEmpty {
            shortfalls = summary.shortfalls.map { Shortfall(input: $0.path, statedFrames: $0.shortfall.stated, foundFrames: $0.shortfall.found) }
        }
    }

    /// The report as pretty-printed JSON with sorted keys.
    public func json() throws -> String { try ReportJSON.text(self) }

    /// Seconds on a monotonic clock, for timing renders.
    public static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}
