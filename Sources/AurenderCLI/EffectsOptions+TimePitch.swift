import ArgumentParser
import Aurender

/// `--tempo`, `--pitch` and `--speed`, applied by one time-pitch node after the dynamics.
///
/// They combine as the node's parameters do: the length is divided by tempo × speed and the
/// pitch moves by `--pitch` semitones and by the speed, so `--speed 1.25 --tempo 0.8` raises the
/// pitch by a major third and keeps the length.
extension EffectsOptions {
    /// Refuses a tempo, pitch or speed out of the node's range, naming the flag.
    func validateTimePitch() throws {
        for (flag, value, name, unit) in [("--tempo", tempo, "tempo", ""), ("--pitch", pitch, "pitch", "semitones"), ("--speed", speed, "speed", "")] {
            guard let value else { continue }
            guard KindRanges.range(TimePitchNode.kind, name).contains(value) else {
                throw ValidationError("\(flag) must be from \(KindRanges.text(TimePitchNode.kind, name, unit: unit)), not \(Self.text(value))")
            }
        }
    }

    /// The time and pitch flags given, which a graph file cannot take (its timepitch nodes state them).
    var timePitchFlags: [String] {
        [(tempo != nil, "--tempo"), (pitch != nil, "--pitch"), (speed != nil, "--speed")].filter(\.0).map(\.1)
    }

    /// The time-pitch stage; none when the values change nothing.
    var timePitchStages: [ChainStage] {
        let (tempo, pitch, speed) = (tempo ?? 1, pitch ?? 0, speed ?? 1)
        guard tempo != 1 || pitch != 0 || speed != 1 else { return [] }
        return [ChainStage("timepitch", fields: ["tempo": .number(tempo), "pitch": .number(pitch), "speed": .number(speed)])]
    }

    /// A number without a fraction when it has none: 4, 0.25.
    static func text(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }
}
