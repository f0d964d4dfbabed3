/// A node whose effect on a steady tone is designed, so it can be computed rather than measured:
/// an EQ or a filter. A report draws it beside the measured spectra, to show whether the
/// processing did what it was designed to do.
public protocol FrequencyResponding: AudioNode {
    /// The gain, in dB, the node's current settings give a steady sine at `frequency` Hz; valid
    /// once the graph is initialized (the design depends on the sample rate).
    func responseDecibels(at frequency: Double) -> Double
}
