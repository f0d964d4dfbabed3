import AudioMetadata

/// The loudness tags each container gets: ReplayGain 2.0 in all but Opus, R128 gains in Opus
/// (RFC 7845 asks Opus files not to carry ReplayGain's), Sound Check's `iTunNORM` in MP3 and MP4.
public enum LevelingTags {
    /// ReplayGain 2.0's fields.
    public static let replayGain = ["REPLAYGAIN_TRACK_GAIN", "REPLAYGAIN_TRACK_PEAK", "REPLAYGAIN_ALBUM_GAIN", "REPLAYGAIN_ALBUM_PEAK",
                                    "REPLAYGAIN_REFERENCE_LOUDNESS"]
    /// Opus's fields (RFC 7845 §5.2.1).
    public static let r128 = ["R128_TRACK_GAIN", "R128_ALBUM_GAIN"]

    /// Whether `format` gets Sound Check's `iTunNORM`.
    static func holdsSoundCheck(_ format: TagFormat) -> Bool { format == .mpeg || format == .mp4 }

    /// The fields and values written into a file of `format`: gains in dB (ReplayGain 2.0's,
    /// against −18 LUFS), peaks linear, `integrated` the track's loudness for the references of
    /// R128 and Sound Check.
    static func fields(for format: TagFormat, trackGain: Double, trackPeak: Double, albumGain: Double, albumPeak: Double,
                       integrated: Double) -> [(name: String, value: String?)] {
        // The other references differ from ReplayGain's by a constant; the clipping limit, if any, carries over.
        let toR128 = LevelingGains.r128Reference - LevelingGains.replayGainReference
        if format == .oggOpus {
            return [("R128_TRACK_GAIN", String(LevelingGains.r128Value(trackGain + toR128))),
                    ("R128_ALBUM_GAIN", String(LevelingGains.r128Value(albumGain + toR128)))]
        }
        var fields: [(name: String, value: String?)] = [
            ("REPLAYGAIN_TRACK_GAIN", LevelingGains.replayGainText(trackGain)), ("REPLAYGAIN_TRACK_PEAK", LevelingGains.peakText(trackPeak)),
            ("REPLAYGAIN_ALBUM_GAIN", LevelingGains.replayGainText(albumGain)), ("REPLAYGAIN_ALBUM_PEAK", LevelingGains.peakText(albumPeak)),
            ("REPLAYGAIN_REFERENCE_LOUDNESS", LevelingGains.referenceText),
        ]
        if holdsSoundCheck(format) {
            let soundCheck = LevelingGains.soundCheckReference - LevelingGains.replayGainReference
            fields.append((TagFields.soundCheck, LevelingGains.soundCheckText(gain: trackGain + soundCheck, peak: trackPeak)))
        }
        return fields
    }

    /// The fields `--remove` deletes from a file of `format`: every one `fields` may write
    /// there (and ReplayGain's from Opus, where other tools write them).
    static func removals(for format: TagFormat) -> [(name: String, value: String?)] {
        let names = replayGain + (format == .oggOpus ? r128 : []) + (holdsSoundCheck(format) ? [TagFields.soundCheck] : [])
        return names.map { ($0, nil) }
    }
}
