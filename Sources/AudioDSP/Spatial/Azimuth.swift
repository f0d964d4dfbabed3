#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Angle arithmetic the panners share: azimuths in degrees, 0 ahead, positive to the right.
enum Azimuth {
    /// `degrees` wrapped into −180…180 (180 and −180 are the same direction, behind).
    static func wrapped(_ degrees: Double) -> Double {
        let turned = (degrees + 180).truncatingRemainder(dividingBy: 360)
        return (turned < 0 ? turned + 360 : turned) - 180
    }

    /// `degrees` reflected into the front half, −90…90: a direction behind the listener becomes
    /// its mirror image in front (150° becomes 30°), so it keeps its side and its distance from
    /// the median plane. For layouts with no speaker behind.
    static func foldedToFront(_ degrees: Double) -> Double {
        let angle = wrapped(degrees)
        if angle > 90 { return 180 - angle }
        if angle < -90 { return -180 - angle }
        return angle
    }

    /// The angle turned clockwise (to the right) from `start` to reach `end`, 0 ..< 360.
    static func clockwiseSpan(from start: Double, to end: Double) -> Double {
        let span = (end - start).truncatingRemainder(dividingBy: 360)
        return span < 0 ? span + 360 : span
    }

    /// The unit vector of a direction on the horizontal plane: x to the right, y ahead.
    static func unitVector(_ degrees: Double) -> (x: Double, y: Double) {
        let radians = degrees * .pi / 180
        return (sin(radians), cos(radians))
    }
}
