/// What a voice processor does to a voice: noise suppression, automatic gain control, a
/// high-pass filter and echo cancellation, each on or off, as the Voice-Processing unit offers.
///
/// Plain values, checked against their ranges by `validate()`, so a node and a command line
/// can be given the same settings and refuse the same mistakes.
public struct VoiceSettings: Equatable, Sendable {
    /// How hard noise is suppressed: WebRTC's four levels.
    public enum NoiseSuppression: Int, CaseIterable, Sendable {
        case low, moderate, high, veryHigh

        /// The level's name in graph files and on the command line.
        public var name: String { ["low", "moderate", "high", "veryhigh"][rawValue] }

        /// The level called `name`, case ignored.
        public init?(name: String) {
            guard let level = Self.allCases.first(where: { $0.name == name.lowercased() }) else { return nil }
            self = level
        }
    }

    /// How hard the echo left after cancellation is suppressed: WebRTC's three levels.
    public enum EchoSuppression: Int, CaseIterable, Sendable {
        case low, moderate, high

        /// The level's name in graph files.
        public var name: String { ["low", "moderate", "high"][rawValue] }
    }

    /// The noise suppression, or nil for none.
    public var noiseSuppression: NoiseSuppression?
    /// The gain control's target for the speech's peaks, in dBFS (−31 to 0), or nil for none:
    /// nine in ten of the speech's 10 ms frames peak at or under it.
    public var gainTarget: Double?
    /// The most gain the gain control's compressor adds to quiet speech, in dB (0 to 90).
    public var gainCompression: Double = 9
    /// Whether an 80 Hz high-pass filter takes the rumble out first.
    public var highPass: Bool = false
    /// How hard residual echo is suppressed when there is a far end to cancel.
    public var echoSuppression: EchoSuppression = .moderate

    /// The gain control's target's range, in dBFS.
    public static let gainTargetRange: ClosedRange<Double> = -31...0
    /// The compressor's range, in dB.
    public static let gainCompressionRange: ClosedRange<Double> = 0...90

    /// Settings with every stage given; by default none runs.
    public init(noiseSuppression: NoiseSuppression? = nil, gainTarget: Double? = nil, gainCompression: Double = 9,
                highPass: Bool = false, echoSuppression: EchoSuppression = .moderate) {
        self.noiseSuppression = noiseSuppression
        self.gainTarget = gainTarget
        self.gainCompression = gainCompression
        self.highPass = highPass
        self.echoSuppression = echoSuppression
    }

    /// Refuses a target or a compression out of its range.
    public func validate() throws(VoiceProcessingError) {
        if let gainTarget, !Self.gainTargetRange.contains(gainTarget) {
            throw .outOfRange(setting: "gain target", value: gainTarget, range: Self.gainTargetRange, unit: "dBFS")
        }
        guard Self.gainCompressionRange.contains(gainCompression) else {
            throw .outOfRange(setting: "gain compression", value: gainCompression, range: Self.gainCompressionRange, unit: "dB")
        }
    }
}
