/// A room a reverb imitates, by name: `AVAudioUnitReverb`'s factory presets, each with the
/// reverberation time it is made to have and the size, damping and pre-delay that go with it.
///
/// The reverberation time is the mid-frequency one (the 500 Hz to 1 kHz octave, ISO 3382's
/// T_mid) at the default reverberance (50 %); the docs list it and a test measures it.
public struct ReverbPreset: Equatable, Sendable {
    /// The name, as Apple's presets are called, in words (`medium hall`).
    public let name: String
    /// Seconds for the sound to fall by 60 dB, mid-frequency.
    public let reverberationTime: Double
    /// How large the room's delays are, against a medium hall's (1).
    public let size: Double
    /// How much faster the highs die, 0 to 1 (SoX's HF damping, as a fraction).
    public let damping: Double
    /// The gap before the reverberation starts, in seconds.
    public let preDelay: Double

    /// Apple's factory presets, in Apple's order.
    public static let all: [ReverbPreset] = [
        ReverbPreset(name: "small room", reverberationTime: 0.5, size: 0.45, damping: 0.6, preDelay: 0.005),
        ReverbPreset(name: "medium room", reverberationTime: 0.8, size: 0.6, damping: 0.55, preDelay: 0.008),
        ReverbPreset(name: "large room", reverberationTime: 1.2, size: 0.8, damping: 0.5, preDelay: 0.012),
        ReverbPreset(name: "medium hall", reverberationTime: 1.8, size: 1, damping: 0.45, preDelay: 0.02),
        ReverbPreset(name: "large hall", reverberationTime: 2.6, size: 1.25, damping: 0.45, preDelay: 0.03),
        ReverbPreset(name: "plate", reverberationTime: 1.6, size: 0.5, damping: 0.25, preDelay: 0),
        ReverbPreset(name: "medium chamber", reverberationTime: 1.3, size: 0.7, damping: 0.4, preDelay: 0.01),
        ReverbPreset(name: "large chamber", reverberationTime: 1.9, size: 0.9, damping: 0.4, preDelay: 0.015),
        ReverbPreset(name: "cathedral", reverberationTime: 4.5, size: 1.6, damping: 0.35, preDelay: 0.04),
        ReverbPreset(name: "large room 2", reverberationTime: 1.5, size: 0.85, damping: 0.55, preDelay: 0.015),
        ReverbPreset(name: "medium hall 2", reverberationTime: 2.0, size: 1.05, damping: 0.5, preDelay: 0.022),
        ReverbPreset(name: "medium hall 3", reverberationTime: 2.2, size: 1.1, damping: 0.4, preDelay: 0.024),
        ReverbPreset(name: "large hall 2", reverberationTime: 3.2, size: 1.4, damping: 0.5, preDelay: 0.035),
    ]

    /// The preset called `name`, spaces, hyphens, underscores and case aside (`largeHall2`, `large-hall-2`).
    public static func named(_ name: String) -> ReverbPreset? {
        let key = Self.key(name)
        return all.first { Self.key($0.name) == key }
    }

    private static func key(_ name: String) -> String {
        String(name.lowercased().filter { $0.isLetter || $0.isNumber })
    }
}
