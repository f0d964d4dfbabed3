import AudioGraph
import CSndfile

/// How samples are stored in a file: the subtype part of an `SF_FORMAT_*` value.
public struct SoundFileEncoding: RawRepresentable, Hashable, Sendable {
    public let rawValue: Int32
    public init(rawValue: Int32) { self.rawValue = rawValue & Int32(SF_FORMAT_SUBMASK) }

    /// Signed 8-bit PCM. `SF_FORMAT_PCM_S8`
    public static let pcmS8 = SoundFileEncoding(rawValue: Int32(SF_FORMAT_PCM_S8))
    /// Unsigned 8-bit PCM. `SF_FORMAT_PCM_U8`
    public static let pcmU8 = SoundFileEncoding(rawValue: Int32(SF_FORMAT_PCM_U8))
    /// Signed 16-bit PCM. `SF_FORMAT_PCM_16`
    public static let pcm16 = SoundFileEncoding(rawValue: Int32(SF_FORMAT_PCM_16))
    /// Signed 24-bit PCM. `SF_FORMAT_PCM_24`
    public static let pcm24 = SoundFileEncoding(rawValue: Int32(SF_FORMAT_PCM_24))
    /// Signed 32-bit PCM. `SF_FORMAT_PCM_32`
    public static let pcm32 = SoundFileEncoding(rawValue: Int32(SF_FORMAT_PCM_32))
    /// 32-bit IEEE float. `SF_FORMAT_FLOAT`
    public static let float = SoundFileEncoding(rawValue: Int32(SF_FORMAT_FLOAT))
    /// 64-bit IEEE float. `SF_FORMAT_DOUBLE`
    public static let double = SoundFileEncoding(rawValue: Int32(SF_FORMAT_DOUBLE))
    /// Ogg Vorbis. `SF_FORMAT_VORBIS`
    public static let vorbis = SoundFileEncoding(rawValue: Int32(SF_FORMAT_VORBIS))
    /// Opus. `SF_FORMAT_OPUS`
    public static let opus = SoundFileEncoding(rawValue: Int32(SF_FORMAT_OPUS))
    /// MPEG-1/2 Layer III (MP3). `SF_FORMAT_MPEG_LAYER_III`
    public static let mpegLayer3 = SoundFileEncoding(rawValue: Int32(SF_FORMAT_MPEG_LAYER_III))

    /// The sample type the encoding holds exactly, or nil for compressed codecs.
    public var sampleType: SampleType? {
        switch self {
        case .pcmS8, .pcmU8: .int8
        case .pcm16: .int16
        case .pcm24: .int24
        case .pcm32: .int32
        case .float: .float32
        case .double: .float64
        default: nil
        }
    }

    /// The integer bit depth the samples are quantized to, for PCM encodings only.
    public var integerBits: Int? {
        guard let type = sampleType, type.isInteger else { return nil }
        return type.bitDepth
    }

    /// libsndfile's name for the encoding ("Signed 16 bit PCM").
    public var name: String { LibSndfile.formatName(rawValue) ?? "encoding 0x\(String(rawValue, radix: 16))" }
}
