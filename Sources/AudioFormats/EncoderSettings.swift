/// How hard a lossy encoder compresses: a target bit rate or a quality, each nil for the
/// encoder's default.
///
/// Lossless and PCM encodings take neither (`AudioEncoding.takesBitRate`).
public struct EncoderSettings: Sendable, Equatable {
    /// The target bit rate in bits per second, for all channels together (`256_000`).
    public var bitRate: Int?
    /// A variable-bit-rate quality from 0 (smallest) to 1 (best), instead of a bit rate.
    public var quality: Double?

    /// Settings of `bitRate` or `quality`; none gives the encoder's defaults.
    public init(bitRate: Int? = nil, quality: Double? = nil) {
        self.bitRate = bitRate
        self.quality = quality
    }

    /// Whether nothing is set.
    public var isDefault: Bool { bitRate == nil && quality == nil }

    /// The bit rates any encoder here takes, in bits per second.
    public static let bitRates: ClosedRange<Int> = 8_000...1_536_000

    /// The bit rate `text` names: bits per second (`96000`), thousands of them with `k`
    /// (`256k`), or a bare number under 1,000, which no encoder takes as bits per second, as
    /// thousands (`192`, as LAME's `-b 192` means it); nil for anything else or outside `bitRates`.
    public static func bitRate(parsing text: String) -> Int? {
        let lower = text.lowercased()
        let thousands = lower.hasSuffix("k")
        guard let value = Double(thousands ? String(lower.dropLast()) : lower), value.isFinite else { return nil }
        let bits = (value * (thousands || value < 1_000 ? 1_000 : 1)).rounded()
        guard bits >= Double(bitRates.lowerBound), bits <= Double(bitRates.upperBound) else { return nil }
        return Int(bits)
    }
}
