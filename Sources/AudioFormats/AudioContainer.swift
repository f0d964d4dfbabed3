/// A file container, named as aurender names it (`wav`, `flac`, `ogg`, …), whatever decoder or
/// encoder handles it.
///
/// Two containers are equal when their identifiers are; `name` is the longer description
/// plans and `info` print.
public struct AudioContainer: Hashable, Sendable, CustomStringConvertible {
    /// The short name: `wav`, `aiff`, `mp3`.
    public let identifier: String
    /// A description for people: `WAV (Microsoft)`.
    public let name: String

    /// A container called `identifier`, described as `name`.
    public init(identifier: String, name: String) {
        self.identifier = identifier
        self.name = name
    }

    /// Containers are the same when their identifiers are.
    public static func == (lhs: AudioContainer, rhs: AudioContainer) -> Bool { lhs.identifier == rhs.identifier }
    /// Hashes the identifier, as `==` compares it.
    public func hash(into hasher: inout Hasher) { hasher.combine(identifier) }
    /// The identifier.
    public var description: String { identifier }

    /// Microsoft WAV.
    public static let wav = AudioContainer(identifier: "wav", name: "WAV (Microsoft)")
    /// WAV with the extensible header, for more than two channels or 24 bits.
    public static let wavex = AudioContainer(identifier: "wavex", name: "WAVEX (Microsoft)")
    /// Apple/SGI AIFF (and AIFF-C).
    public static let aiff = AudioContainer(identifier: "aiff", name: "AIFF (Apple/SGI)")
    /// Sun/NeXT AU, which can be written to a pipe.
    public static let au = AudioContainer(identifier: "au", name: "AU (Sun/NeXT)")
    /// Headerless samples; reading needs the format given.
    public static let raw = AudioContainer(identifier: "raw", name: "RAW (header-less)")
    /// Sony Wave64.
    public static let w64 = AudioContainer(identifier: "w64", name: "W64 (SoundFoundry WAVE 64)")
    /// RF64, WAV past 4 GiB.
    public static let rf64 = AudioContainer(identifier: "rf64", name: "RF64 (RIFF 64)")
    /// FLAC, lossless.
    public static let flac = AudioContainer(identifier: "flac", name: "FLAC (Free Lossless Audio Codec)")
    /// Apple Core Audio Format.
    public static let caf = AudioContainer(identifier: "caf", name: "CAF (Apple Core Audio File)")
    /// Ogg, holding Vorbis or Opus.
    public static let ogg = AudioContainer(identifier: "ogg", name: "OGG (OGG Container format)")
    /// MPEG-1/2 audio (MP3).
    public static let mp3 = AudioContainer(identifier: "mp3", name: "MPEG-1/2 Audio")
    /// A WAV holding MPEG audio (format tag 0x55 for MP3, 0x50 for MP1/MP2), as FFmpeg and old
    /// Windows tools write it: read by an MPEG audio decoder, not as PCM.
    public static let mpegInWAV = AudioContainer(identifier: "wav-mpeg", name: "MPEG audio in WAV")
    /// MPEG-4 audio (`.m4a`), holding AAC or ALAC; the identifier the sniffer gives MP4 files.
    public static let m4a = AudioContainer(identifier: "mp4", name: "MPEG-4 audio (M4A)")

    /// Names accepted by `--type` and as file extensions, with the encoding a lossy name implies.
    private static let byName: [String: (AudioContainer, AudioEncoding?)] = [
        "wav": (.wav, nil), "wave": (.wav, nil), "wavex": (.wavex, nil), "aif": (.aiff, nil), "aiff": (.aiff, nil),
        "aifc": (.aiff, nil), "au": (.au, nil), "snd": (.au, nil), "raw": (.raw, nil), "pcm": (.raw, nil),
        "w64": (.w64, nil), "rf64": (.rf64, nil), "flac": (.flac, nil), "caf": (.caf, nil),
        "ogg": (.ogg, .vorbis), "oga": (.ogg, .vorbis), "opus": (.ogg, .opus), "mp3": (.mp3, .mp3),
        "m4a": (.m4a, .aac),
    ]

    /// The container a `--type` name or file extension names (`wav`, `flac`, `ogg`, `mp3`, …),
    /// and the encoding it implies for lossy names (`opus` is Ogg holding Opus).
    public static func named(_ name: String) -> (container: AudioContainer, encoding: AudioEncoding?)? {
        guard let entry = byName[name.lowercased()] else { return nil }
        return (entry.0, entry.1)
    }

    /// The container implied by a path's extension, if it has a known one.
    public static func forPath(_ path: String) -> (container: AudioContainer, encoding: AudioEncoding?)? {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return nil }
        return named(String(name[name.index(after: dot)...]))
    }

    /// Every name `named(_:)` accepts, for help texts.
    public static var knownNames: [String] { byName.keys.sorted() }

    /// The names and extensions that stand for this container (`aif`, `aifc`, `aiff`).
    public var extensions: [String] { Self.byName.filter { $0.value.0 == self }.keys.sorted() }

    /// Whether the container only holds lossy codecs, which have no bit depth.
    public var isLossy: Bool { self == .ogg || self == .mp3 }
}
