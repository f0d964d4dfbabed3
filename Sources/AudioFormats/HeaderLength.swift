/// The frame count an input's header states, read by aurender itself, so that a file holding
/// less than its header says is found out whatever a decoder makes of it.
///
/// libsndfile shrinks a WAV's, AIFF's or AU's frame count to the bytes present, so a truncated
/// file would otherwise pass for a shorter whole one. Known here: WAV (RIFF, RIFX, RF64/BW64)
/// and Sony Wave64 with PCM, float or G.711 samples, or IMA ADPCM, Microsoft ADPCM or GSM 6.10
/// (the `fact` chunk's count); AIFF/AIFC, also with IMA ADPCM; AU with PCM, float or G.711
/// samples; CAF (its data size, or its packet table's valid frames); and MP3 whose Xing/Info
/// header counts its frames (with the LAME tag's encoder delay and padding taken off, as
/// gapless decoders do), after any ID3v2 tags and padding or junk before the first frame. Headers past the input's head are read where the input can be read
/// at an offset (a regular file), not from a pipe. Nil when the header leaves the size open, or
/// its chunks lie beyond what can be read.
public enum HeaderLength {
    /// The frames `head`, the first bytes of an input, says the input holds, from those bytes alone.
    public static func statedFrames(_ head: [UInt8]) -> Int64? {
        statedFrames(Bytes(head, reader: nil))
    }

    /// The frames `input` says it holds: from its head, and from a header past the head read
    /// where it lies (a large ID3v2 tag before an MP3's Xing header) when the input is a file.
    public static func statedFrames(_ input: AudioInput) -> Int64? {
        statedFrames(Bytes(input.head) { input.bytes(at: $0, count: $1) })
    }

    private static func statedFrames(_ bytes: Bytes) -> Int64? {
        switch bytes.text(0, 4) {
        case "RIFF": return wave(bytes, bigEndian: false, dataSize64: nil)
        case "RIFX": return wave(bytes, bigEndian: true, dataSize64: nil)
        case "RF64", "BW64": return bytes.text(12, 4) == "ds64" ? wave(bytes, bigEndian: false, dataSize64: bytes.uint64LE(28)) : nil
        case "FORM": return aiff(bytes)
        case ".snd": return au(bytes, bigEndian: true)
        case "dns.": return au(bytes, bigEndian: false)
        case "riff": return wave64(bytes)
        case "caff": return caf(bytes)
        default: return mp3(bytes)
        }
    }

    /// A RIFF WAVE: the data chunk's size over the frame size, for PCM, float and G.711; for
    /// ADPCM and GSM 6.10, the `fact` chunk's count (see `codedFrames`).
    private static func wave(_ bytes: Bytes, bigEndian: Bool, dataSize64: UInt64?) -> Int64? {
        guard bytes.text(8, 4) == "WAVE" else { return nil }
        var offset = 12, block: CodedBlock?, fact: Int64?
        while let id = bytes.text(offset, 4), let size = bytes.uint32(offset + 4, bigEndian: bigEndian) {
            switch id {
            case "fmt ":
                guard let format = codedBlock(bytes, at: offset + 8, size: UInt64(size), bigEndian: bigEndian) else { return nil }
                block = format
            case "fact":
                fact = bytes.uint32(offset + 8, bigEndian: bigEndian).map(Int64.init)
            case "data":
                guard let block, let dataSize = size == 0xFFFF_FFFF ? dataSize64 : (size == 0 ? nil : UInt64(size)),
                      dataSize <= UInt64(Int64.max) else { return nil }
                return block.frames == 1 ? Int64(dataSize / block.bytes) : codedFrames(dataSize: dataSize, block: block, fact: fact)
            default: break
            }
            offset += 8 + Int(size) + Int(size & 1)
        }
        return nil
    }

    /// The block of a WAVE format chunk's encoding whose body starts at `offset`: PCM, float
    /// and G.711 frames, or IMA ADPCM's, Microsoft ADPCM's and GSM 6.10's blocks of the samples
    /// per block their extension states; nil for other encodings.
    private static func codedBlock(_ bytes: Bytes, at offset: Int, size: UInt64, bigEndian: Bool) -> CodedBlock? {
        guard let tag = bytes.uint16(offset, bigEndian: bigEndian),
              let align = bytes.uint16(offset + 12, bigEndian: bigEndian), align > 0 else { return nil }
        if [1, 3, 6, 7, 0xFFFE].contains(tag) { return CodedBlock(bytes: UInt64(align), frames: 1) }
        guard [0x02, 0x11, 0x31].contains(tag), size >= 20, let extra = bytes.uint16(offset + 16, bigEndian: bigEndian), extra >= 2,
              let frames = bytes.uint16(offset + 18, bigEndian: bigEndian), frames > 0 else { return nil }
        return CodedBlock(bytes: UInt64(align), frames: UInt64(frames))
    }

