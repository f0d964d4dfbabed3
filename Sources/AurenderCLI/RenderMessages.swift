import Aurender

/// The lines a finished render has to say about its output, besides its report.
enum RenderMessages {
    /// Warnings about inputs that hold no audio, inputs salvaged short of their stated length, a
    /// silence trim that removed everything, tags and pictures not read or not kept, samples that could not be
    /// written as they were, a loudness normalization that fell short of its target, and a
    /// stored gain that was not there to apply (`--replaygain`'s fallbacks):
    /// printed even with `--quiet`.
    static func warnings(_ summary: RenderJob.Summary, output: String, hints: CommandHints) -> [String] {
        var lines = summary.inputsWithoutAudio.map { "\($0): the input holds no audio" + (summary.frames == 0 ? "; \(output) is empty" : "") }
        lines += summary.shortfalls.map { "\($0.description) (truncated or damaged); rendered the \($0.shortfall.found) frames that decode" }
        let count = summary.clipCount, integer = summary.outputEncoding.integerBits != nil
        if count.overs > 0 {
            lines.append("\(output): \(count.overs) samples " + (integer ? "clipped" : "beyond full scale (kept in the float output)")
                         + "; \(hints.clipAdvice(count))")
        }
        if count.nonFinite > 0 {
            lines.append("\(output): \(count.nonFinite) NaN or infinite samples written as 0")
        }
        for trim in summary.silenceTrims where trim.removedEverything {
            lines.append("\(output): nothing reached the silence threshold of \(plain(trim.thresholdDecibels)) dB"
                         + (summary.silenceTrims.count > 1 ? " in '\(trim.node)'" : "") + "; all \(plain(trim.seconds(trim.inputFrames))) s "
                         + "(\(trim.inputFrames) frames) removed" + (summary.frames == 0 ? ", and the output is empty" : ""))
        }
        if let outcome = summary.normalization, !outcome.reachedTarget {
            lines.append("\(output): normalized short of the target through the limiter (" + levels(outcome)
                         + "): more gain only makes it limit more at this ceiling")
        }
        if let outcome = summary.normalization, outcome.lowered {
            lines.append("\(output): normalized short of the target, the gain lowered to keep the true peak under the ceiling ("
                         + levels(outcome) + ")")
        }
        lines += summary.replayGains.compactMap(\.warning)
        lines += summary.metadata.warnings
        return lines
    }

    /// What a finished render took: `rendered 3.0 s of audio in 0.025 s (120× realtime)`.
    static func timing(_ summary: RenderJob.Summary, seconds: Double) -> String {
        let audio = Double(summary.frames) / summary.outputFormat.sampleRate
        return "rendered \(RenderError.format(audio)) s of audio in \((seconds * 1000).rounded() / 1000) s "
            + "(\(realtimeText(audioSeconds: audio, wallSeconds: seconds)))"
    }

    /// What normalizing did, for `--verbose`.
    static func normalizationNote(_ summary: RenderJob.Summary) -> String? {
        summary.normalization.map { "normalize: " + levels($0) + ($0.limited ? ", the true peak held by the limiter (levels measured through it)" : "") }
    }

    /// What each silence trim removed, for `--verbose`: `silence: removed 1.0 s (44100 frames) at
    /// the start and 1.9 s (83790 frames) at the end, below -60 dB with a margin of 0.1 s`.
    static func silenceNotes(_ summary: RenderJob.Summary) -> [String] {
        summary.silenceTrims.map { trim in
            "\(trim.node): removed \(plain(trim.seconds(trim.removedAtStart))) s (\(trim.removedAtStart) frames) at the start and "
                + "\(plain(trim.seconds(trim.removedAtEnd))) s (\(trim.removedAtEnd) frames) at the end, below "
                + "\(plain(trim.thresholdDecibels)) dB with a margin of \(plain(trim.seconds(trim.marginFrames))) s"
        }
    }

    /// A number to the thousandth, without trailing zeros: `1.9`, `0.125`, `-60`.
    private static func plain(_ value: Double) -> String {
        let rounded = (value * 1000).rounded() / 1000
        return rounded == rounded.rounded() ? String(Int64(rounded)) : String(rounded)
    }

    private static func levels(_ outcome: LoudnessNormalization.Outcome) -> String {
        "measured \(outcome.measured.integrated.map { RenderError.format($0) } ?? "?") LUFS, gain \(decibels(outcome.gain)) dB, "
            + "now \(outcome.integrated.map { RenderError.format($0) } ?? "?") LUFS, sample peak "
            + "\(outcome.samplePeak.map { RenderError.format($0) } ?? "none") dBFS, true peak \(outcome.truePeak.map { RenderError.format($0) } ?? "none") dBTP "
            + "(8× reconstructed \(outcome.reconstructedPeak.map { RenderError.format($0) } ?? "none") dBTP)"
    }
}
