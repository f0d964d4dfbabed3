/// Something told of every block a stream carries, as a render notification is in Core Audio
/// (`AudioUnitAddRenderNotify`): a file reader or writer calls it with each block it reads or
/// writes, on its own thread, so a report can watch the stream go by without a second pass.
///
/// `rendered(_:frames:)` runs on the render path: it must not allocate, lock or block.
public protocol RenderNotify: AnyObject {
    /// Told of the first `frames` frames of `buffers` (planar, full scale ±1), in stream order.
    func rendered(_ buffers: AudioBufferList, frames: Int)
}
