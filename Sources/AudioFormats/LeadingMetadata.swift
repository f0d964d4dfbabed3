/// How many of an input's first bytes hold the metadata its format places before its audio:
/// a leading ID3v2 tag, a FLAC's metadata blocks, an Ogg stream's pages up to its comment
/// packet, a WAV's, RF64's, Wave64's or AIFF's chunks before its audio chunk.
///
/// A pipe's bytes can be read only once, and its decoder needs them all: the reader of a piped
/// input takes this much into its head, so that tags can be read from the head while the
/// decoder still gets every byte.
public enum LeadingMetadata {
    /// The most bytes a pipe's head takes for its leading metadata (64 MiB): beyond it the tags
    /// are not read, and the audio still decodes whole from the head and the rest of the pipe.
    public static let pipeLimit = 64 << 20

    /// What a prefix of an input says of its leading metadata.
    public enum Extent: Equatable, Sendable {
        /// The metadata ends before byte `length`; `audioSizeField` is where the audio chunk's
        /// size lies in those bytes (a WAV's, RF64's or AIFF's), for a copy of them alone to state no audio.
        case complete(length: Int, audioSizeField: AudioSizeField?)
        /// At least `length` bytes must be read to know.
        case needs(length: Int)
        /// No layout this reads: nothing before the audio to read.
        case none
        /// A layout whose header is broken, so where its metadata ends is unknown; `reason` says what.
        case damaged(reason: String)
    }

    /// Where an audio chunk's size lies in a header, and how it is written.
    public struct AudioSizeField: Equatable, Sendable {
        /// Its first byte.
        public let offset: Int
        /// Its bytes (4 or 8).
        public let width: Int
        /// Whether its first byte is the least significant.
        public let littleEndian: Bool

        /// The field of `width` bytes at `offset`.
        public init(offset: Int, width: Int, littleEndian: Bool) {
            self.offset = offset
            self.width = width
            self.littleEndian = littleEndian
        }
    }

    /// The leading metadata of the input `bytes` start.
    public static func extent(_ bytes: [UInt8]) -> Extent {
        let found = extent(bytes[...], at: 0)
        if case .complete(let length, _) = found, length > bytes.count { return .needs(length: length) }
        return found
    }

    private static func extent(_ bytes: ArraySlice<UInt8>, at start: Int) -> Extent {
        let tail = bytes[(bytes.startIndex + start)...]
        guard tail.count >= 4 else { return tail.isEmpty ? .none : .needs(length: start + 4) }
        if tail.starts(with: ascii("ID3")) {
            guard tail.count >= 10 else { return .needs(length: start + 10) }
            let base = tail.startIndex
            guard tail[(base + 6)...(base + 9)].allSatisfy({ $0 < 0x80 }) else { return .damaged(reason: "the size of its ID3v2 tag is damaged") }
            let size = 10 + tail[(base + 6)...(base + 9)].reduce(0) { $0 << 7 | Int($1) } + (tail[base + 5] & 0x10 != 0 ? 10 : 0)
            guard bytes.count >= start + size + 4 else { return .needs(length: start + size + 4) }
            let following = extent(bytes, at: start + size)
            return following == .none ? .complete(length: start + size, audioSizeField: nil) : following
        }
        if tail.starts(with: ascii("fLaC")) { return flac(tail, at: start) }
        if tail.starts(with: ascii("OggS")) { return ogg(tail, at: start) }
        if tail.starts(with: ascii("RIFF")) || tail.starts(with: ascii("RF64")) || tail.starts(with: ascii("BW64")) {
            return chunks(tail, at: start, first: 12, audio: "data", littleEndian: true)
        }
        if tail.starts(with: ascii("FORM")) { return chunks(tail, at: start, first: 12, audio: "SSND", littleEndian: false) }
        if tail.starts(with: wave64) { return wave64Chunks(tail, at: start) }
        return .none
    }

