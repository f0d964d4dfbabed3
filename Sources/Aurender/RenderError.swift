import AudioDSP
import AudioGraph
import SoundFile
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
    case input(SoundFileError)
    /// The output could not be written or completed.
    case output(SoundFileError)
    /// The output names the same file as an input.
    case sameFile(input: String, output: String)
    /// The output's temporary file could not be created or renamed into place.
    case cannotCreate(path: String, reason: String)
    /// The output would have clipped and the clip policy is `fail`; nothing was written.
    case clipped(path: String, count: ClipCount)
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
        case .graph(let error): "internal error: \(error)"
        }
    }

    /// What to do about clipping: the preamp that brings the peak just under full scale.
    public static func clipAdvice(_ count: ClipCount) -> String {
        let overBy = 20 * log10(Double(max(count.peak, 1)))
        return "try --preamp -\(max(1, Int(overBy.rounded(.up))))"
    }
}
