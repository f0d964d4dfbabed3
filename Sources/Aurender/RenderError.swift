import AudioDSP
import AudioGraph
import AudioFormats
import AudioNodes
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Why a render did not produce its output; the message names the file and the cause.
public enum RenderError: Error, CustomStringConvertible {
    /// The options cannot work together (a bad combination).
    case usage(String)
    /// The output's name does not say which container to write, and none was given.
    case unknownContainer(path: String, known: [String])
    /// The input could not be opened, was not usable audio, or failed while reading.
    case input(AudioFormatError)
    /// The output could not be written or completed.
    case output(AudioFormatError)
    /// The output names the same file as an input.
    case sameFile(input: String, output: String)
    /// The output's temporary file could not be created or put into place.
    case cannotCreate(path: String, reason: String)
    /// The output would have clipped and the clip policy is `fail`; nothing was written.
    case clipped(path: String, count: ClipCount)
    /// Normalizing would need a gain that puts the true peak over the ceiling; nothing was written.
    /// The target and the reachable level are in `unit` (LUFS, or dBFS for a peak target).
    case truePeakOver(path: String, target: Double, unit: String, gain: Double, truePeak: Double, ceiling: Double, reachable: Double)
    /// The input has no loudness: no 400 ms block reaches the −70 LUFS gate (silent, or too short).
    case silent(path: String)
    /// The input is digital silence: it has no peak to normalize.
    case noPeak(path: String)
    /// `--replaygain` found no stored gain to play the input back by (`reason` says why) and no fallback was given.
    case noStoredGain(path: String, reason: String)
    /// The graph refused its own configuration: a bug, not bad input.
    case graph(GraphError)
    /// A path in `subject` (a graph file) leads outside the folders it may use; nothing was read or written.
    case pathRefused(subject: String, PathRefusal)

    public var description: String {
        switch self {
        case .usage(let message): message
        case .unknownContainer(let path, let known):
            "\(path): cannot tell the output container from the name (containers: \(known.joined(separator: ", ")))"
        case .input(let error): error.description
        case .output(let error): error.description
        case .sameFile(let input, let output):
            "\(output): is the same file as the input \(input); refusing to overwrite an input"
        case .cannotCreate(let path, let reason): "\(path): cannot create output: \(reason)"
        case .clipped(let path, let count):
            "\(path): \(count.overs) samples would clip; not written (\(Self.clipExcess(count)))"
        case .truePeakOver(let path, let target, let unit, let gain, let truePeak, let ceiling, let reachable):
            "\(path): reaching \(Self.format(target)) \(unit) needs \(Self.format(gain, signed: true)) dB, which puts the true peak at "
                + "\(Self.format(truePeak, signed: true)) dBTP, over the \(Self.format(ceiling)) dBTP ceiling; not written "
                + "(the loudest it can be is \(Self.format(reachable)) \(unit))"
        case .silent(let path): "\(path): too quiet or too short to normalize (no 400 ms block reaches the -70 LUFS gate)"
        case .noPeak(let path): "\(path): digital silence has no peak to normalize"
        case .noStoredGain(let path, let reason):
            "\(path): no gain to play back by: \(reason)"
        case .graph(let error): "internal error: \(error)"
        case .pathRefused(let subject, let refusal): "\(subject): \(refusal)"
        }
    }

    /// `value` with one decimal, and a + when `signed` and positive.
    public static func format(_ value: Double, signed: Bool = false) -> String {
        let tenths = (value * 10).rounded()
        let text = String(abs(tenths) / 10)
        return (tenths < 0 ? "-" : (signed && tenths > 0 ? "+" : "")) + text
    }

    /// The whole decibels by which the level must come down to bring the peak under full scale (at least 1).
    public static func headroomNeeded(_ count: ClipCount) -> Int {
        max(1, Int((20 * log10(Double(max(count.peak, 1)))).rounded(.up)))
    }

    /// How far the peak went over full scale, for messages.
    static func clipExcess(_ count: ClipCount) -> String {
        "the peak is \(format(20 * log10(Double(max(count.peak, 1))))) dB over full scale"
    }
}