    /// The block of an encoding that codes a fixed number of frames in a fixed number of bytes
    /// (PCM: one frame in the frame size; IMA ADPCM, Microsoft ADPCM, GSM 6.10: the format
    /// chunk's samples per block in its block align).
    private struct CodedBlock {
        let bytes: UInt64
        let frames: UInt64
    }

    /// The frames of a coded WAV: the `fact` chunk's count, which takes off the last block's
    /// padding, wherever it ends in the data's last whole block, a part block after it (SoX's
    /// GSM 6.10 data ends in a stray byte) or, where `mayPassTheData`, past it (then the file
    /// holds less than it states). A count that ends before the last block —
    /// libsndfile's stereo IMA ADPCM writes its frames over its channels — or no count at all
    /// gives way to the data's whole blocks; nil when the data size ends in a part block, whose
    /// frames depend on the codec.
    private static func codedFrames(dataSize: UInt64, block: CodedBlock, fact: Int64?, mayPassTheData: Bool = true) -> Int64? {
        guard dataSize > 0 else { return nil }
        let blocks = dataSize / block.bytes + (dataSize % block.bytes == 0 ? 0 : 1)
        let (frames, overflow) = blocks.multipliedReportingOverflow(by: block.frames)
        guard !overflow, frames <= UInt64(Int64.max) else { return nil }
        let framesBeforeLastWholeBlock = Int64((max(dataSize / block.bytes, 1) - 1) * block.frames)
        if let fact, fact > framesBeforeLastWholeBlock, mayPassTheData || fact <= Int64(frames) { return fact }
        return dataSize % block.bytes == 0 ? Int64(frames) : nil
    }

    /// An AIFF or AIFC file: the common chunk's frame count; for IMA ADPCM (`ima4`), which
    /// counts 64-frame packets there, held to the sound data chunk's packets as `codedFrames`
    /// does (libsndfile's stereo `ima4` counts its packets over its channels).
    private static func aiff(_ bytes: Bytes) -> Int64? {
        guard let form = bytes.text(8, 4), form == "AIFF" || form == "AIFC" else { return nil }
        var offset = 12, packets: Int64?, block: CodedBlock?
        while let id = bytes.text(offset, 4), let size = bytes.uint32(offset + 4, bigEndian: true) {
            switch id {
            case "COMM":
                guard let frames = bytes.uint32(offset + 10, bigEndian: true).map(Int64.init) else { return nil }
                guard form == "AIFC", bytes.text(offset + 26, 4) == "ima4" else { return frames }
                guard let channels = bytes.uint16(offset + 8, bigEndian: true), channels > 0 else { return nil }
                packets = frames
                block = CodedBlock(bytes: 34 * UInt64(channels), frames: 64)
            case "SSND":
                guard let block, let packets, size > 8, let dataOffset = bytes.uint32(offset + 8, bigEndian: true),
                      UInt64(dataOffset) < UInt64(size) - 8 else { return nil }
                return codedFrames(dataSize: UInt64(size) - 8 - UInt64(dataOffset), block: block, fact: packets * 64)
            default: break
            }
            offset += 8 + Int(size) + Int(size & 1)
        }
        return nil
    }

    /// An AU file: its data size over the frame size, unless the size is left open.
    private static func au(_ bytes: Bytes, bigEndian: Bool) -> Int64? {
        guard let size = bytes.uint32(8, bigEndian: bigEndian), size != 0xFFFF_FFFF,
              let encoding = bytes.uint32(12, bigEndian: bigEndian), let channels = bytes.uint32(20, bigEndian: bigEndian), channels > 0,
              let sampleBytes = [1: 1, 2: 1, 3: 2, 4: 3, 5: 4, 6: 4, 7: 8, 27: 1][Int(encoding)] else { return nil }
        return Int64(size) / Int64(sampleBytes * Int(channels))
    }

