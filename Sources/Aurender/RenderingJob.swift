/// A job that renders one output with `RenderJob.Options`: a single file, a mix or a graph
/// file. What the command needs to run any of them the same way (with a progress counter).
public protocol RenderingJob {
    var options: RenderJob.Options { get set }
    /// Renders, leaving either a complete output or none.
    func run() throws -> RenderJob.Summary
}

extension RenderJob: RenderingJob {}
extension MixJob: RenderingJob {}
extension GraphJob: RenderingJob {}