    /// `fLaC`, then metadata blocks up to the one flagged last.
    private static func flac(_ bytes: ArraySlice<UInt8>, at start: Int) -> Extent {
        var offset = 4
        while true {
            guard bytes.count >= offset + 4 else { return .needs(length: start + offset + 4) }
            let header = bytes.startIndex + offset
            let length = Int(bytes[header + 1]) << 16 | Int(bytes[header + 2]) << 8 | Int(bytes[header + 3])
            offset += 4 + length
            if bytes[header] & 0x80 != 0 { return .complete(length: start + offset, audioSizeField: nil) }
        }
    }

    /// Whole pages until the header packets that hold the tags are complete: an identification
    /// and a comment header (Vorbis, Opus), or in Ogg FLAC every metadata block, each a packet,
    /// as many as its first packet states.
    private static func ogg(_ bytes: ArraySlice<UInt8>, at start: Int) -> Extent {
        var offset = 0
        var packets = 0
        var wanted = 2
        while true {
            guard bytes.count >= offset + 27 else { return .needs(length: start + offset + 27) }
            let page = bytes.startIndex + offset
            guard bytes[page..<(page + 4)].elementsEqual(ascii("OggS")) else { return .none }
            let segments = Int(bytes[page + 26])
            guard bytes.count >= offset + 27 + segments else { return .needs(length: start + offset + 27 + segments) }
            let lacing = bytes[(page + 27)..<(page + 27 + segments)]
            if offset == 0 {
                let packet = page + 27 + segments
                guard bytes.endIndex >= packet + 9 else { return .needs(length: start + 27 + segments + 9) }
                let headers = Int(bytes[packet + 7]) << 8 | Int(bytes[packet + 8])
                if bytes[packet..<(packet + 5)].elementsEqual([0x7F] + ascii("FLAC")), headers > 0 { wanted = 1 + headers }
            }
            packets += lacing.filter { $0 < 255 }.count
            offset += 27 + segments + lacing.reduce(0) { $0 + Int($1) }
            if packets >= wanted { return .complete(length: start + offset, audioSizeField: nil) }
        }
    }

    /// An IFF or RIFF file's chunks from `first` up to the header of the `audio` chunk.
    private static func chunks(_ bytes: ArraySlice<UInt8>, at start: Int, first: Int, audio: String, littleEndian: Bool) -> Extent {
        var offset = first
        while true {
            guard bytes.count >= offset + 8 else { return .needs(length: start + offset + 8) }
            let header = bytes.startIndex + offset
            let field = bytes[(header + 4)..<(header + 8)]
            let size = (littleEndian ? field.reversed() : Array(field)).reduce(0) { $0 << 8 | Int($1) }
            if bytes[header..<(header + 4)].elementsEqual(ascii(audio)) {
                return .complete(length: start + offset + 8,
                                 audioSizeField: AudioSizeField(offset: start + offset + 4, width: 4, littleEndian: littleEndian))
            }
            offset += 8 + size + size % 2
        }
    }

    /// A Wave64 file's chunks (16-byte GUIDs, 64-bit sizes counting the header, aligned to 8)
    /// up to the header of its `data` chunk.
    private static func wave64Chunks(_ bytes: ArraySlice<UInt8>, at start: Int) -> Extent {
        var offset = 40
        while true {
            guard bytes.count >= offset + 24 else { return .needs(length: start + offset + 24) }
            let header = bytes.startIndex + offset
            let size = bytes[(header + 16)..<(header + 24)].reversed().reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            if bytes[header..<(header + 4)].elementsEqual(ascii("data")) {
                return .complete(length: start + offset + 24,
                                 audioSizeField: AudioSizeField(offset: start + offset + 16, width: 8, littleEndian: true))
            }
            guard size >= 24, size < UInt64(Int.max / 2) else { return .none }
            offset += Int(size) + (8 - Int(size) % 8) % 8
        }
    }

    /// The first bytes of a Wave64 file: its `riff` GUID.
    private static let wave64: [UInt8] = [0x72, 0x69, 0x66, 0x66, 0x2E, 0x91, 0xCF, 0x11]

    private static func ascii(_ text: String) -> [UInt8] { Array(text.utf8) }
}
