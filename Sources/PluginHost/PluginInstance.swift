/// One instantiated plugin: ports connected to the node's buffers, run block by block.
///
/// `LADSPAPlugins` and `LilvPlugins` make them; `PluginNode` runs them. Nothing here may
/// allocate or lock once activated: `run(frames:)` is on the render path.
protocol PluginInstance: AnyObject {
    /// Points port `port` at `data` (nil leaves an optional port unconnected).
    func connect(port: Int, to data: UnsafeMutablePointer<Float>?)
    /// Prepares the plugin to run from silence.
    func activate()
    /// Stops it; `activate()` starts it again from silence.
    func deactivate()
    /// Processes `frames` frames on the connected ports.
    func run(frames: Int)
}

/// The block lengths a plugin is promised when it is made (LV2 `options:options` and `bufsz`).
struct BlockLengths {
    /// The fewest frames a run may have.
    var minimum: Int
    /// The most frames a run may have.
    var maximum: Int
    /// The usual number of frames in a run.
    var nominal: Int
}

/// An installed plugin, ready to be made into instances: its description and how to make one.
// Safe to share: its fields never change, and its closures reach lilv only under its lock (LADSPA's, a constant descriptor).
public final class LoadedPlugin: @unchecked Sendable {
    /// What the plugin is.
    public let description: PluginDescription
    let instantiate: (_ sampleRate: Double, _ blocks: BlockLengths) throws(PluginError) -> PluginInstance
    let presetValues: (_ preset: String) throws(PluginError) -> [String: Float]

    init(description: PluginDescription,
         instantiate: @escaping (Double, BlockLengths) throws(PluginError) -> PluginInstance,
         presetValues: @escaping (String) throws(PluginError) -> [String: Float]) {
        self.description = description
        self.instantiate = instantiate
        self.presetValues = presetValues
    }

    /// The control values preset `preset` (a URI or a label) sets, by port symbol.
    public func values(ofPreset preset: String) throws(PluginError) -> [String: Float] { try presetValues(preset) }
}
