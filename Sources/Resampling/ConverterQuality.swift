import CSamplerate

/// A libsamplerate converter: how a sample rate is changed, from best to cheapest.
public struct ConverterQuality: RawRepresentable, Hashable, Sendable, CaseIterable, CustomStringConvertible {
    public let rawValue: Int32
    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// Band-limited sinc, 97 dB SNR, 97% bandwidth. `SRC_SINC_BEST_QUALITY`
    public static let best = ConverterQuality(rawValue: Int32(SRC_SINC_BEST_QUALITY))
    /// Band-limited sinc, 97 dB SNR, 90% bandwidth. `SRC_SINC_MEDIUM_QUALITY`
    public static let medium = ConverterQuality(rawValue: Int32(SRC_SINC_MEDIUM_QUALITY))
    /// Band-limited sinc, 97 dB SNR, 80% bandwidth. `SRC_SINC_FASTEST`
    public static let fastest = ConverterQuality(rawValue: Int32(SRC_SINC_FASTEST))
    /// Zero-order hold: each sample repeated; aliases. `SRC_ZERO_ORDER_HOLD`
    public static let zeroOrderHold = ConverterQuality(rawValue: Int32(SRC_ZERO_ORDER_HOLD))
    /// Linear interpolation; aliases. `SRC_LINEAR`
    public static let linear = ConverterQuality(rawValue: Int32(SRC_LINEAR))

    public static let allCases: [ConverterQuality] = [.best, .medium, .fastest, .zeroOrderHold, .linear]

    /// The name used on the command line: best, medium, fastest, zoh, linear.
    public var name: String {
        switch self {
        case .best: "best"
        case .medium: "medium"
        case .fastest: "fastest"
        case .zeroOrderHold: "zoh"
        default: "linear"
        }
    }

    /// The quality a command-line name names.
    public init?(name: String) {
        guard let found = Self.allCases.first(where: { $0.name == name.lowercased() }) else { return nil }
        self = found
    }

    /// libsamplerate's own name for the converter.
    public var description: String { LibSamplerate.name(rawValue) }
}
