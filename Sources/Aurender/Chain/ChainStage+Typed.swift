import AudioDSP
import AudioNodes

/// Stages that read like `--chain`'s text: each takes its kind's fields in the units graph files
/// state them in (hertz, decibels, seconds, wet and feedback in percent), and states only the
/// fields given, so `.highpass(80)` is the stage `highpass frequency=80` is. The kind checks the
/// values when a `Chain` is made.
extension ChainStage {
    /// A one-band `filter` of `shape` at `frequency` Hz (`gain` dB for peaks and shelves, its
    /// width as `q`, or `slope` for shelves), named by its shape as `--chain`'s short kinds are.
    public static func band(_ shape: FilterShape, frequency: Double, gain: Double? = nil, q: Double? = nil,
                            slope: Double? = nil) -> ChainStage {
        let fields = stated(["type": .text(shape.rawValue), "frequency": .number(frequency)],
                            ["gain": gain.map(SettingValue.number), "q": q.map(SettingValue.number), "slope": slope.map(SettingValue.number)])
        return ChainStage("filter", name: shape.rawValue, fields: ["bands": .list([.object(fields)])])
    }

    /// A high-pass filter at `frequency` Hz: `highpass frequency=80`.
    public static func highpass(_ frequency: Double, q: Double? = nil) -> ChainStage {
        band(.highpass, frequency: frequency, q: q)
    }

    /// A low-pass filter at `frequency` Hz: `lowpass frequency=8000`.
    public static func lowpass(_ frequency: Double, q: Double? = nil) -> ChainStage {
        band(.lowpass, frequency: frequency, q: q)
    }

    /// The EQ at the preset called `preset` (built-in, user preset or preset file), with `preamp`
    /// dB before it and its `mode`: `eq preset=Rock preamp=-3`.
    public static func eq(_ preset: String, preamp: Double? = nil, mode: GraphicEQDesign.Mode? = nil) -> ChainStage {
        ChainStage("eq", fields: stated(["preset": .text(preset)],
                                        ["preamp": preamp.map(SettingValue.number), "mode": mode.map { .text($0.rawValue) }]))
    }

    /// A gain of `decibels` dB: `gain gain=-3`.
    public static func gain(_ decibels: Double) -> ChainStage {
        ChainStage("gain", fields: ["gain": .number(decibels)])
    }

    /// A noise gate (threshold and range in dB, times in seconds): `gate threshold=-40`.
    public static func gate(threshold: Double? = nil, attack: Double? = nil, hold: Double? = nil, release: Double? = nil,
                            range: Double? = nil) -> ChainStage {
        ChainStage("gate", fields: stated([:], ["threshold": threshold.map(SettingValue.number), "attack": attack.map(SettingValue.number),
                                                "hold": hold.map(SettingValue.number), "release": release.map(SettingValue.number),
                                                "range": range.map(SettingValue.number)]))
    }

    /// A compressor (threshold, knee and makeup in dB, times in seconds): `compressor threshold=-18 ratio=3`.
    public static func compressor(threshold: Double? = nil, ratio: Double? = nil, attack: Double? = nil, release: Double? = nil,
                                  knee: Double? = nil, makeup: Double? = nil, detection: Compressor.Detection? = nil) -> ChainStage {
        ChainStage("compressor", fields: stated([:], [
            "threshold": threshold.map(SettingValue.number), "ratio": ratio.map(SettingValue.number), "attack": attack.map(SettingValue.number),
            "release": release.map(SettingValue.number), "knee": knee.map(SettingValue.number), "makeup": makeup.map(SettingValue.number),
            "detection": detection.map { .text($0.rawValue) },
        ]))
    }

    /// A true-peak limiter (ceiling in dBTP, release and look-ahead in seconds): `limiter ceiling=-1`.
    public static func limiter(ceiling: Double? = nil, release: Double? = nil, lookahead: Double? = nil) -> ChainStage {
        ChainStage("limiter", fields: stated([:], ["ceiling": ceiling.map(SettingValue.number), "release": release.map(SettingValue.number),
                                                   "lookahead": lookahead.map(SettingValue.number)]))
    }

