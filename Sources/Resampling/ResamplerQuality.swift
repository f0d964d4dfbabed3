/// How carefully a sample rate is changed: aurender's own levels, which each engine maps to the
/// nearest level it has.
///
/// The band-limited levels (`best`, `high`, `medium`, `fastest`) are ranked; an engine that lacks one
/// gets the nearest it has, the better one on a tie. The interpolators (`zeroOrderHold`,
/// `linear`) are no rank of quality but a different kind of conversion: an engine has them or
/// refuses them.
public enum ResamplerQuality: String, CaseIterable, Sendable, CustomStringConvertible {
    /// The engine's best band-limited filter: widest passband, deepest stopband, slowest.
    case best
    /// A band-limited filter a little short of `best`: still beyond 16 bits, about twice as fast.
    case high
    /// A band-limited filter with a narrower passband, a few times faster than `best`.
    case medium
    /// The engine's cheapest band-limited filter.
    case fastest
    /// Zero-order hold: each input sample repeated; aliases.
    case zeroOrderHold = "zoh"
    /// Linear interpolation between input samples; aliases.
    case linear

    /// The name used in options and plans: best, high, medium, fastest, zoh, linear.
    public var name: String { rawValue }

    /// The name, as plans and messages print it.
    public var description: String { name }

    /// The quality a name names, in any letter case.
    public init?(name: String) {
        self.init(rawValue: name.lowercased())
    }

    /// Every name, as a sentence lists them: "best, high, medium, fastest, zoh or linear".
    public static var namesListed: String {
        let names = allCases.map(\.name)
        return names.dropLast().joined(separator: ", ") + " or " + names[names.count - 1]
    }

    /// This level if `offered` has it, else the nearest band-limited level it has (the better
    /// one on a tie); nil when neither: an interpolator an engine does not have.
    public func nearest(among offered: [ResamplerQuality]) -> ResamplerQuality? {
        if offered.contains(self) { return self }
        guard let rank else { return nil }
        let ranked = offered.compactMap { level in level.rank.map { (level, $0) } }
        return ranked.min { a, b in
            (abs(a.1 - rank), a.1) < (abs(b.1 - rank), b.1)
        }?.0
    }

    /// Where a band-limited level stands, best at 0: `high` sits halfway between `best` and
    /// `medium`, so an engine without it uses its best, and one without `medium` is as far
    /// from its best as from its fastest.
    private var rank: Double? {
        switch self {
        case .best: 0
        case .high: 0.5
        case .medium: 1
        case .fastest: 2
        case .zeroOrderHold, .linear: nil
        }
    }
}
