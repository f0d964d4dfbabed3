import AudioFiles
import AudioFormats
import AudioGraph
import VoiceProcessing

/// A far end read from a file, for the voice node's echo cancellation: any file aurender reads,
/// decoded by the decoder the format registry chooses, at its own rate and channels.
public final class EchoReferenceFile: EchoReference {
    /// The file's path, as given.
    public let label: String
    private let reader: AudioFileReader

    /// Opens the file at `path`; the error names the file and why it cannot be read.
    public init(path: String) throws(AudioFormatError) {
        label = path
        reader = AudioFileReader(file: try FormatRegistry.standard.openDecoder(path: path))
    }

    public var format: StreamFormat { reader.format }

    public func read(into buffers: AudioBufferList, frames: Int) throws -> Int {
        var flags = RenderActionFlags()
        return try reader.render(&flags, RenderRequest(timeStamp: AudioTimeStamp(sampleTime: reader.framesRead), bus: 0, frameCount: frames),
                                 buffers)
    }

    public func rewind() throws { try reader.rewind() }
}
