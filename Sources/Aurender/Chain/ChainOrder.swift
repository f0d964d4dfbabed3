/// The order a render applies its stages in when the user gives no order of their own: the
/// order of the familiar flags, from the microphone's clean-up to the placing in space.
///
/// voice → silence trim → plugins → filters → EQ (→ plugins, when they go after it) → gain →
/// gate → compressor → distortion → delay → reverb → convolution → time and pitch → spatial.
/// Stages of one kind keep the order they were given in; kinds not listed go last, in order.
public enum ChainOrder {
    /// The kinds in their default order, with the plugins before the EQ.
    public static let kinds = ["voice", "silence", "plugin", "filter", "eq", "gain", "gate", "compressor", "distortion", "delay",
                               "reverb", "convolution", "timepitch", "spatial"]

    /// The kinds in order with the plugins moved after the EQ.
    public static let kindsWithPluginsAfterEQ = ["voice", "silence", "filter", "eq", "plugin", "gain", "gate", "compressor",
                                                 "distortion", "delay", "reverb", "convolution", "timepitch", "spatial"]

    /// `stages` in the default order (`pluginsAfterEQ` moves the plugins after the EQ); a stable
    /// sort, so stages of one kind keep their order.
    public static func ordered(_ stages: [ChainStage], pluginsAfterEQ: Bool = false) -> [ChainStage] {
        let order = pluginsAfterEQ ? kindsWithPluginsAfterEQ : kinds
        func rank(_ stage: ChainStage) -> Int { order.firstIndex(of: stage.kind) ?? order.count }
        return stages.enumerated().sorted { (rank($0.element), $0.offset) < (rank($1.element), $1.offset) }.map(\.element)
    }
}
