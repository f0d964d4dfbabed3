import CSndfile

/// A file container libsndfile reads or writes: the major part of an `SF_FORMAT_*` value.
public struct SoundFileType: RawRepresentable, Hashable, Sendable {
    public let rawValue: Int32
    public init(rawValue: Int32) { self.rawValue = rawValue & Int32(SF_FORMAT_TYPEMASK) }

    /// Microsoft WAV. `SF_FORMAT_WAV`
    public static let wav = SoundFileType(rawValue: Int32(SF_FORMAT_WAV))
    /// WAV with the extensible header, for more than two channels or 24 bits. `SF_FORMAT_WAVEX`
    public static let wavex = SoundFileType(rawValue: Int32(SF_FORMAT_WAVEX))
    /// Apple/SGI AIFF. `SF_FORMAT_AIFF`
    public static let aiff = SoundFileType(rawValue: Int32(SF_FORMAT_AIFF))
    /// Sun/NeXT AU, which can be written to a pipe. `SF_FORMAT_AU`
    public static let au = SoundFileType(rawValue: Int32(SF_FORMAT_AU))
    /// Headerless samples; reading needs the format given. `SF_FORMAT_RAW`
    public static let raw = SoundFileType(rawValue: Int32(SF_FORMAT_RAW))
    /// Sony Wave64. `SF_FORMAT_W64`
    public static let w64 = SoundFileType(rawValue: Int32(SF_FORMAT_W64))
    /// RF64, WAV past 4 GiB. `SF_FORMAT_RF64`
    public static let rf64 = SoundFileType(rawValue: Int32(SF_FORMAT_RF64))
    /// FLAC, lossless. `SF_FORMAT_FLAC`
    public static let flac = SoundFileType(rawValue: Int32(SF_FORMAT_FLAC))
    /// Apple Core Audio Format. `SF_FORMAT_CAF`
    public static let caf = SoundFileType(rawValue: Int32(SF_FORMAT_CAF))
    /// Ogg, holding Vorbis or Opus. `SF_FORMAT_OGG`
    public static let ogg = SoundFileType(rawValue: Int32(SF_FORMAT_OGG))
    /// MPEG audio (MP3). `SF_FORMAT_MPEG`
    public static let mpeg = SoundFileType(rawValue: Int32(SF_FORMAT_MPEG))

    /// Whether the container only holds lossy codecs, which have no bit depth.
    public var isLossy: Bool { self == .ogg || self == .mpeg }

    /// libsndfile's name for the container ("WAV (Microsoft)").
    public var name: String { LibSndfile.formatName(rawValue) ?? "container 0x\(String(rawValue, radix: 16))" }
}
