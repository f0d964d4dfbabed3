/// A Broadcast WAV `bext` chunk (EBU Tech 3285): who made the recording, when, and where in the
/// day its first frame lies.
///
/// Kept as the chunk's bytes, so it is carried verbatim; only the time reference is changed,
/// when the audio moves. The fields are read from those bytes.
public struct BroadcastExtension: Equatable, Sendable {
    /// The chunk's body, as read.
    public private(set) var bytes: [UInt8]

    /// The bytes its fixed fields take, before the coding history.
    public static let fixedSize = 602

    /// The `bext` body `bytes`; nil when it is too short to hold the fixed fields.
    public init?(bytes: [UInt8]) {
        guard bytes.count >= Self.fixedSize else { return nil }
        self.bytes = bytes
    }

    /// The free description (256 characters).
    public var description: String { Bytes.text(bytes[0..<256]) }
    /// The organization or person that made it (32 characters).
    public var originator: String { Bytes.text(bytes[256..<288]) }
    /// The originator's reference for it (32 characters).
    public var originatorReference: String { Bytes.text(bytes[288..<320]) }
    /// The day it was made, `yyyy-mm-dd`.
    public var originationDate: String { Bytes.text(bytes[320..<330]) }
    /// The time it was made, `hh:mm:ss`.
    public var originationTime: String { Bytes.text(bytes[330..<338]) }
    /// The first frame's position, in frames since midnight at the file's rate.
    public var timeReference: UInt64 {
        get { Bytes.littleUInt64(bytes, 338) }
        set { bytes.replaceSubrange(338..<346, with: Bytes.little(newValue)) }
    }
    /// The version of the chunk's layout (0, 1 or 2).
    public var version: Int { Int(Bytes.littleUInt16(bytes, 346)) }
    /// The SMPTE UMID (version 1 and later), in hexadecimal; empty when it is all zeros.
    public var umid: String {
        let umid = bytes[348..<412]
        guard umid.contains(where: { $0 != 0 }) else { return "" }
        return umid.map { ($0 < 16 ? "0" : "") + String($0, radix: 16, uppercase: true) }.joined()
    }
    /// The loudness fields of version 2, in LUFS, LU and dBTP; nil for a field stated as unknown
    /// (0x7FFF) or a chunk of an earlier version.
    public var loudness: Loudness? {
        guard version >= 2 else { return nil }
        func field(_ at: Int) -> Double? {
            let value = Int16(bitPattern: Bytes.littleUInt16(bytes, at))
            return value == Int16.max ? nil : Double(value) / 100
        }
        return Loudness(integrated: field(412), range: field(414), maximumTruePeak: field(416),
                        maximumMomentary: field(418), maximumShortTerm: field(420))
    }
    /// The coding history: one line a process, `A=PCM,F=48000,W=24,…`.
    public var codingHistory: String {
        String(decoding: bytes[Self.fixedSize...].prefix { $0 != 0 }, as: UTF8.self)
    }

    /// Adds `line` (`A=PCM,F=48000,W=24,M=mono,T=…`, ending in CR LF) to the coding history, after its last line.
    public mutating func addCodingHistory(_ line: String) {
        while bytes.count > Self.fixedSize, bytes.last == 0 { bytes.removeLast() }
        bytes += Array(line.utf8)
    }

    /// The loudness a version 2 chunk states (EBU R 128).
    public struct Loudness: Equatable, Sendable {
        /// Integrated loudness, LUFS.
        public var integrated: Double?
        /// Loudness range, LU.
        public var range: Double?
        /// Maximum true peak, dBTP.
        public var maximumTruePeak: Double?
        /// Maximum momentary loudness, LUFS.
        public var maximumMomentary: Double?
        /// Maximum short-term loudness, LUFS.
        public var maximumShortTerm: Double?

        /// The fields as stated; nil for those stated as unknown.
        public init(integrated: Double?, range: Double?, maximumTruePeak: Double?, maximumMomentary: Double?, maximumShortTerm: Double?) {
            self.integrated = integrated
            self.range = range
            self.maximumTruePeak = maximumTruePeak
            self.maximumMomentary = maximumMomentary
            self.maximumShortTerm = maximumShortTerm
        }
    }
}