    /// A Sony Wave64 file: chunks named by GUIDs whose first four bytes spell the RIFF names,
    /// with 64-bit sizes that count their 24-byte headers; its coded encodings as in a WAV.
    private static func wave64(_ bytes: Bytes) -> Int64? {
        guard bytes.text(24, 4) == "wave" else { return nil }
        var offset = 40, block: CodedBlock?, fact: Int64?
        while let id = bytes.text(offset, 4), let size = bytes.uint64LE(offset + 16), size >= 24, size <= UInt64(Int64.max - 7) {
            switch id {
            case "fmt ":
                guard let format = codedBlock(bytes, at: offset + 24, size: size - 24, bigEndian: false) else { return nil }
                block = format
            case "fact":
                fact = bytes.uint64LE(offset + 24).flatMap { Int64(exactly: $0) }
            case "data":
                guard let block else { return nil }
                // libsndfile's Wave64 Microsoft ADPCM can count 2^63 - 10001 frames: a count past the data is no count.
                return block.frames == 1 ? Int64((size - 24) / block.bytes)
                    : codedFrames(dataSize: size - 24, block: block, fact: fact, mayPassTheData: false)
            default: break
            }
            let (next, overflow) = offset.addingReportingOverflow(Int((size + 7) & ~7))
            guard !overflow else { return nil }
            offset = next
        }
        return nil
    }

    /// A Core Audio Format file: its `pakt` chunk's valid frames for packets of varying size
    /// (ALAC), else its `data` chunk's bytes (after the 4-byte edit count) over the packet size,
    /// times the frames a packet holds (PCM, float, G.711). A data size of -1 leaves the length open.
    private static func caf(_ bytes: Bytes) -> Int64? {
        var offset = 8, bytesPerPacket: UInt32?, framesPerPacket: UInt32?, validFrames: Int64?, dataSize: UInt64?
        while let type = bytes.text(offset, 4), let size = bytes.uint64BE(offset + 4) {
            switch type {
            case "desc":
                bytesPerPacket = bytes.uint32(offset + 12 + 16, bigEndian: true)
                framesPerPacket = bytes.uint32(offset + 12 + 20, bigEndian: true)
            case "pakt":
                validFrames = bytes.uint64BE(offset + 12 + 8).flatMap { $0 < UInt64(Int64.max) ? Int64($0) : nil }
            case "data":
                dataSize = size
            default: break
            }
            guard type != "data", size < UInt64(Int.max), let next = (offset + 12).addingReportingOverflow(Int(size)).overflow ? nil : offset + 12 + Int(size)
            else { break }
            offset = next
        }
        guard let bytesPerPacket, let framesPerPacket, framesPerPacket > 0 else { return nil }
        if bytesPerPacket == 0 || framesPerPacket > 1 { return validFrames }
        guard let dataSize, dataSize != UInt64.max, dataSize >= 4 else { return nil }
        return Int64((dataSize - 4) / UInt64(bytesPerPacket)) * Int64(framesPerPacket)
    }

    /// The whole frames of a PCM, float or G.711 WAV's data that lie before byte `end` (where an
    /// ID3v1 tag starts), when its data chunk runs past it: a file cut in its data and tagged
    /// after the cut, whose tag's bytes libsndfile would read as samples. Nil otherwise.
    public static func waveFrames(before end: Int64, _ input: AudioInput) -> Int64? {
        let bytes = Bytes(input.head) { input.bytes(at: $0, count: $1) }
        guard bytes.text(0, 4) == "RIFF", bytes.text(8, 4) == "WAVE" else { return nil }
        var offset = 12, block: CodedBlock?
        while let id = bytes.text(offset, 4), let size = bytes.uint32(offset + 4, bigEndian: false) {
            if id == "fmt " { block = codedBlock(bytes, at: offset + 8, size: UInt64(size), bigEndian: false) }
            if id == "data" {
                let start = Int64(offset) + 8
                guard let block, block.frames == 1, size != 0xFFFF_FFFF, start + Int64(size) > end, end >= start else { return nil }
                return (end - start) / Int64(block.bytes)
            }
            offset += 8 + Int(size) + Int(size & 1)
        }
        return nil
    }

