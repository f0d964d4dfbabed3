/// The type of one sample as it is stored: integer widths or floating point.
///
/// Inside a graph every sample is `float32`; the others exist at the file edges.
public enum SampleType: String, Sendable, Codable, CaseIterable {
    case int8, int16, int24, int32, float32, float64

    /// Bits one sample occupies.
    public var bitDepth: Int {
        switch self {
        case .int8: 8
        case .int16: 16
        case .int24: 24
        case .int32: 32
        case .float32: 32
        case .float64: 64
        }
    }

    /// Whether samples are integers, which clip at full scale and may want dither.
    public var isInteger: Bool { self != .float32 && self != .float64 }
}

/// A description of a stream of audio: rate, channels, sample type and layout.
///
/// Apple's `AudioStreamBasicDescription`, reduced to what aurender needs. The graph's
/// canonical format is Float32, non-interleaved (one buffer per channel).
public struct StreamFormat: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The most channels a stream may have; larger counts are treated as a damaged file.
    public static let maximumChannelCount = 1024
    /// The highest sample rate accepted, in Hz; anything above is treated as a damaged file.
    public static let maximumSampleRate = 3_072_000.0

    /// Frames per second.
    public var sampleRate: Double
    /// Channels per frame.
    public var channelCount: Int
    /// How one sample is stored.
    public var sampleType: SampleType
    /// Whether the channels of a frame lie next to each other in one buffer.
    public var isInterleaved: Bool

    /// A format with every field given; call `validate()` before trusting it.
    public init(sampleRate: Double, channelCount: Int, sampleType: SampleType = .float32, isInterleaved: Bool = false) {
        self.sampleRate = sampleRate
        self.channelCount = channelCount
        self.sampleType = sampleType
        self.isInterleaved = isInterleaved
    }

    /// The format that flows inside a graph: Float32, non-interleaved.
    public static func canonical(sampleRate: Double, channelCount: Int) -> StreamFormat {
        StreamFormat(sampleRate: sampleRate, channelCount: channelCount)
    }

    /// This format with the graph's sample type and layout, keeping rate and channels.
    public var canonical: StreamFormat { .canonical(sampleRate: sampleRate, channelCount: channelCount) }

    /// Whether this is the graph's own Float32 non-interleaved form.
    public var isCanonical: Bool { sampleType == .float32 && !isInterleaved }

    /// Throws `FormatError` when a field is out of range.
    public func validate() throws(FormatError) {
        guard channelCount >= 1 else { throw .noChannels }
        guard channelCount <= Self.maximumChannelCount else { throw .tooManyChannels(channelCount) }
        guard sampleRate.isFinite, sampleRate > 0 else { throw .invalidSampleRate(sampleRate) }
        guard sampleRate <= Self.maximumSampleRate else { throw .invalidSampleRate(sampleRate) }
    }

    public var description: String {
        let rate = sampleRate == sampleRate.rounded() ? String(Int(sampleRate)) : String(sampleRate)
        let layout = channelCount == 1 ? "" : (isInterleaved ? " interleaved" : " non-interleaved")
        return "\(rate) Hz, \(channelCount) ch, \(sampleType.rawValue)\(layout)"
    }
}

/// Why a stream format was refused.
public enum FormatError: Error, Equatable, Sendable, CustomStringConvertible {
    case noChannels
    case tooManyChannels(Int)
    case invalidSampleRate(Double)

    public var description: String {
        switch self {
        case .noChannels:
            "the stream has no channels"
        case .tooManyChannels(let count):
            "\(count) channels is more than the \(StreamFormat.maximumChannelCount) supported"
        case .invalidSampleRate(let rate):
            "sample rate \(rate) Hz is not usable (it must be above 0 and at most \(Int(StreamFormat.maximumSampleRate)) Hz)"
        }
    }
}
