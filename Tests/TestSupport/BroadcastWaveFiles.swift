import Foundation

/// Broadcast WAV files written chunk by chunk (`bext`, `iXML`, `cue `, `LIST adtl`), and a chunk
/// parser that reads any RIFF, RF64, Wave64 or AIFF file back, both independent of aurender's own.
public enum BroadcastWaveFiles {
    /// A chunk: its four characters and its body.
    public struct Chunk: Equatable, Sendable {
        public var id: String
        public var body: [UInt8]

        public init(_ id: String, _ body: [UInt8]) {
            self.id = id
            self.body = body
        }
    }

    /// A marker as the test writes and reads it.
    public struct Marker: Equatable, Sendable {
        public var frame: UInt32
        public var label: String
        public var note: String
        public var regionLength: UInt32

        public init(frame: UInt32, label: String = "", note: String = "", regionLength: UInt32 = 0) {
            self.frame = frame
            self.label = label
            self.note = note
            self.regionLength = regionLength
        }
    }

    /// A 16-bit PCM WAV of `samples` (interleaved) with `before` chunks between `fmt ` and `data` and `after` chunks after it.
    public static func wave(samples: [Int16], channels: UInt16 = 1, sampleRate: UInt32, before: [Chunk] = [], after: [Chunk] = []) -> [UInt8] {
        let format = little(UInt16(1)) + little(channels) + little(sampleRate) + little(sampleRate * UInt32(channels) * 2)
            + little(UInt16(channels * 2)) + little(UInt16(16))
        let chunks = [Chunk("fmt ", format)] + before + [Chunk("data", WaveFile.pcm16(samples))] + after
        let body = Array("WAVE".utf8) + chunks.flatMap { chunk in
            Array(chunk.id.utf8) + little(UInt32(chunk.body.count)) + chunk.body + (chunk.body.count % 2 == 1 ? [0] : [])
        }
        return Array("RIFF".utf8) + little(UInt32(body.count)) + body
    }

    /// A `bext` body of version 2 with every field given, and `codingHistory` after them.
    public static func bext(description: String, originator: String, reference: String, date: String, time: String,
                            timeReference: UInt64, umid: [UInt8], loudness: [Int16], codingHistory: String) -> [UInt8] {
        func field(_ text: String, _ size: Int) -> [UInt8] { Array(Array(text.utf8).prefix(size)) + [UInt8](repeating: 0, count: max(0, size - text.utf8.count)) }
        var body = field(description, 256) + field(originator, 32) + field(reference, 32) + field(date, 10) + field(time, 8)
        body += little(UInt32(truncatingIfNeeded: timeReference)) + little(UInt32(truncatingIfNeeded: timeReference >> 32)) + little(UInt16(2))
        body += umid + [UInt8](repeating: 0, count: 64 - umid.count)
        body += loudness.flatMap { little(UInt16(bitPattern: $0)) } + [UInt8](repeating: 0, count: 180)
        return body + Array(codingHistory.utf8)
    }

    /// The `cue ` body and the `LIST` (`adtl`) body of `markers`, numbered from 1.
    public static func cue(_ markers: [Marker]) -> [Chunk] {
        var cue = little(UInt32(markers.count))
        var list = Array("adtl".utf8)
        func sub(_ id: String, _ body: [UInt8]) { list += Array(id.utf8) + little(UInt32(body.count)) + body + (body.count % 2 == 1 ? [0] : []) }
        for (index, marker) in markers.enumerated() {
            let id = UInt32(index + 1)
            cue += little(id) + little(marker.frame) + Array("data".utf8) + little(UInt32(0)) + little(UInt32(0)) + little(marker.frame)
            if !marker.label.isEmpty { sub("labl", little(id) + Array(marker.label.utf8) + [0]) }
            if !marker.note.isEmpty { sub("note", little(id) + Array(marker.note.utf8) + [0]) }
            if marker.regionLength > 0 { sub("ltxt", little(id) + little(marker.regionLength) + Array("rgn ".utf8) + [UInt8](repeating: 0, count: 8)) }
        }
        return [Chunk("cue ", cue), Chunk("LIST", list)]
    }

