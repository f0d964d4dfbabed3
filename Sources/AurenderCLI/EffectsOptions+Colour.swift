import ArgumentParser
import Aurender

/// The effects that colour the sound after the dynamics: `--distort`, `--delay` and `--reverb`,
/// in that order (a guitarist's chain: the drive, then the echoes, then the room), before the
/// time and pitch change.
///
/// Their values are checked against the nodes' parameter ranges, so a message names the flag,
/// the field and its range.
extension EffectsOptions {
    /// Refuses a value out of its range, naming the flag and the field.
    func validateColour() throws {
        _ = try distortionSettings()
        _ = try delaySettings(sampleRate: nil)
        _ = try reverbSettings()
    }

    /// The flags given, which a graph file cannot take (its nodes state them).
    var colourFlags: [String] {
        [(distort != nil, "--distort"), (delay != nil, "--delay"), (reverb != nil, "--reverb")].filter(\.0).map(\.1)
    }

    /// Whether an effect that rings on after the input is asked for, so `--tail` applies.
    var hasTail: Bool { delay != nil || reverb != nil || convolve != nil }

    /// The stages after the dynamics: distortion, delay, reverb; `tail` caps the tail of those
    /// that ring on (default 60 s). A delay's low-pass is checked against `sampleRate`, the rate
    /// the stages run at, when known.
    func colourStages(sampleRate: Double?, tail: TimeValue?) throws -> [ChainStage] {
        do {
            return try [distortionSettings().map(ChainStage.distortion), delaySettings(sampleRate: sampleRate).map { .delay($0, tail: tail) },
                        reverbSettings().map { .reverb($0, tail: tail) }].compactMap { $0 }
        } catch let error as ValidationError {
            throw RenderError.usage(error.message)
        }
    }

    /// The echo asked for, if any; a low-pass above half of `sampleRate` (when known) is refused (at it, there is none).
    func delaySettings(sampleRate: Double?) throws -> FeedbackDelay.Settings? {
        guard let delay else { return nil }
        let flag = "--delay"
        let fields = delay.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        guard fields.count <= 4, !fields[0].isEmpty else { throw ValidationError("\(flag) \(delay): write TIME[:FEEDBACK%[:WET%[:LOWPASS_HZ]]], as 0.3:40") }
        let ranges = DelayNode.descriptions(sampleRate: sampleRate ?? 768_000)
        let time = ranges[DelayNode.Parameter.time.rawValue].range
        guard case .seconds(let seconds)? = TimeValue(fields[0]), Float(seconds) <= time.upperBound else {
            throw ValidationError("\(flag): the time must be from 0 to \(Self.text(Double(time.upperBound))) s (250ms, 0.5s), not '\(fields[0])'")
        }
        var settings = FeedbackDelay.Settings(time: seconds)
        if let feedback = try Self.percent(fields, 1, flag: flag, name: "feedback", in: KindRanges.range(DelayNode.kind, "feedback")) {
            settings.feedback = feedback / 100
        }
        if let wet = try Self.percent(fields, 2, flag: flag, name: "wet", in: KindRanges.range(DelayNode.kind, "wet")) { settings.wet = wet / 100 }
        if fields.count > 3, !fields[3].isEmpty {
            let nyquist = (sampleRate ?? 768_000) / 2
            guard let hertz = ValueSyntax.hertz(fields[3]), hertz >= 10, hertz <= nyquist else {
                throw ValidationError("\(flag): the low-pass must be from 10 Hz to half the rate (\(Self.text(nyquist)) Hz), not '\(fields[3])'")
            }
            settings.lowpass = hertz
        }
        return settings
    }

    /// The reverb asked for, if any: a preset found loosely (`largehall2`, `Large Hall 2`).
    func reverbSettings() throws -> Reverb.Settings? {
        guard let reverb else { return nil }
        let flag = "--reverb"
        let fields = reverb.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        guard fields.count <= 2, !fields[0].isEmpty else { throw ValidationError("\(flag) \(reverb): write PRESET[:WET%], as 'large hall:30'") }
        guard let preset = ReverbPreset.named(fields[0]) else {
            throw ValidationError("\(flag): no preset '\(fields[0])' (there are \(ReverbPreset.all.map(\.name).joined(separator: ", ")))")
        }
        var settings = Reverb.Settings(preset: preset)
        if let wet = try Self.percent(fields, 1, flag: flag, name: "wet", in: KindRanges.range(ReverbNode.kind, "wet")) { settings.wet = wet / 100 }
        return settings
    }

    /// The distortion asked for, if any.
    func distortionSettings() throws -> Distortion.Settings? {
        guard let distort else { return nil }
        let flag = "--distort"
        let fields = distort.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        guard fields.count <= 2, !fields[0].isEmpty else { throw ValidationError("\(flag) \(distort): write DRIVE_DB[:SHAPE], as 20 or 12:hard") }
        let ranges = DistortionNode.descriptions
        let driveRange = ranges[DistortionNode.Parameter.drive.rawValue].range
        guard let drive = ValueSyntax.level(fields[0]), Float(drive) >= driveRange.lowerBound, Float(drive) <= driveRange.upperBound else {
            throw ValidationError("\(flag): the drive must be from \(Self.text(Double(driveRange.lowerBound))) to "
                                  + "\(Self.text(Double(driveRange.upperBound))) dB, not '\(fields[0])'")
        }
        var settings = Distortion.Settings(drive: drive)
        guard fields.count > 1, !fields[1].isEmpty else { return settings }
        let shape = fields[1].lowercased()
        switch shape {
        case "soft": settings.shape = .soft
        case "hard": settings.shape = .hard
        case _ where shape.hasPrefix("crush"):
            settings.shape = .crush
            settings.bits = try Self.whole(String(shape.dropFirst(5)), flag: flag, name: "bit depth", parameter: ranges[DistortionNode.Parameter.bits.rawValue]) ?? settings.bits
        case _ where shape.hasPrefix("decimate"):
            settings.shape = .decimate
            settings.decimation = try Self.whole(String(shape.dropFirst(8)), flag: flag, name: "decimation",
                                                 parameter: ranges[DistortionNode.Parameter.decimation.rawValue]) ?? settings.decimation
        default:
            throw ValidationError("\(flag): the shape must be soft, hard, crushBITS or decimateN, not '\(fields[1])'")
        }
        return settings
    }

    /// A whole number written after a shape's name, within its parameter's range; nil when none is written.
    private static func whole(_ written: String, flag: String, name: String, parameter: ParameterDescription) throws -> Int? {
        guard !written.isEmpty else { return nil }
        guard let value = Int(written), Float(value) >= parameter.range.lowerBound, Float(value) <= parameter.range.upperBound else {
            throw ValidationError("\(flag): the \(name) must be a whole number from \(text(Double(parameter.range.lowerBound))) to "
                                  + "\(text(Double(parameter.range.upperBound))), not '\(written)'")
        }
        return value
    }

    /// A percentage field (`40` or `40%`), if given.
    private static func percent(_ fields: [String], _ index: Int, flag: String, name: String, in range: ClosedRange<Double>) throws -> Double? {
        guard fields.count > index, !fields[index].isEmpty else { return nil }
        let written = fields[index].hasSuffix("%") ? String(fields[index].dropLast()) : fields[index]
        guard let value = Double(written), range.contains(value) else {
            throw ValidationError("\(flag): the \(name) must be from \(text(range.lowerBound)) to \(text(range.upperBound)) %, not '\(fields[index])'")
        }
        return value
    }
}
