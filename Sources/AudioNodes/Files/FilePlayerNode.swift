import AudioFiles
import AudioFormats
import AudioGraph

/// Plays a file into a graph as a node: no input bus, one output bus in the file's format
/// (its rate and channels, in the canonical form).
///
/// Core Audio's file player unit, over any `FileSource` (`AudioFileReader`,
/// `ThreadedFileReader`, …). Where a render callback has to be attached to the node it feeds,
/// a player is added and connected like any other node, and `Graph.reset()` rewinds it when its
/// source is a `RewindableSource`. The player renders what the source gives: at the end of the
/// file the rest of the slice is zeros and the stream ends.
public final class FilePlayerNode: AudioNode {
    /// The source the player reads from.
    public let source: FileSource

    /// A player named `name` for `source`.
    public init(name: String = "player", source: FileSource) {
        self.source = source
        super.init(name: name, inputBusCount: 0, outputBusCount: 1)
        try? setStreamFormat(source.format, scope: .output)
    }

    /// A player named `name` for the file at `path`, decoded by the decoder the standard format
    /// registry chooses by the file's content; throws when no decoder can open it.
    public convenience init(name: String = "player", path: String) throws(AudioFormatError) {
        self.init(name: name, source: AudioFileReader(file: try FormatRegistry.standard.openDecoder(path: path)))
    }

    /// Requires the output bus to carry the file's format.
    public override func validateFormats() throws(GraphError) {
        try requireCanonical(scope: .output, bus: 0)
        if let output = streamFormat(scope: .output), output != source.format {
            throw .unsupportedFormat(node: name, scope: .output, bus: 0, format: output,
                                     reason: "a file player gives its file's format, \(source.format); convert after it")
        }
    }

    public override func render(_ flags: inout RenderActionFlags, _ request: RenderRequest, _ output: AudioBufferList) throws -> Int {
        try source.render(&flags, request, output)
    }

    /// Rewinds the source to the file's first frame; throws when the source cannot rewind.
    public override func reset() throws {
        guard let rewindable = source as? RewindableSource else {
            throw GraphError.cannotReset(node: name, reason: "its source (\(type(of: source))) cannot go back to the start of the file")
        }
        try rewindable.rewind()
    }
}
