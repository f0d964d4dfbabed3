import AudioGraph
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Multiplies a stream by a fixed gain: what loudness normalization applies once it has
/// measured the programme.
///
/// The gain is set when the node is made, before the render, so it never changes mid-stream
/// and needs no ramp; 0 dB passes samples through untouched.
public final class GainNode: AudioNode {
    /// The gain in decibels.
    public let decibels: Double
    /// Why the gain is there and how it was chosen, for plans; nil shows the gain itself.
    public let purpose: String?
    private let factor: Float

    public init(name: String = "gain", decibels: Double, purpose: String? = nil) {
        self.decibels = decibels
        self.purpose = purpose
        factor = Float(pow(10, decibels / 20))
        super.init(name: name, inputBusCount: 1, outputBusCount: 1)
    }

    /// What the gain takes: the one declaration of its range and unit, for plans and the kind's setting.
    public static let gain = ParameterDescription(id: 0, name: "gain", range: -96...96, defaultValue: 0, unit: .decibels)

    public override var planDetail: String? { purpose ?? Self.gain.describe(Float(decibels)) }

    public override func render(_ flags: inout RenderActionFlags, _ request: RenderRequest, _ output: AudioBufferList) throws -> Int {
        let frames = try pullInput(bus: 0, &flags, request, into: output)
        guard factor != 1 else { return frames }
        for channel in 0..<output.channelCount {
            let samples = output[channel]
            for frame in 0..<frames { samples[frame] *= factor }
        }
        return frames
    }
}

extension GainNode {
    /// The gain as a catalogued node kind: one fixed gain in dB.
    public static let kind = NodeKind(
        name: "gain", summary: "multiplies the stream by a fixed gain",
        settings: [SettingDescription("gain", as: gain, "the gain in dB", required: true)],
        make: { name, settings, _ in GainNode(name: name, decibels: settings.number("gain")!) })
}

extension GainNode: FrequencyResponding {
    /// The gain, the same at every frequency.
    public func responseDecibels(at frequency: Double) -> Double { decibels }
}
