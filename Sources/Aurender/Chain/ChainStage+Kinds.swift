import AudioDSP
import AudioNodes

/// Stages of the familiar kinds from the library's own settings types, so a Swift program (and
/// the command's flags) state a setting once and the catalogue's kind makes the node.
extension ChainStage {
    /// A `filter` stage of `bands`, in series.
    public static func filter(_ bands: [FilterNode.Band], name: String = "filter") -> ChainStage {
        ChainStage("filter", name: name, fields: ["bands": .list(bands.map { band in
            var fields: [String: SettingValue] = ["type": .text(band.shape.rawValue), "frequency": .number(band.frequency),
                                                  band.width.name: .number(band.width.value)]
            if band.shape.takesGain { fields["gain"] = .number(band.gain) }
            if band.bypassed { fields["bypass"] = .flag(true) }
            return .object(fields)
        })])
    }

    /// A `gate` stage at `settings`.
    public static func gate(_ settings: NoiseGate.Settings) -> ChainStage {
        ChainStage("gate", fields: ["threshold": .number(settings.threshold), "attack": .number(settings.attack), "hold": .number(settings.hold),
                                    "release": .number(settings.release), "range": .number(settings.range)])
    }

    /// A `compressor` stage at `settings`.
    public static func compressor(_ settings: Compressor.Settings) -> ChainStage {
        ChainStage("compressor", fields: ["threshold": .number(settings.threshold), "ratio": .number(settings.ratio),
                                          "attack": .number(settings.attack), "release": .number(settings.release),
                                          "knee": .number(settings.knee), "makeup": .number(settings.makeup),
                                          "detection": .text(settings.detection.rawValue)])
    }

    /// A `distortion` stage at `settings`.
    public static func distortion(_ settings: Distortion.Settings) -> ChainStage {
        ChainStage("distortion", fields: ["drive": .number(settings.drive), "shape": .text(settings.shape.rawValue),
                                          "bits": .number(Double(settings.bits)), "decimation": .number(Double(settings.decimation))])
    }

    /// A `delay` stage at `settings` (feedback and wet as fractions, as the kernel takes them), its tail capped at `tail`.
    public static func delay(_ settings: FeedbackDelay.Settings, tail: TimeValue? = nil) -> ChainStage {
        var fields: [String: SettingValue] = ["time": .number(settings.time), "feedback": .number(settings.feedback * 100),
                                              "wet": .number(settings.wet * 100)]
        if let lowpass = settings.lowpass { fields["lowpass"] = .number(lowpass) }
        if let tail { fields["tail"] = field(tail) }
        return ChainStage("delay", fields: fields)
    }

    /// A `reverb` stage at `settings` (wet as a fraction), its tail capped at `tail`.
    public static func reverb(_ settings: Reverb.Settings, tail: TimeValue? = nil) -> ChainStage {
        var fields: [String: SettingValue] = ["preset": .text(settings.preset.name), "wet": .number(settings.wet * 100)]
        if let tail { fields["tail"] = field(tail) }
        return ChainStage("reverb", fields: fields)
    }
}
