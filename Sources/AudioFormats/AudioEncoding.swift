import AudioGraph

/// How a file stores its samples: a PCM width, a float type or a codec, named as aurender
/// names it (`pcm16`, `float`, `ulaw`, `vorbis`, …).
///
/// Two encodings are equal when their identifiers are; `name` is the longer description plans
/// and `info` print.
public struct AudioEncoding: Hashable, Sendable, CustomStringConvertible {
    /// The short name: `pcm16`, `vorbis`.
    public let identifier: String
    /// A description for people: `Signed 16 bit PCM`.
    public let name: String
    /// The sample type the encoding holds exactly, or nil for codecs.
    public let sampleType: SampleType?
    /// The integer bits that hold every decoded sample exactly: the PCM width, or 16 for codecs
    /// that decode to 16-bit values (G.711, ADPCM, GSM); nil for float and lossy codecs.
    /// Quantizing such samples unprocessed to that many bits or more needs no dither.
    public let exactBits: Int?

    /// An encoding called `identifier`, described as `name`, holding `sampleType` exactly (nil for
    /// codecs); `exactBits` defaults to the sample type's integer width.
    public init(identifier: String, name: String, sampleType: SampleType? = nil, exactBits: Int? = nil) {
        self.identifier = identifier
        self.name = name
        self.sampleType = sampleType
        self.exactBits = exactBits ?? sampleType.flatMap { $0.isInteger ? $0.bitDepth : nil }
    }

    /// Encodings are the same when their identifiers are.
    public static func == (lhs: AudioEncoding, rhs: AudioEncoding) -> Bool { lhs.identifier == rhs.identifier }
    /// Hashes the identifier, as `==` compares it.
    public func hash(into hasher: inout Hasher) { hasher.combine(identifier) }
    /// The identifier.
    public var description: String { identifier }

    /// Signed 8-bit PCM.
    public static let pcmS8 = AudioEncoding(identifier: "pcm8", name: "Signed 8 bit PCM", sampleType: .int8)
    /// Unsigned 8-bit PCM.
    public static let pcmU8 = AudioEncoding(identifier: "pcmu8", name: "Unsigned 8 bit PCM", sampleType: .int8)
    /// Signed 16-bit PCM.
    public static let pcm16 = AudioEncoding(identifier: "pcm16", name: "Signed 16 bit PCM", sampleType: .int16)
    /// Signed 24-bit PCM.
    public static let pcm24 = AudioEncoding(identifier: "pcm24", name: "Signed 24 bit PCM", sampleType: .int24)
    /// Signed 32-bit PCM.
    public static let pcm32 = AudioEncoding(identifier: "pcm32", name: "Signed 32 bit PCM", sampleType: .int32)
    /// 32-bit IEEE float.
    public static let float = AudioEncoding(identifier: "float", name: "32 bit float", sampleType: .float32)
    /// 64-bit IEEE float.
    public static let double = AudioEncoding(identifier: "double", name: "64 bit float", sampleType: .float64)
    /// G.711 µ-law.
    public static let ulaw = AudioEncoding(identifier: "ulaw", name: "U-Law", exactBits: 16)
    /// G.711 A-law.
    public static let alaw = AudioEncoding(identifier: "alaw", name: "A-Law", exactBits: 16)
    /// IMA ADPCM.
    public static let imaADPCM = AudioEncoding(identifier: "ima-adpcm", name: "IMA ADPCM", exactBits: 16)
    /// Microsoft ADPCM.
    public static let msADPCM = AudioEncoding(identifier: "ms-adpcm", name: "Microsoft ADPCM", exactBits: 16)
    /// GSM 6.10.
    public static let gsm610 = AudioEncoding(identifier: "gsm610", name: "GSM 6.10", exactBits: 16)
    /// Vorbis (in Ogg).
    public static let vorbis = AudioEncoding(identifier: "vorbis", name: "Vorbis")
    /// Opus (in Ogg).
    public static let opus = AudioEncoding(identifier: "opus", name: "Opus")
    /// MPEG-1/2 Layer III.
    public static let mp3 = AudioEncoding(identifier: "mp3", name: "MPEG Layer III")
    /// MPEG-1/2 Layer II (MP2, broadcast audio).
    public static let mp2 = AudioEncoding(identifier: "mp2", name: "MPEG Layer II")
    /// MPEG-1/2 Layer I (MP1).
    public static let mp1 = AudioEncoding(identifier: "mp1", name: "MPEG Layer I")
    /// AAC (Advanced Audio Coding, low complexity), in MPEG-4.
    public static let aac = AudioEncoding(identifier: "aac", name: "AAC (Advanced Audio Coding)")
    /// Apple Lossless in MPEG-4, holding 16-bit samples exactly.
    public static let alac = AudioEncoding(identifier: "alac", name: "ALAC (Apple Lossless Audio Codec)", sampleType: .int16)
    /// Apple Lossless in MPEG-4, holding 24-bit samples exactly.
    public static let alac24 = AudioEncoding(identifier: "alac24", name: "ALAC (Apple Lossless Audio Codec), 24-bit", sampleType: .int24)

    /// The ALAC encoding of `bits` bits (16 or 24), the depths Apple Lossless holds; nil for others.
    public static func alac(bits: Int) -> AudioEncoding? {
        [16: alac, 24: alac24][bits]
    }

    /// Whether the encoding is a lossy codec whose bit rate or quality can be set
    /// (`EncoderSettings`): AAC, MP3, Vorbis, Opus.
    public var takesBitRate: Bool { [Self.aac, .mp3, .vorbis, .opus].contains(self) }

    /// The PCM or float encoding for a bit depth name: 8, 16, 24, 32, float, double.
    public static func forBits(_ bits: String) -> AudioEncoding? {
        switch bits.lowercased() {
        case "8": .pcmS8
        case "16": .pcm16
        case "24": .pcm24
        case "32": .pcm32
        case "float", "f32": .float
        case "double", "f64": .double
        default: nil
        }
    }

    /// The PCM or float encoding that holds samples of `type` exactly (signed for 8 bits).
    public static func pcm(of type: SampleType) -> AudioEncoding {
        switch type {
        case .int8: .pcmS8
        case .int16: .pcm16
        case .int24: .pcm24
        case .int32: .pcm32
        case .float32: .float
        case .float64: .double
        }
    }

    /// The integer bit depth the samples are quantized to, for PCM encodings only.
    public var integerBits: Int? {
        guard let type = sampleType, type.isInteger else { return nil }
        return type.bitDepth
    }
}
