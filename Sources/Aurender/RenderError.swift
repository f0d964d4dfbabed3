import AudioDSP
import AudioGraph
import AudioFormats
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Why a render did not produce its output; the message names the file and the cause.
public enum RenderError: Error, CustomStringConvertible {
    /// The options cannot work together (an unknown container, a bad combination).
    case usage(String)
    /// The input could not be opened, was not usable audio, or failed while reading.
    case input(AudioFormatError)
    /// The output could not be written or completed.
    case output(AudioFormatError)
    /// The output names the same file as an input.
    case sameFile(input: String, output: String)
    /// The output's temporary file could not be created or renamed into place.
    case cannotCreate(path: String, reason: String)
    /// The output would have clipped and the clip policy is `fail`; nothing was written.
    case clipped(path: String, count: ClipCount)
    /// Normalizing would need a gain that puts the true peak over the ceiling; nothing was written.
    case truePeakOver(path: String, target: Double, gain: Double, truePeak: Double, ceiling: Double, reachable: Double)
    /// The input has no loudness: no 400 ms block reaches the −70 LUFS gate (silent, or too short).
    case silent(path: String)
    /// The graph refused its own configuration: a bug, not bad input.
    case graph(GraphError)

    public var description: String {
        switch self {
        case .usage(let message): message
        case .input(let error): error.description
        case .output(let error): error.description
        case .sameFile(let input, let output):
            "\(output): is the same file as the input \(input); refusing to overwrite an input"
        case .cannotCreate(let path, let reason): "\(path): cannot create output: \(reason)"
        case .clipped(let path, let count):
            "\(path): \(count.overs) samples would clip; not written (\(Self.clipAdvice(count)))"
        case .truePeakOver(let path, let target, let gain, let truePeak, let ceiling, let reachable):
            "\(path): reaching \(Self.format(target)) LUFS needs \(Self.format(gain, signed: true)) dB, which puts the true peak at "
                + "\(Self.format(truePeak, signed: true)) dBTP, over the \(Self.format(ceiling)) dBTP ceiling; not written "
                + "(the loudest it can be is \(Self.format(reachable)) LUFS; or use --over-ceiling lower)"
        case .silent(let path): "\(path): too quiet or too short to normalize (no 400 ms block reaches the -70 LUFS gate)"
        case .graph(let error): "internal error: \(error)"
        }
    }

    /// `value` with one decimal, and a + when `signed` and positive.
    public static func format(_ value: Double, signed: Bool = false) -> String {
        let tenths = (value * 10).rounded()
        let text = String(abs(tenths) / 10)
        return (tenths < 0 ? "-" : (signed && tenths > 0 ? "+" : "")) + text
    }

    /// What to do about clipping: the preamp that brings the peak just under full scale.
    public static func clipAdvice(_ count: ClipCount) -> String {
        let overBy = 20 * log10(Double(max(count.peak, 1)))
        return "try --preamp -\(max(1, Int(overBy.rounded(.up))))"
    }
}
