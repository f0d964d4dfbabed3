#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The mixer's constant-power pan law for a mono source on a stereo output, in one place: the
/// multichannel mixer's `pan` and the spatial mixer's `pan` rendering both use it.
///
/// For a pan p from −1 (left) to 1 (right), θ = (p + 1) π/4, left = cos θ and right = sin θ:
/// left² + right² = 1 at every pan, −3 dB each at the centre.
public enum EqualPowerPan {
    /// The left and right gains for `pan`, −1 (left) to 1 (right).
    public static func gains(pan: Float) -> (left: Float, right: Float) {
        let angle = (pan + 1) * Float.pi / 4
        return (cos(angle), sin(angle))
    }

    /// The left and right gains for a source at `azimuth` degrees (0 ahead, positive to the
    /// right): −90…90 map linearly to pan −1…1. A source behind the listener is panned as its
    /// mirror image in front (150° as 30°), so a circling source never jumps sides.
    public static func gains(azimuth: Double) -> (left: Float, right: Float) {
        gains(pan: Float(Azimuth.foldedToFront(azimuth) / 90))
    }
}
