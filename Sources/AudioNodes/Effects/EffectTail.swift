import AudioGraph

/// What the effects that ring on after their input (delay, reverb) share: the `tail` setting of
/// their kinds, its default, how plans say it, and the check that the graph runs at the rate
/// the node was made for.
public enum EffectTail {
    /// The tail limit when none is given: 60 seconds, as plugins have.
    public static let defaultLimit = TimeValue.seconds(60)

    /// The kinds' `tail` setting.
    static let setting = SettingDescription("tail", .time, "the most tail rendered after the input ends (default: 60 s; it stops at -120 dBFS)")

    /// The tail limit in frames a node's settings ask for.
    static func limit(_ settings: NodeSettings, sampleRate: Double) -> Int64 {
        (settings.time("tail") ?? defaultLimit).frames(at: sampleRate)
    }

    /// A tail limit as plans print it: `60 s (ends under -120 dBFS)`.
    static func describe(_ limit: Int64?, sampleRate: Double) -> String {
        let seconds = Double(limit ?? 0) / sampleRate
        let text = seconds == seconds.rounded() ? String(Int(seconds)) : String((seconds * 1000).rounded() / 1000)
        return "\(text) s (ends under -120 dBFS)"
    }

    /// Refuses a stream at another rate than the one `node` was made for (its times count frames at that rate).
    static func requireRate(_ sampleRate: Double, of node: AudioNode) throws(GraphError) {
        guard let format = node.streamFormat(scope: .input, bus: 0) else { throw .missingFormat(node: node.name, scope: .input, bus: 0) }
        if format.sampleRate != sampleRate {
            throw .unsupportedFormat(node: node.name, scope: .input, bus: 0, format: format,
                                     reason: "the node was made for \(Int(sampleRate)) Hz")
        }
    }
}