    /// Whether `input`, a WAV or Wave64 file, is cut: its data chunk runs past the input's last
    /// byte. The evidence for a coded WAV (ADPCM, GSM 6.10), whose `fact` count is the codec's
    /// and may overcount; false where the chunk cannot be found or the input is a pipe.
    public static func dataChunkIsCut(_ input: AudioInput) -> Bool {
        let bytes = Bytes(input.head) { input.bytes(at: $0, count: $1) }
        var end: Int64?
        if bytes.text(0, 4) == "RIFF", bytes.text(8, 4) == "WAVE" {
            var offset = 12
            while let id = bytes.text(offset, 4), let size = bytes.uint32(offset + 4, bigEndian: false) {
                if id == "data" {
                    end = size == 0xFFFF_FFFF ? nil : Int64(offset) + 8 + Int64(size)
                    break
                }
                offset += 8 + Int(size) + Int(size & 1)
            }
        } else if bytes.text(0, 4) == "riff", bytes.text(24, 4) == "wave" {
            var offset = 40
            while let id = bytes.text(offset, 4), let size = bytes.uint64LE(offset + 16), size >= 24, size <= UInt64(Int64.max - 7) {
                if id == "data" {
                    end = Int64(offset).addingReportingOverflow(Int64(size)).overflow ? nil : Int64(offset) + Int64(size)
                    break
                }
                let (next, overflow) = offset.addingReportingOverflow(Int((size + 7) & ~7))
                guard !overflow else { break }
                offset = next
            }
        }
        guard let end, end > 0 else { return false }
        return input.bytes(at: end - 1, count: 1)?.isEmpty == true
    }

    /// What an MPEG audio file's Xing or Info frame states, as aurender reads it.
    public struct MPEGStatement: Equatable, Sendable {
        /// The frames it decodes to: its frame count times the samples a frame holds, less the
        /// LAME tag's encoder delay and padding where the tag is sound; nil when it counts none.
        public let frames: Int64?
        /// Where its frames end, in bytes from the input's first: the first frame's offset plus
        /// the stream size it states; nil when it states none.
        public let end: Int64?
    }

    /// What `input`'s Xing or Info frame states, when its first frame is one; read past the
    /// head (behind a large ID3v2 tag) where the input is a file.
    public static func mpegStatement(_ input: AudioInput) -> MPEGStatement? {
        mpeg(Bytes(input.head) { input.bytes(at: $0, count: $1) })
    }

    /// The frames an MP3 whose first frame is a Xing or Info header counting them decodes to.
    private static func mp3(_ bytes: Bytes) -> Int64? {
        mpeg(bytes)?.frames
    }

    /// An MPEG Layer III file's Xing or Info header: the frame count, of 1152 (MPEG-1) or 576
    /// (MPEG-2 and 2.5) samples, less the LAME tag's delay and padding, and the stream size.
    ///
    /// The LAME tag's fields are believed when its encoder string says LAME or its CRC over the
    /// frame's first 190 bytes holds, as libmpg123 does: FFmpeg's libmp3lame writes `Lavc…`.
    private static func mpeg(_ bytes: Bytes) -> MPEGStatement? {
        guard let start = firstFrame(bytes), let second = bytes.byte(start + 1), let fourth = bytes.byte(start + 3) else { return nil }
        let isMPEG1 = (second >> 3) & 3 == 3, isMono = fourth >> 6 == 3
        let xing = start + 4 + (isMPEG1 ? (isMono ? 17 : 32) : (isMono ? 9 : 17))
        guard let name = bytes.text(xing, 4), name == "Xing" || name == "Info",
              let flags = bytes.uint32(xing + 4, bigEndian: true) else { return nil }
        let streamBytes = flags & 2 == 0 ? nil : bytes.uint32(xing + 8 + (flags & 1 == 0 ? 0 : 4), bigEndian: true)
        let end = streamBytes.map { Int64(start) + Int64($0) }
        guard flags & 1 != 0, let count = bytes.uint32(xing + 8, bigEndian: true) else { return MPEGStatement(frames: nil, end: end) }
        var total = Int64(count) * (isMPEG1 ? 1152 : 576)
        let lame = xing + 8 + [1, 2, 4, 8].reduce(0) { $0 + (flags & UInt32($1) == 0 ? 0 : ($1 == 4 ? 100 : 4)) }
        // A LAME tag out of reach (past a pipe's head) leaves the delay and padding unknown.
        guard let encoder = bytes.text(lame, 4) else { return MPEGStatement(frames: nil, end: end) }
        if encoder == "LAME" || lameTagIsSound(bytes, frame: start, tag: lame) {
            guard let high = bytes.byte(lame + 21), let middle = bytes.byte(lame + 22), let low = bytes.byte(lame + 23) else {
                return MPEGStatement(frames: nil, end: end)
            }
            let delay = Int64(high) << 4 | Int64(middle >> 4), padding = Int64(middle & 0x0F) << 8 | Int64(low)
            total -= delay + padding
        }
        return MPEGStatement(frames: total > 0 ? total : nil, end: end)
    }

