/// Recognises an input's format from its first bytes, as `file(1)` does, before any decoder
/// is chosen: the formats decoders claim, and common ones no decoder in this build reads,
/// which are then refused by name.
public enum FormatSniffer {
    /// What the first bytes say.
    public enum Finding: Equatable, Sendable {
        /// A container a decoder may claim, with its codec where the bytes tell it; its name
        /// says what it holds (`MPEG-4 audio (AAC)`) when no decoder claims it.
        case container(AudioContainer, AudioEncoding?)
        /// No magic number this table knows.
        case unrecognised
    }

    /// What `head`, the first bytes of an input, holds.
    public static func sniff(_ head: [UInt8]) -> Finding {
        let bytes = head[...]
        if bytes.starts(with: ascii("ID3")), bytes.count >= 10 {
            let size = bytes[6...9].reduce(0) { ($0 << 7) | Int($1 & 0x7F) } + 10
            guard size < bytes.count else { return .container(.mp3, .mp3) }
            let following = sniff(Array(bytes[(bytes.startIndex + size)...]))
            return following == .unrecognised ? .container(.mp3, .mp3) : following
        }
        for (magic, finding) in prefixes where bytes.starts(with: magic) { return finding }
        if let form = chunked(bytes, "FORM") { return form }
        if bytes.starts(with: ascii("RIFF")) || bytes.starts(with: ascii("RIFX")), bytes.count >= 12,
           Array(bytes[8..<12]) == ascii("WAVE") {
            return waveFormatTag(bytes) == 0x55 || waveFormatTag(bytes) == 0x50 ? .container(.mpegInWAV, .mp3) : .container(.wav, nil)
        }
        if bytes.count >= 12, Array(bytes[4..<8]) == ascii("ftyp") { return mpeg4(bytes) }
        if bytes.starts(with: ascii("OggS")) { return ogg(bytes) }
        if bytes.count >= 2, bytes[0] == 0xFF {
            if bytes[1] & 0xF6 == 0xF0 { return .known("ADTS AAC audio") }
            if bytes[1] & 0xE0 == 0xE0, (bytes[1] >> 1) & 3 != 0 { return .container(.mp3, .mp3) }
        }
        return .unrecognised
    }

    private static func ascii(_ text: String) -> [UInt8] { Array(text.utf8) }


    /// Magic numbers at byte 0.
    private static let prefixes: [([UInt8], Finding)] = [
        (ascii("fLaC"), .container(.flac, nil)),
        (ascii("caff"), .container(.caf, nil)),
        (ascii(".snd"), .container(.au, nil)),
        (ascii("dns."), .container(.au, nil)),
        (ascii("RF64"), .container(.rf64, nil)),
        (ascii("BW64"), .container(.rf64, nil)),
        ([0x72, 0x69, 0x66, 0x66, 0x2E, 0x91, 0xCF, 0x11], .container(.w64, nil)),
        (ascii("MAC "), .known("Monkey's Audio (APE)")),
        (ascii("wvpk"), .known("WavPack audio")),
        (ascii("MPCK"), .known("Musepack audio")),
        (ascii("MP+"), .known("Musepack audio")),
        (ascii("DSD "), .known("DSD audio (DSF)")),
        (ascii("FRM8"), .known("DSD audio (DSDIFF)")),
        (ascii("tBaK"), .known("TAK audio")),
        (ascii("TTA1"), .known("True Audio (TTA)")),
        (ascii("Creative Voice File\u{1A}"), .known("Creative Voice (VOC) audio")),
        ([0x0B, 0x77], .known("AC-3 (Dolby Digital) audio")),
        ([0x1A, 0x45, 0xDF, 0xA3], .known("Matroska/WebM media")),
        ([0x30, 0x26, 0xB2, 0x75, 0x8E, 0x66, 0xCF, 0x11], .known("ASF/WMA (Windows Media Audio)")),
    ]

    /// The format tag of a little-endian WAV's `fmt ` chunk, when it lies in `bytes`.
    private static func waveFormatTag(_ bytes: ArraySlice<UInt8>) -> Int? {
        guard bytes.starts(with: ascii("RIFF")) else { return nil }
        var offset = bytes.startIndex + 12
        while offset + 10 <= bytes.endIndex {
            let size = bytes[(offset + 4)..<(offset + 8)].reversed().reduce(0) { $0 << 8 | Int($1) }
            if Array(bytes[offset..<(offset + 4)]) == ascii("fmt ") { return Int(bytes[offset + 8]) | Int(bytes[offset + 9]) << 8 }
            offset += 8 + size + (size & 1)
        }
        return nil
    }

