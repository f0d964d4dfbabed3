import AudioGraph

/// The far end of a call: what played through the speaker and may come back in the
/// microphone, which the voice node cancels. A file, in the command and in graph files.
///
/// It is read from the voice node's render, slice by slice, so reading allocates nothing
/// and takes no locks once the graph is initialized.
public protocol EchoReference: AnyObject {
    /// What it gives: its own rate (the voice node resamples it) and channels (mixed to mono).
    var format: StreamFormat { get }
    /// What to call it in plans and messages: a file's path.
    var label: String { get }
    /// Reads up to `frames` frames into `buffers`, one per channel; fewer only at its end.
    func read(into buffers: AudioBufferList, frames: Int) throws -> Int
    /// Goes back to its first frame, for a graph rendered again.
    func rewind() throws
}