    /// Whether the LAME tag at `tag` ends in the CRC-16 of the first 190 bytes of the frame at
    /// `frame`, which its writer computes over the finished tag.
    private static func lameTagIsSound(_ bytes: Bytes, frame: Int, tag: Int) -> Bool {
        guard tag + 36 == frame + 192, let stored = bytes.uint16(tag + 34, bigEndian: true) else { return false }
        var crc: UInt16 = 0
        for offset in frame..<(frame + 190) {
            guard let byte = bytes.byte(offset) else { return false }
            crc ^= UInt16(byte)
            for _ in 0..<8 { crc = crc & 1 != 0 ? (crc >> 1) ^ 0xA001 : crc >> 1 }
        }
        return crc == stored
    }

    /// Where an MP3's first frame starts: past its ID3v2 tags (each 10 bytes of header, its
    /// size, and 10 of footer where its flags say so), at the first MPEG Layer III frame header
    /// within 4 KB, as decoders skip padding and junk before it.
    private static func firstFrame(_ bytes: Bytes) -> Int? {
        var start = 0
        for _ in 0..<4 {
            guard bytes.text(start, 3) == "ID3", let flags = bytes.byte(start + 5) else { break }
            let size = (6...9).reduce(0) { ($0 << 7) | Int((bytes.byte(start + $1) ?? 0) & 0x7F) }
            start += 10 + size + (flags & 0x10 != 0 ? 10 : 0)
        }
        return (start..<(start + 4096)).first { offset in
            guard let sync = bytes.byte(offset), sync == 0xFF else { return false }
            guard let second = bytes.byte(offset + 1), let third = bytes.byte(offset + 2) else { return false }
            return second & 0xE0 == 0xE0 && (second >> 3) & 3 != 1 && (second >> 1) & 3 == 1 && third >> 4 != 15 && (third >> 2) & 3 != 3
        }
    }

    /// Bounds-checked reads of an input's bytes: its head, and past the head a window of a few
    /// kilobytes read where asked, at most `windowReads` times per input.
    private final class Bytes {
        private let head: [UInt8]
        private let reader: ((Int64, Int) -> [UInt8]?)?
        private var window: [UInt8] = []
        private var windowStart = 0
        private var windowReads = 16
        private static let windowSize = 4096

        init(_ head: [UInt8], reader: ((Int64, Int) -> [UInt8]?)?) {
            self.head = head
            self.reader = reader
        }

        func byte(_ offset: Int) -> UInt8? { slice(offset, 1)?.first }

        func text(_ offset: Int, _ count: Int) -> String? {
            slice(offset, count).map { String(decoding: $0, as: UTF8.self) }
        }

        func uint16(_ offset: Int, bigEndian: Bool) -> UInt16? { integer(offset, 2, bigEndian: bigEndian).map { UInt16($0) } }
        func uint32(_ offset: Int, bigEndian: Bool) -> UInt32? { integer(offset, 4, bigEndian: bigEndian).map { UInt32($0) } }
        func uint64LE(_ offset: Int) -> UInt64? { integer(offset, 8, bigEndian: false) }
        func uint64BE(_ offset: Int) -> UInt64? { integer(offset, 8, bigEndian: true) }

        private func integer(_ offset: Int, _ count: Int, bigEndian: Bool) -> UInt64? {
            guard let slice = slice(offset, count) else { return nil }
            return (bigEndian ? Array(slice) : slice.reversed()).reduce(0) { $0 << 8 | UInt64($1) }
        }

        /// The `count` bytes at `offset`, from the head, the window, or a new window read there.
        private func slice(_ offset: Int, _ count: Int) -> ArraySlice<UInt8>? {
            guard offset >= 0, count >= 0, offset <= Int.max - count else { return nil }
            if offset + count <= head.count { return head[offset..<(offset + count)] }
            if offset >= windowStart, offset + count <= windowStart + window.count {
                return window[(offset - windowStart)..<(offset - windowStart + count)]
            }
            guard let reader, windowReads > 0 else { return nil }
            windowReads -= 1
            guard let read = reader(Int64(offset), max(count, Self.windowSize)), read.count >= count else { return nil }
            window = read
            windowStart = offset
            return read[0..<count]
        }
    }
}
