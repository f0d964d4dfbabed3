#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import FoundationEssentials

/// The chunks of a RIFF-family (WAV, RF64/BW64, Wave64) or AIFF file, found by their headers
/// without reading the audio, and the chunks appended to a finished one.
///
/// Reading goes through `pread`, writing through `pwrite`, on a descriptor the caller owns. New
/// chunks go after the last one, so the audio is not rewritten, except in Wave64, whose audio
/// libsndfile reads to the file's end: there they go before the `data` chunk, which is moved
/// back block by block (in memory of one block, whatever the audio's length).
struct ChunkFile {
    /// How the file lays its chunks out.
    enum Layout: Equatable {
        /// `RIFF … WAVE`: little-endian 32-bit sizes, chunks padded to even lengths.
        case riff
        /// `RF64`/`BW64 … WAVE`: as RIFF, with the real sizes in `ds64`.
        case rf64
        /// Sony Wave64: 16-byte GUIDs, 64-bit sizes counting the header, chunks aligned to 8 bytes.
        case wave64
        /// `FORM … AIFF`/`AIFC`: big-endian 32-bit sizes, chunks padded to even lengths.
        case aiff
    }

    /// One chunk: its four-character identifier (a Wave64 GUID's first four bytes) and where its body lies.
    struct Chunk {
        var id: String
        var offset: Int64
        var size: Int64
    }

    let descriptor: Int32
    let layout: Layout
    private(set) var chunks: [Chunk]
    /// Where the last whole chunk ends, padded: where an appended chunk goes.
    private(set) var end: Int64
    /// The identifier of a chunk whose size points past the file's end, if one does.
    private(set) var cutShort: String?

    /// The chunks of the file on `descriptor`; nil when it is not a RIFF-family or AIFF file.
    init?(descriptor: Int32) {
        self.descriptor = descriptor
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { return nil }
        let fileSize = Int64(status.st_size)
        let head = PositionedIO.read(descriptor, at: 0, count: 40)
        guard head.count >= 12 else { return nil }
        let tag = String(decoding: head[0..<4], as: UTF8.self), form = String(decoding: head[8..<12], as: UTF8.self)
        var position: Int64
        switch tag {
        case "RIFF" where form == "WAVE": (layout, position) = (.riff, 12)
        case "RF64" where form == "WAVE", "BW64" where form == "WAVE": (layout, position) = (.rf64, 12)
        case "FORM" where form == "AIFF" || form == "AIFC": (layout, position) = (.aiff, 12)
        default:
            guard head.count == 40, Array(head[0..<16]) == Self.wave64RIFF, Array(head[24..<40]) == Self.wave64WAVE else { return nil }
            (layout, position) = (.wave64, 40)
        }
        chunks = []
        cutShort = nil
        let headerSize: Int64 = layout == .wave64 ? 24 : 8
        while position + headerSize <= fileSize {
            let header = PositionedIO.read(descriptor, at: position, count: Int(headerSize))
            guard header.count == Int(headerSize) else { break }
            let id = String(decoding: header[0..<4], as: UTF8.self)
            var size: Int64
            switch layout {
            case .riff, .rf64: size = Int64(Bytes.littleUInt32(header, 4))
            case .aiff: size = Int64(Bytes.bigUInt32(header, 4))
            case .wave64: size = Int64(bitPattern: Bytes.littleUInt64(header, 16)) &- 24
            }
            if layout == .rf64, id == "data", size == 0xFFFF_FFFF, let ds64 = chunks.first(where: { $0.id == "ds64" }), ds64.size >= 16 {
                size = Int64(bitPattern: Bytes.littleUInt64(PositionedIO.read(descriptor, at: ds64.offset + 8, count: 8), 0))
            }
            guard size >= 0, size <= fileSize - position - headerSize else {
                cutShort = id
                break
            }
            chunks.append(Chunk(id: id, offset: position + headerSize, size: size))
            position += headerSize + size
            position += layout == .wave64 ? (8 - position % 8) % 8 : position % 2
        }
        end = position
    }

    /// The body of `chunk`.
    func body(_ chunk: Chunk) -> [UInt8] { PositionedIO.read(descriptor, at: chunk.offset, count: Int(chunk.size)) }

    /// The body of the first chunk called `id`, if there is one.
    func body(of id: String) -> [UInt8]? { chunks.first { $0.id == id }.map(body) }

