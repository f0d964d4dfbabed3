import Foundation

/// ID3v2 chapters (`CHAP` frames with a `TIT2` title and `TIT3` description, under `CTOC` tables
/// of contents) built and parsed byte by byte, so the tests neither write the chapters aurender
/// reads nor read the chapters it writes with the library it writes them with.
public enum ID3Chapters {
    /// One chapter: element ID, times in milliseconds, title and description.
    public struct Chapter: Equatable, Sendable, CustomStringConvertible {
        public var id: String
        public var start: UInt32
        public var end: UInt32
        public var title: String
        public var note: String

        public init(id: String, start: UInt32, end: UInt32, title: String = "", note: String = "") {
            self.id = id
            self.start = start
            self.end = end
            self.title = title
            self.note = note
        }

        public var description: String { "\(id) \(start)–\(end) ms \"\(title)\"" + (note.isEmpty ? "" : " (\(note))") }
    }

    /// An ID3v2.3 tag holding `chapters` and one top-level, ordered table of contents listing `listed` (their IDs unless given).
    public static func tag(_ chapters: [Chapter], listed: [String]? = nil) -> [UInt8] {
        var frames: [UInt8] = []
        for chapter in chapters {
            var body = Array(chapter.id.utf8) + [0] + big(chapter.start) + big(chapter.end) + big(UInt32.max) + big(UInt32.max)
            if !chapter.title.isEmpty { body += frame("TIT2", [3] + Array(chapter.title.utf8)) }
            if !chapter.note.isEmpty { body += frame("TIT3", [3] + Array(chapter.note.utf8)) }
            frames += frame("CHAP", body)
        }
        let children = listed ?? chapters.map(\.id)
        frames += frame("CTOC", Array("toc".utf8) + [0, 0b11, UInt8(children.count)] + children.flatMap { Array($0.utf8) + [0] })
        return Array("ID3".utf8) + [3, 0, 0] + syncsafe(UInt32(frames.count)) + frames
    }

    /// `file`'s bytes without the ID3v2 tag at its front.
    public static func strippingTag(_ file: [UInt8]) -> [UInt8] {
        guard file.count >= 10, file.starts(with: Array("ID3".utf8)) else { return file }
        return Array(file[(10 + Int(unsyncsafe(file, 6)))...])
    }

    /// The chapters of the ID3v2 tag (version 3 or 4) at the front of the file at `path`, in its order.
    public static func chapters(of path: String) throws -> [Chapter] {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        guard bytes.count >= 10, bytes.starts(with: Array("ID3".utf8)) else { return [] }
        let version = bytes[3]
        let end = 10 + Int(unsyncsafe(bytes, 6))
        return frames(bytes, from: 10, to: min(end, bytes.count), version: version).compactMap { id, body in
            guard id == "CHAP", let zero = body.firstIndex(of: 0), zero + 17 <= body.count else { return nil }
            var chapter = Chapter(id: String(decoding: body[..<zero], as: UTF8.self), start: readBig(body, zero + 1), end: readBig(body, zero + 5))
            for (sub, text) in frames(body, from: zero + 17, to: body.count, version: version) where !text.isEmpty {
                let value = String(decoding: text.dropFirst().prefix { $0 != 0 }, as: UTF8.self)
                if sub == "TIT2" { chapter.title = value } else if sub == "TIT3" { chapter.note = value }
            }
            return chapter
        }
    }

    private static func frames(_ bytes: [UInt8], from start: Int, to end: Int, version: UInt8) -> [(id: String, body: [UInt8])] {
        var found: [(String, [UInt8])] = []
        var position = start
        while position + 10 <= end, bytes[position] != 0 {
            let id = String(decoding: bytes[position..<position + 4], as: UTF8.self)
            let size = Int(version == 4 ? unsyncsafe(bytes, position + 4) : readBig(bytes, position + 4))
            guard position + 10 + size <= end else { break }
            found.append((id, Array(bytes[position + 10..<position + 10 + size])))
            position += 10 + size
        }
        return found
    }

    private static func frame(_ id: String, _ body: [UInt8]) -> [UInt8] { Array(id.utf8) + big(UInt32(body.count)) + [0, 0] + body }

    private static func big(_ value: UInt32) -> [UInt8] { [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: value >> $0) } }

    private static func syncsafe(_ value: UInt32) -> [UInt8] { [21, 14, 7, 0].map { UInt8((value >> $0) & 0x7F) } }

    private static func readBig<Bytes: RandomAccessCollection<UInt8>>(_ bytes: Bytes, _ at: Int) -> UInt32 where Bytes.Index == Int {
        (0..<4).reduce(0) { $0 << 8 | UInt32(bytes[bytes.startIndex + at + $1]) }
    }

    private static func unsyncsafe(_ bytes: [UInt8], _ at: Int) -> UInt32 { (0..<4).reduce(0) { $0 << 7 | UInt32(bytes[at + $1] & 0x7F) } }
}
