#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How a source's level falls with its distance from the listener, as
/// `AVAudioEnvironmentDistanceAttenuationParameters` (and OpenAL's clamped models) define it.
///
/// With d clamped to [reference, maximum], r the reference distance and f the roll-off factor:
/// - inverse: r / (r + f (d − r));
/// - linear: 1 − f (d − r) / (maximum − r), never below 0 (and 1 when maximum = r);
/// - exponential: (d / r)^(−f).
/// A source at or nearer than the reference distance keeps its level; beyond the maximum it
/// falls no further.
public struct DistanceModel: Sendable, Equatable {
    /// The shape of the fall.
    public enum Kind: String, Sendable, CaseIterable {
        case inverse, linear, exponential
    }

    /// The shape of the fall; inverse by default, as `AVAudioEnvironmentNode`'s.
    public var kind: Kind
    /// The distance in metres within which a source keeps its level; above 0.
    public var referenceDistance: Double
    /// The distance in metres beyond which the level falls no further; at least the reference.
    public var maximumDistance: Double
    /// How fast the level falls: 0 not at all, 1 the model's natural rate; at least 0.
    public var rolloffFactor: Double

    /// A model with `AVAudioEnvironmentNode`'s defaults for whatever is not given.
    public init(kind: Kind = .inverse, referenceDistance: Double = 1, maximumDistance: Double = 100_000,
                rolloffFactor: Double = 1) {
        self.kind = kind
        self.referenceDistance = referenceDistance
        self.maximumDistance = maximumDistance
        self.rolloffFactor = rolloffFactor
    }

    /// Throws when the settings make no model: a reference distance that is not above 0, a
    /// maximum below the reference, a negative roll-off, or a value that is not finite.
    public func validate() throws(DistanceModelError) {
        guard referenceDistance.isFinite, referenceDistance > 0 else { throw .referenceDistance(referenceDistance) }
        guard maximumDistance.isFinite, maximumDistance >= referenceDistance else {
            throw .maximumDistance(maximumDistance, reference: referenceDistance)
        }
        guard rolloffFactor.isFinite, rolloffFactor >= 0 else { throw .rolloffFactor(rolloffFactor) }
    }

    /// The gain of a source `distance` metres away; settings `validate` accepts give a gain in
    /// 0…1.
    public func gain(distance: Double) -> Float {
        let reference = referenceDistance, maximum = max(maximumDistance, referenceDistance)
        let d = min(max(distance, reference), maximum)
        switch kind {
        case .inverse:
            return Float(reference / (reference + rolloffFactor * (d - reference)))
        case .linear:
            guard maximum > reference else { return 1 }
            return Float(max(0, 1 - rolloffFactor * (d - reference) / (maximum - reference)))
        case .exponential:
            return Float(pow(d / reference, -rolloffFactor))
        }
    }
}

/// Distance-model settings that make no model.
public enum DistanceModelError: Error, Equatable, CustomStringConvertible {
    case referenceDistance(Double)
    case maximumDistance(Double, reference: Double)
    case rolloffFactor(Double)

    public var description: String {
        switch self {
        case .referenceDistance(let value): "the reference distance must be above 0 metres, not \(value)"
        case .maximumDistance(let value, let reference):
            "the maximum distance must be at least the reference distance (\(reference) m), not \(value)"
        case .rolloffFactor(let value): "the roll-off factor must be 0 or more, not \(value)"
        }
    }
}