    /// Appends `bodies` after the last chunk (before the audio in Wave64), each as a chunk of its
    /// identifier, and sets the file's size to include them; gives why not when a write fails or
    /// a 32-bit size cannot hold it.
    mutating func append(_ bodies: [(id: String, body: [UInt8])]) -> String? {
        var bytes: [UInt8] = []
        for (id, body) in bodies {
            switch layout {
            case .riff, .rf64: bytes += Array(id.utf8) + Bytes.little(UInt32(body.count))
            case .aiff: bytes += Array(id.utf8) + Bytes.big(UInt32(body.count))
            case .wave64: bytes += Array(id.utf8) + Self.wave64Suffix + Bytes.little(UInt64(body.count + 24))
            }
            bytes += body
            let padding = layout == .wave64 ? (8 - bytes.count % 8) % 8 : bytes.count % 2
            bytes += [UInt8](repeating: 0, count: padding)
        }
        let newEnd = end + Int64(bytes.count)
        let sizeField: (offset: Int64, bytes: [UInt8])
        switch layout {
        case .riff, .aiff:
            guard newEnd - 8 <= Int64(UInt32.max) else { return "the file would be longer than its 32-bit size can say" }
            sizeField = (4, layout == .aiff ? Bytes.big(UInt32(newEnd - 8)) : Bytes.little(UInt32(newEnd - 8)))
        case .rf64:
            guard let ds64 = chunks.first(where: { $0.id == "ds64" }), ds64.size >= 8 else { return "the file has no ds64 chunk for its size" }
            sizeField = (ds64.offset, Bytes.little(UInt64(newEnd - 8)))
        case .wave64: sizeField = (16, Bytes.little(UInt64(newEnd)))
        }
        var at = end
        if layout == .wave64, let data = chunks.first(where: { $0.id == "data" }) {
            at = data.offset - 24
            guard Self.move(descriptor, from: at, to: end, by: Int64(bytes.count)) else { return String(cString: strerror(errno)) }
        }
        guard PositionedIO.write(descriptor, bytes, at: at), ftruncate(descriptor, off_t(newEnd)) == 0,
              PositionedIO.write(descriptor, sizeField.bytes, at: sizeField.offset) else { return String(cString: strerror(errno)) }
        for index in chunks.indices where chunks[index].offset > at { chunks[index].offset += Int64(bytes.count) }
        end = newEnd
        return nil
    }

    /// Puts a chunk called `id` whose body is `pieces`, written one after another from where they
    /// are (not copied together), after the last chunk of a RIFF or AIFF file, in place of
    /// `replacing`, which must come after the audio: the chunks after that one move up into its
    /// place. Sets the file's size; gives why not when a write fails, a 32-bit size cannot hold
    /// it, or the file is another layout.
    mutating func putLast(_ id: String, replacing chunk: Chunk?, pieces: [Data]) -> String? {
        let audio = chunks.filter { $0.id == "data" || $0.id == "SSND" }
        guard layout == .riff || layout == .aiff, !audio.isEmpty, chunk.map({ old in audio.allSatisfy { $0.offset < old.offset } }) ?? true else {
            return "its audio is not where its tags can go after it"
        }
        let start = chunk.map { $0.offset - 8 } ?? end
        let followingStart = chunk.map { $0.offset + $0.size + $0.size % 2 } ?? end
        let following = PositionedIO.read(descriptor, at: followingStart, count: Int(end - followingStart))
        let size = pieces.reduce(0) { $0 + $1.count }
        let newEnd = start + Int64(following.count) + 8 + Int64(size + size % 2)
        guard newEnd - 8 <= Int64(UInt32.max) else { return "the file would be longer than its 32-bit size can say" }
        let header = Array(id.utf8) + (layout == .aiff ? Bytes.big(UInt32(size)) : Bytes.little(UInt32(size)))
        var at = start + Int64(following.count)
        guard PositionedIO.write(descriptor, following, at: start), PositionedIO.write(descriptor, header, at: at) else { return String(cString: strerror(errno)) }
        at += 8
        for piece in pieces + (size % 2 == 1 ? [Data([0])] : []) {
            guard piece.withUnsafeBytes({ PositionedIO.write(descriptor, $0, at: at) }) else { return String(cString: strerror(errno)) }
            at += Int64(piece.count)
        }
        let sizeField = layout == .aiff ? Bytes.big(UInt32(newEnd - 8)) : Bytes.little(UInt32(newEnd - 8))
        guard ftruncate(descriptor, off_t(newEnd)) == 0, PositionedIO.write(descriptor, sizeField, at: 4) else { return String(cString: strerror(errno)) }
        self = ChunkFile(descriptor: descriptor) ?? self
        return nil
    }

    /// Wave64's GUID of its `riff` header.
    static let wave64RIFF: [UInt8] = [0x72, 0x69, 0x66, 0x66, 0x2E, 0x91, 0xCF, 0x11, 0xA5, 0xD6, 0x28, 0xDB, 0x04, 0xC1, 0x00, 0x00]
    /// Wave64's GUID of its `wave` form.
    static let wave64WAVE: [UInt8] = Array("wave".utf8) + wave64Suffix
    /// What follows a chunk's four characters in Wave64's GUIDs of the chunks WAV names too.
    static let wave64Suffix: [UInt8] = [0xF3, 0xAC, 0xD3, 0x11, 0x8C, 0xD1, 0x00, 0xC0, 0x4F, 0x8E, 0xDB, 0x8A]

    /// Moves the bytes from `start` to `end` back by `distance`, the last block first.
    private static func move(_ descriptor: Int32, from start: Int64, to end: Int64, by distance: Int64) -> Bool {
        let blockSize: Int64 = 1 << 20
        var blockEnd = end
        while blockEnd > start {
            let blockStart = max(start, blockEnd - blockSize)
            let block = PositionedIO.read(descriptor, at: blockStart, count: Int(blockEnd - blockStart))
            guard block.count == Int(blockEnd - blockStart), PositionedIO.write(descriptor, block, at: blockStart + distance) else { return false }
            blockEnd = blockStart
        }
        return true
    }
}
