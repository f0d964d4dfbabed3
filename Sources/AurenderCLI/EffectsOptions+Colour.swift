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
        _ = try delaySettings(sampleRate: nil)
    }

    /// The flags given, which a graph file cannot take (its nodes state them).
    var colourFlags: [String] {
        [(delay != nil, "--delay")].filter(\.0).map(\.1)
    }

    /// Whether an effect that rings on after the input is asked for, so `--tail` applies.
    var hasTail: Bool { delay != nil }

    /// The nodes after the dynamics at `sampleRate`: distortion, delay, reverb; `tail` caps the
    /// tail of those that ring on (default 60 s).
    func colourNodes(sampleRate: Double, tail: TimeValue?) throws -> [AudioNode] {
        let limit = (tail ?? EffectTail.defaultLimit).frames(at: sampleRate)
        var nodes: [AudioNode] = []
        do {
            if let settings = try delaySettings(sampleRate: sampleRate) {
                nodes.append(try DelayNode(sampleRate: sampleRate, settings: settings, tailLimit: limit))
            }
        } catch let error as ValidationError {
            throw RenderError.usage(error.message)
        }
        return nodes
    }

    /// The echo asked for, if any; a low-pass at or above half of `sampleRate` (when known) is refused.
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
        if let feedback = try Self.percent(fields, 1, flag: flag, name: "feedback", in: -100...100) { settings.feedback = feedback / 100 }
        if let wet = try Self.percent(fields, 2, flag: flag, name: "wet", in: 0...100) { settings.wet = wet / 100 }
        if fields.count > 3, !fields[3].isEmpty {
            let nyquist = (sampleRate ?? 768_000) / 2
            guard let hertz = ValueSyntax.hertz(fields[3]), hertz >= 10, hertz <= nyquist else {
                throw ValidationError("\(flag): the low-pass must be from 10 Hz to half the rate (\(Self.text(nyquist)) Hz), not '\(fields[3])'")
            }
            settings.lowpass = hertz
        }
        return settings
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
