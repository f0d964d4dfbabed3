import AudioGraph
import SoundFile

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
        case .graph(let error): "internal error: \(error)"
        }
    }
}
