import AudioMetadata

/// A loudness gain a file's tags hold, as a player reads it: ReplayGain's, an Opus file's R128
/// gain or Sound Check's `iTunNORM`, brought to ReplayGain 2.0's reference (−18 LUFS) so that
/// a library tagged by different tools plays at one level.
public struct StoredGain: Equatable, Sendable {
    /// The tag a gain was read from.
    public enum Source: String, CaseIterable, Sendable {
        case replayGainTrack = "REPLAYGAIN_TRACK_GAIN"
        case replayGainAlbum = "REPLAYGAIN_ALBUM_GAIN"
        case r128Track = "R128_TRACK_GAIN"
        case r128Album = "R128_ALBUM_GAIN"
        case soundCheck = "iTunNORM"

        /// Whether the gain levels an album rather than a track.
        public var isAlbum: Bool { self == .replayGainAlbum || self == .r128Album }
    }

    /// The gain in dB, against −18 LUFS.
    public var gain: Double
    /// The highest sample the gain applies to, linear (1 is full scale); nil when the tags hold
    /// none (R128 gains have no peak).
    public var peak: Double?
    /// The tag it was read from.
    public var source: Source

    public init(gain: Double, peak: Double?, source: Source) {
        self.gain = gain
        self.peak = peak
        self.source = source
    }

    /// The gain for `album` (else the track's) that `tags` hold, in the order players look:
    /// ReplayGain's fields, then R128's (an Opus file's), then Sound Check's (a track gain
    /// only). Nil when none parses. A value that does not parse is passed over, as players do.
    public static func read(from tags: Tags, album: Bool) -> StoredGain? {
        let replayGain: [Source] = album ? [.replayGainAlbum, .replayGainTrack] : [.replayGainTrack]
        let r128: [Source] = album ? [.r128Album, .r128Track] : [.r128Track]
        for source in replayGain + r128 {
            if let gain = tags[source.rawValue].first.flatMap(source.parse) {
                return StoredGain(gain: gain, peak: source.peakField.flatMap { tags[$0].first }.flatMap(Self.peak), source: source)
            }
        }
        for key in soundCheckKeys {
            if let text = tags[key].first, let gain = LevelingGains.soundCheckGain(text) {
                return StoredGain(gain: gain + LevelingGains.replayGainReference - LevelingGains.soundCheckReference,
                                  peak: soundCheckPeak(text), source: .soundCheck)
            }
        }
        return nil
    }

    /// The keys TagLib gives Sound Check's field: an MP4 freeform atom, an MP3's `COMM` frame.
    static let soundCheckKeys = [TagFields.soundCheck, "COMMENT:" + TagFields.soundCheck]

    /// Every key a stored gain is read from, with their peaks and reference: what a leveled
    /// output must not carry, or a player would apply the gain again.
    public static let keys = LevelingTags.replayGain + LevelingTags.r128 + soundCheckKeys

    /// `text` without the spaces and tabs around it.
    static func trimmed(_ text: some StringProtocol) -> String {
        String(text.drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }

    /// A linear peak (`0.988831`), or nil.
    static func peak(_ text: String) -> Double? {
        Double(trimmed(text)).flatMap { $0 > 0 && $0.isFinite ? $0 : nil }
    }

    /// Sound Check's peak (fields 7 and 8, the louder, as a 16-bit sample magnitude), or nil when outside 1…32767.
    static func soundCheckPeak(_ text: String) -> Double? {
        let fields = text.split(separator: " ").compactMap { Int($0, radix: 16) }
        guard fields.count == 10, case let peak = max(fields[6], fields[7]), (1...32767).contains(peak) else { return nil }
        return Double(peak) / 32767
    }
}

extension StoredGain.Source {
    /// The gain `text` states, against −18 LUFS: ReplayGain's `-7.02 dB` (the unit optional), R128's Q7.8 integer plus
    /// the 5 dB between its −23 LUFS and ReplayGain's reference.
    func parse(_ text: String) -> Double? {
        var trimmed = StoredGain.trimmed(text)
        switch self {
        case .replayGainTrack, .replayGainAlbum:
            if trimmed.lowercased().hasSuffix("db") { trimmed = StoredGain.trimmed(trimmed.dropLast(2)) }
            if trimmed.hasPrefix("+") { trimmed.removeFirst() }
            return Double(trimmed).flatMap { $0.isFinite && abs($0) <= 96 ? $0 : nil }
        case .r128Track, .r128Album:
            guard let value = Int(trimmed), (-32768...32767).contains(value) else { return nil }
            return Double(value) / 256 + LevelingGains.replayGainReference - LevelingGains.r128Reference
        case .soundCheck:
            return LevelingGains.soundCheckGain(text)
        }
    }

    /// The field holding the peak the gain applies to, if the tag system has one.
    var peakField: String? {
        switch self {
        case .replayGainTrack: "REPLAYGAIN_TRACK_PEAK"
        case .replayGainAlbum: "REPLAYGAIN_ALBUM_PEAK"
        default: nil
        }
    }
}
