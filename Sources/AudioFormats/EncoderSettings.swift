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
}
