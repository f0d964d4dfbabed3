import FoundationEssentials

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
    /// The tags an encoder writes before its audio, so that no tag library rewrites the finished
    /// file and an output it cannot go back into (a pipe) gets them; nil leaves the tags to be
    /// written into the finished file. An encoder whose format places none before its audio
    /// leaves them (`AudioEncoder.wroteLeadingTags`). Not compression either.
    public var leadingTags: LeadingTags?

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

/// The tags an encoder places before its audio, already in the form its format holds them: one
/// pass writes them, and a pipe, which no tag library can go back into, gets them too.
public struct LeadingTags: Sendable, Equatable {
    /// Vorbis comment fields, `FIELD=value` in UTF-8, for FLAC, Ogg Vorbis and Opus.
    public var comments: [String]
    /// The pictures, as the bodies of FLAC `PICTURE` blocks, each in pieces written one after
    /// another (its fields, then the image's own bytes, written from where they are): a FLAC
    /// stream's blocks, an Ogg stream's `METADATA_BLOCK_PICTURE` fields once in base64.
    public var pictures: [[Data]]
    /// A whole ID3v2 tag, for an MP3, as pieces written one after another (a picture's bytes are a
    /// piece of their own, written from where they are rather than copied into the tag); empty for none.
    public var id3v2: [Data]

    /// Comments and pictures for a Xiph format, or an ID3v2 tag for an MP3.
    public init(comments: [String] = [], pictures: [[Data]] = [], id3v2: [Data] = []) {
        self.comments = comments
        self.pictures = pictures
        self.id3v2 = id3v2
    }

    /// The body of a FLAC `VORBIS_COMMENT` block: the vendor's name, then the comments (not the
    /// pictures, which have blocks of their own), each with its length in little-endian.
    public func vorbisCommentBody(vendor: [UInt8]) -> [UInt8] {
        let fields = comments.map { Array($0.utf8) }
        var body = Self.little32(vendor.count) + vendor + Self.little32(fields.count)
        for field in fields { body += Self.little32(field.count) + field }
        return body
    }

    private static func little32(_ value: Int) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }
}
