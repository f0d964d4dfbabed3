import AudioDSP
import AudioNodes
import AudioFormats

extension GraphJob {
    /// How a `file` node's file is read, beyond its path: a headerless file's format, the part of
    /// it read (an excerpt, in frames at its own rate), and the channel matrix it is converted by.
    struct FileReading {
        var raw: RawFormat?
        var excerpt: InputExcerpt?
        var matrix: ChannelMatrix?
    }

    /// The `file` node's reading: `rawRate`, `rawChannels` and `rawBits` together, `start` with a
    /// `duration` or an `end` (not both), and a `matrix`; a mistake names the node and the field.
    func fileReading(_ settings: NodeSettings, node: String) throws(RenderError) -> FileReading {
        var reading = FileReading()
        let raw = (settings.integer("rawRate"), settings.integer("rawChannels"), settings.text("rawBits").flatMap(AudioEncoding.forBits))
        switch raw {
        case (let rate?, let channels?, let encoding?): reading.raw = RawFormat(sampleRate: rate, channelCount: channels, encoding: encoding)
        case (nil, nil, nil): break
        default: throw bad("file '\(node)': a headerless file needs rawRate, rawChannels and rawBits together")
        }
        let duration = settings.time("duration"), end = settings.time("end")
        if duration != nil, end != nil { throw bad("file '\(node)': give duration or end, not both") }
        if let start = settings.time("start") ?? (duration ?? end).map({ _ in .frames(0) }) {
            reading.excerpt = InputExcerpt(start: start, end: duration.map { .duration($0) } ?? end.map { .at($0) })
        }
        if let matrix = settings.text("matrix") {
            do throws(ChannelMatrixError) { reading.matrix = try ChannelMatrix.parse(matrix) } catch {
                throw bad("file '\(node)': matrix: \(error)")
            }
        }
        return reading
    }

    /// The playback by stored gains of a `file` node: its `replaygain` mode, with the command
    /// line's preamp, clipping and fallback; else the command line's (`RenderSettings.replayGain`).
    func playback(_ settings: NodeSettings) -> ReplayGainPlayback? {
        guard let mode = settings.text("replaygain").flatMap(ReplayGainPlayback.Mode.init(rawValue:)) else { return options.replayGain }
        var playback = options.replayGain ?? ReplayGainPlayback(mode: mode)
        playback.mode = mode
        return playback
    }

    /// The `output` node's loudness normalization: `normalize` (the target) with its `measure`,
    /// `truePeak` ceiling and `overCeiling` policy, defaulting as a render's; nil without `normalize`.
    func normalization(_ settings: NodeSettings, output: String) throws(RenderError) -> LoudnessNormalization? {
        guard let target = settings.number("normalize") else {
            if let field = ["measure", "truePeak", "overCeiling"].first(where: { settings.values[$0] != nil }) {
                throw bad("output '\(output)': \(field) applies with normalize")
            }
            return nil
        }
        let measures: [String: LoudnessNormalization.Measure] = ["loudness": .integratedLoudness, "samplePeak": .samplePeak, "truePeak": .truePeak]
        let measure = measures[settings.text("measure") ?? "loudness"] ?? .integratedLoudness
        let lowest: Double = measure == .integratedLoudness ? -70 : measure == .samplePeak ? -60 : -30
        guard target >= lowest else {
            throw bad("output '\(output)': normalize must be from \(Int(lowest)) to 0 \(measure.unit) for \(settings.text("measure") ?? "loudness"), not \(RenderError.format(target))")
        }
        if measure == .truePeak, settings.number("truePeak") != nil {
            throw bad("output '\(output)': truePeak is a ceiling; with a true-peak target, the target is the ceiling")
        }
        let overCeiling = settings.text("overCeiling").flatMap(LoudnessNormalization.OverCeiling.init(rawValue:)) ?? .refuse
        let ceiling = settings.number("truePeak") ?? (measure == .integratedLoudness ? -1 : .infinity)
        if overCeiling == .limit, !ceiling.isFinite { throw bad("output '\(output)': overCeiling limit needs a ceiling: give truePeak") }
        return LoudnessNormalization(target: target, measure: measure, truePeakCeiling: ceiling, overCeiling: overCeiling)
    }

    /// What the `output` node asks to happen last, as a render's finishing: its fades (times at
    /// `rate`, the graph's), its normalization and its `limit`, a true-peak limiter's ceiling.
    func finishing(_ settings: NodeSettings, output: String, rate: Double) throws(RenderError) -> FinishingOptions {
        var finishing = FinishingOptions()
        finishing.fadeIn = settings.time("fadeIn")?.seconds(at: rate) ?? 0
        finishing.fadeOut = settings.time("fadeOut")?.seconds(at: rate) ?? 0
        finishing.normalization = try normalization(settings, output: output)
        finishing.limiter = settings.number("limit").map { LimiterSettings(ceiling: $0) }
        if let limit = finishing.limiter?.ceiling, let normalization = finishing.normalization, normalization.overCeiling == .limit,
           limit > normalization.truePeakCeiling {
            throw bad("output '\(output)': limit \(RenderError.format(limit)) dBTP is above the truePeak ceiling "
                      + "\(RenderError.format(normalization.truePeakCeiling)) dBTP that overCeiling limit holds; give one ceiling")
        }
        return finishing
    }
}