    /// Distortion of `drive` dB in `shape` (`bits` for crush, `decimation` for decimate, `wet`
    /// in percent): `distortion drive=12 shape=hard`.
    public static func distortion(drive: Double? = nil, shape: Distortion.Shape? = nil, bits: Int? = nil, decimation: Int? = nil,
                                  wet: Double? = nil) -> ChainStage {
        ChainStage("distortion", fields: stated([:], [
            "drive": drive.map(SettingValue.number), "shape": shape.map { .text($0.rawValue) }, "bits": bits.map { .number(Double($0)) },
            "decimation": decimation.map { .number(Double($0)) }, "wet": wet.map(SettingValue.number),
        ]))
    }

    /// A feedback delay of `time` seconds (feedback and wet in percent, a low-pass in its loop at
    /// `lowpass` Hz), its tail capped at `tail`: `delay time=0.25 feedback=40 wet=30`.
    public static func delay(_ time: Double, feedback: Double? = nil, wet: Double? = nil, lowpass: Double? = nil,
                             tail: TimeValue? = nil) -> ChainStage {
        ChainStage("delay", fields: stated(["time": .number(time)], [
            "feedback": feedback.map(SettingValue.number), "wet": wet.map(SettingValue.number), "lowpass": lowpass.map(SettingValue.number),
            "tail": tail.map(field),
        ]))
    }

    /// A reverb in `room`, `wet` percent, its tail capped at `tail`: `reverb preset="large hall" wet=30`.
    public static func reverb(_ room: ReverbRoom, wet: Double? = nil, tail: TimeValue? = nil) -> ChainStage {
        ChainStage("reverb", fields: stated(["preset": .text(room.rawValue)], ["wet": wet.map(SettingValue.number), "tail": tail.map(field)]))
    }

    /// Convolution with the impulse response in the file `impulse` (`wet` percent, `gain` dB on
    /// the convolved signal, `normalize` its level), its tail capped at `tail`: `convolution impulse=ir.wav wet=30`.
    public static func convolution(_ impulse: String, wet: Double? = nil, gain: Double? = nil, normalize: Bool? = nil,
                                   tail: TimeValue? = nil) -> ChainStage {
        ChainStage("convolution", fields: stated(["impulse": .text(impulse)], [
            "wet": wet.map(SettingValue.number), "gain": gain.map(SettingValue.number), "normalize": normalize.map(SettingValue.flag),
            "tail": tail.map(field),
        ]))
    }

    /// The tempo times `ratio`, pitch kept: `timepitch tempo=1.25`.
    public static func tempo(_ ratio: Double) -> ChainStage {
        ChainStage("timepitch", fields: ["tempo": .number(ratio)])
    }

    /// The pitch moved by `semitones`, tempo kept: `timepitch pitch=-3`.
    public static func pitch(_ semitones: Double) -> ChainStage {
        ChainStage("timepitch", fields: ["pitch": .number(semitones)])
    }

    /// Tempo and pitch together times `ratio`, as a tape played faster: `timepitch speed=1.1`.
    public static func speed(_ ratio: Double) -> ChainStage {
        ChainStage("timepitch", fields: ["speed": .number(ratio)])
    }

    /// `required` with the optional fields that were given.
    private static func stated(_ required: [String: SettingValue], _ optional: [String: SettingValue?]) -> [String: SettingValue] {
        required.merging(optional.compactMapValues { $0 }) { first, _ in first }
    }
}

/// The rooms a `reverb` stage imitates: the names of `ReverbPreset.all`, as `AVAudioUnitReverb`'s factory presets are called.
public enum ReverbRoom: String, CaseIterable, Sendable {
    case smallRoom = "small room"
    case mediumRoom = "medium room"
    case largeRoom = "large room"
    case mediumHall = "medium hall"
    case largeHall = "large hall"
    case plate
    case mediumChamber = "medium chamber"
    case largeChamber = "large chamber"
    case cathedral
    case largeRoom2 = "large room 2"
    case mediumHall2 = "medium hall 2"
    case mediumHall3 = "medium hall 3"
    case largeHall2 = "large hall 2"
}
