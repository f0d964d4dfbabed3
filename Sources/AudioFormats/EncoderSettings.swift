/// How hard a lossy encoder compresses: a target bit rate or a quality, each nil for the
/// encoder's default.
///
/// Lossless and PCM encodings take neither (`AudioEncoding.takesBitRate`).
public struct EncoderSettings: Sendable, Equatable {
    /// The target bit rate in bits per second, for all channels together (`256_000`).
    public var bitRate: Int?
    /// A variable-bit-rate quality from 0 (smallest) to 1 (best), instead of a bit rate.
    public var quality: Double?
    /// The chapters a container's muxer writes before the audio (an MPEG-4 file's, by FFmpeg's);
    /// an encoder whose container holds none leaves them, and the render names them as not kept.
    /// They compress nothing, so `isDefault` does not look at them.
    public var chapters: [EncoderChapter] = []

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

/// A chapter handed to an encoder: a span in frames at the output's rate, with its title; written
/// by the muxer of a container that states its chapters before its audio (MPEG-4).
public struct EncoderChapter: Sendable, Equatable {
    /// Its first frame.
    public var start: Int64
    /// The frame after its last.
    public var end: Int64
    /// Its title; "" for none.
    public var title: String

    /// The chapter from `start` to `end`, titled `title`.
    public init(start: Int64, end: Int64, title: String) {
        self.start = start
        self.end = end
        self.title = title
    }
}
