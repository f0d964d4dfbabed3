import Aurender

/// The ranges the command's flags take, read from the node kinds that declare them: a flag's
/// help, its check and its error say what its kind takes, and no range is restated here.
enum KindRanges {
    /// The range `kind` declares for `field`: a parameter, a number setting, or a list's field (`buses.gain`).
    static func range(_ kind: NodeKind, _ field: String) -> ClosedRange<Double> {
        guard let range = kind.range(field) else { preconditionFailure("the \(kind.name) kind declares no range for '\(field)'") }
        return range
    }

    /// The range as help and errors write it: `LOW to HIGH`, then ` unit` when one is given (`LOW to HIGH dB`).
    static func text(_ kind: NodeKind, _ field: String, unit: String = "") -> String {
        text(range(kind, field), unit: unit)
    }

    /// `range` as help and errors write it, as `text(_:_:unit:)` does.
    static func text(_ range: ClosedRange<Double>, unit: String = "") -> String {
        "\(EffectsOptions.text(range.lowerBound)) to \(EffectsOptions.text(range.upperBound))" + (unit.isEmpty ? "" : " \(unit)")
    }
}