    /// An IFF `FORM` and its form type.
    private static func chunked(_ bytes: ArraySlice<UInt8>, _ id: String) -> Finding? {
        guard bytes.starts(with: ascii(id)), bytes.count >= 12 else { return nil }
        switch String(decoding: bytes[8..<12], as: UTF8.self) {
        case "AIFF", "AIFC": return .container(.aiff, nil)
        case "8SVX": return .known("Amiga 8SVX audio")
        default: return .unrecognised
        }
    }

    /// An ISO media file (`.m4a`, `.mp4`): AAC or ALAC when the sample description is in reach.
    private static func mpeg4(_ bytes: ArraySlice<UInt8>) -> Finding {
        let body = Array(bytes)
        func holds(_ fourCC: String) -> Bool {
            let pattern = ascii(fourCC)
            return body.count >= 4 && (0...(body.count - 4)).contains { Array(body[$0..<($0 + 4)]) == pattern }
        }
        if holds("alac") { return .known("MPEG-4 audio (ALAC)") }
        if holds("mp4a") { return .known("MPEG-4 audio (AAC)") }
        return .known("MPEG-4 audio")
    }

    /// An Ogg stream, by the codec its first packet names.
    private static func ogg(_ bytes: ArraySlice<UInt8>) -> Finding {
        guard bytes.count >= 27 else { return .container(.ogg, nil) }
        let packet = Array(bytes.dropFirst(27 + Int(bytes[26])))
        if packet.starts(with: [0x01] + ascii("vorbis")) { return .container(.ogg, .vorbis) }
        if packet.starts(with: ascii("OpusHead")) { return .container(.ogg, .opus) }
        if packet.starts(with: [0x7F] + ascii("FLAC")) { return .known("Ogg FLAC audio") }
        if packet.starts(with: ascii("Speex   ")) { return .known("Ogg Speex audio") }
        return .container(.ogg, nil)
    }
}

extension FormatSniffer.Finding {
    /// A container known by its description only (`MPEG-4 audio (AAC)`), identified by the
    /// container's short name (`mp4`), for a decoder to claim or the registry to refuse.
    static func known(_ description: String) -> FormatSniffer.Finding {
        .container(AudioContainer(identifier: identifiers[description] ?? description, name: description), nil)
    }

    /// The descriptions the sniffer gives `container` (`mp4`: `MPEG-4 audio (AAC)`, `MPEG-4 audio
    /// (ALAC)`, …), sorted; a container it has its own name for gives that name.
    static func descriptions(of container: AudioContainer) -> [String] {
        let known = identifiers.filter { $0.value == container.identifier }.keys.sorted()
        return known.isEmpty ? [container.name] : known
    }

    /// The identifiers of the containers `known(_:)` names: one per container, whatever its codec.
    private static let identifiers: [String: String] = [
        "MPEG-4 audio (AAC)": "mp4", "MPEG-4 audio (ALAC)": "mp4", "MPEG-4 audio": "mp4", "ADTS AAC audio": "adts",
        "Monkey's Audio (APE)": "ape", "WavPack audio": "wavpack", "Musepack audio": "musepack", "DSD audio (DSF)": "dsf",
        "DSD audio (DSDIFF)": "dff", "TAK audio": "tak", "True Audio (TTA)": "tta", "AC-3 (Dolby Digital) audio": "ac3",
        "Matroska/WebM media": "matroska", "ASF/WMA (Windows Media Audio)": "asf", "Ogg FLAC audio": "ogg-flac",
        "Ogg Speex audio": "ogg-speex", "Amiga 8SVX audio": "8svx",
        "Creative Voice (VOC) audio": "voc",
    ]
}

extension FormatSniffer {
    /// The file name extensions of the formats the sniffer recognises by content but that have
    /// no `AudioContainer` name of their own (`m4a`, `wv`, `mka`, …): what a folder scan takes
    /// as audio besides the containers' own extensions.
    public static let recognisedFileExtensions: Set<String> = [
        "m4a", "m4b", "m4p", "mp4", "3gp", "3g2", "mov", "aac", "adts", "wma", "asf", "ape", "wv", "mpc", "mp+",
        "dsf", "dff", "tak", "tta", "ac3", "eac3", "mka", "mkv", "webm", "spx", "8svx", "svx", "voc",
    ]

    /// Whether a file's name says it holds audio: a container's extension or a recognised format's.
    public static func isAudioFileName(_ name: String) -> Bool {
        if AudioContainer.forPath(name) != nil { return true }
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return false }
        return recognisedFileExtensions.contains(name[name.index(after: dot)...].lowercased())
    }
}