    /// Every chunk of a RIFF, RF64/BW64, Wave64 or AIFF file, in order (a Wave64 chunk named by its GUID's first four bytes).
    public static func chunks(of path: String) throws -> [Chunk] {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        let tag = String(decoding: bytes[0..<4], as: UTF8.self)
        var chunks: [Chunk] = []
        if tag == "riff" {
            var position = 40
            while position + 24 <= bytes.count {
                let size = Int(readLittle(bytes, position + 16, 8)) - 24
                chunks.append(Chunk(String(decoding: bytes[position..<position + 4], as: UTF8.self), Array(bytes[position + 24..<min(bytes.count, position + 24 + size)])))
                position += 24 + size
                position += (8 - position % 8) % 8
            }
            return chunks
        }
        let bigEndian = tag == "FORM"
        var position = 12
        var dataSize: Int?
        while position + 8 <= bytes.count {
            let id = String(decoding: bytes[position..<position + 4], as: UTF8.self)
            var size = Int(bigEndian ? readBig(bytes, position + 4, 4) : readLittle(bytes, position + 4, 4))
            if id == "ds64" { dataSize = Int(readLittle(bytes, position + 16, 8)) }
            if id == "data", size == 0xFFFF_FFFF, let dataSize { size = dataSize }
            chunks.append(Chunk(id, Array(bytes[position + 8..<min(bytes.count, position + 8 + size)])))
            position += 8 + size + size % 2
        }
        return chunks
    }

    /// The time reference of a `bext` body.
    public static func timeReference(_ bext: [UInt8]) -> UInt64 { readLittle(bext, 338, 8) }

    /// The markers of a `cue ` body labelled from a `LIST adtl` body, or of an AIFF `MARK` body (`aiff`).
    public static func markers(in chunks: [Chunk]) -> [Marker] {
        if let mark = chunks.first(where: { $0.id == "MARK" })?.body {
            var markers: [Marker] = []
            var position = 2
            for _ in 0..<Int(readBig(mark, 0, 2)) {
                let length = Int(mark[position + 6])
                markers.append(Marker(frame: UInt32(readBig(mark, position + 2, 4)),
                                      label: String(decoding: mark[position + 7..<position + 7 + length], as: UTF8.self)))
                position += 7 + length + (length % 2 == 0 ? 1 : 0)
            }
            return markers
        }
        guard let cue = chunks.first(where: { $0.id == "cue " })?.body else { return [] }
        var markers: [UInt32: Marker] = [:]
        var ids: [UInt32] = []
        for index in 0..<Int(readLittle(cue, 0, 4)) {
            let id = UInt32(readLittle(cue, 4 + 24 * index, 4))
            ids.append(id)
            markers[id] = Marker(frame: UInt32(readLittle(cue, 4 + 24 * index + 20, 4)))
        }
        if let list = chunks.first(where: { $0.id == "LIST" && $0.body.starts(with: Array("adtl".utf8)) })?.body {
            var position = 4
            while position + 8 <= list.count {
                let id = String(decoding: list[position..<position + 4], as: UTF8.self)
                let size = Int(readLittle(list, position + 4, 4))
                let point = UInt32(readLittle(list, position + 8, 4))
                func text(from: Int) -> String { String(decoding: list[from..<position + 8 + size].prefix { $0 != 0 }, as: UTF8.self) }
                switch id {
                case "labl": markers[point]?.label = text(from: position + 12)
                case "note": markers[point]?.note = text(from: position + 12)
                case "ltxt": markers[point]?.regionLength = UInt32(readLittle(list, position + 12, 4))
                default: break
                }
                position += 8 + size + size % 2
            }
        }
        return ids.compactMap { markers[$0] }.sorted { $0.frame < $1.frame }
    }

    public static func little<T: FixedWidthInteger>(_ value: T) -> [UInt8] { withUnsafeBytes(of: value.littleEndian) { Array($0) } }

    static func readLittle(_ bytes: [UInt8], _ at: Int, _ count: Int) -> UInt64 {
        (0..<count).reduce(UInt64(0)) { $0 | UInt64(bytes[at + $1]) << (8 * UInt64($1)) }
    }

    static func readBig(_ bytes: [UInt8], _ at: Int, _ count: Int) -> UInt64 {
        (0..<count).reduce(UInt64(0)) { $0 << 8 | UInt64(bytes[at + $1]) }
    }
}
