import Foundation

/// Rewrites an `.m4a` as aurender writes it (FFmpeg's `ipod` muxer: an edit list in samples,
/// the index after the media data) into the layout iTunes gives AAC, byte by byte: no edit
/// list, a sample table counting every decoded frame (priming, audio and padding), and the
/// gapless statement in an `iTunSMPB` item instead (`moov/udta/meta/ilst/----`).
///
/// FFmpeg's muxer writes neither that layout nor the tag, so the files other muxers make are
/// built here from one FFmpeg wrote, with the same AAC packets: decoded gaplessly, both must
/// give the same frames.
public enum ITunesStyleMPEG4 {
    /// Why a file cannot be rewritten.
    public struct Unexpected: Error, CustomStringConvertible {
        /// What the file lacks.
        public let description: String
    }

    /// `file` rewritten: its audio track's edit list taken out, its sample table's durations
    /// made whole packets of `packetFrames` (the last packet's trimmed duration included, as
    /// iTunes counts it) and its media durations (`mvhd`, `tkhd`, `mdhd`) that total; with
    /// `statingGapless`, an `iTunSMPB` item stating the edit list's start as the priming, its
    /// duration as the audio's frames, and the rest of the total as padding. With `indexFirst`
    /// the index is moved before the media data (its chunk offsets moved with it), so that
    /// cutting the file's end cuts the audio, not the index.
    public static func rewrite(_ file: Data, statingGapless: Bool, indexFirst: Bool = false, packetFrames: Int = 1_024) throws -> Data {
        let bytes = [UInt8](file)
        let top = atoms(bytes, 0..<bytes.count)
        guard let moov = top.first(where: { $0.type == "moov" }), let mdat = top.firstIndex(where: { $0.type == "mdat" }),
              top[mdat].range.lowerBound < moov.range.lowerBound else { throw Unexpected(description: "no index after the media data") }
        let statement = try gaplessStatement(bytes, moov, packetFrames: packetFrames)
        var edit = Edit(statement: statement, statingGapless: statingGapless, offsetShift: 0)
        var index = try edit.rebuilt(bytes, moov)
        if indexFirst {
            edit.offsetShift = index.count
            index = try edit.rebuilt(bytes, moov)
        }
        var output: [UInt8] = []
        for atom in top where atom.type != "moov" {
            if indexFirst, atom.range.lowerBound == top[mdat].range.lowerBound { output += index }
            output += bytes[atom.range]
        }
        if !indexFirst { output += index }
        return Data(output)
    }

    /// Where each packet of `file`'s first track ends, as FFmpeg lays out a file of one track:
    /// its packets one after another from the first chunk's offset (`stco`), each of its size
    /// (`stsz`). Cutting the file at one of these offsets leaves whole packets only.
    public static func packetEnds(_ file: Data) throws -> [Int] {
        let bytes = [UInt8](file)
        guard let moov = atoms(bytes, 0..<bytes.count).first(where: { $0.type == "moov" }),
              let trak = atoms(bytes, moov.body).first(where: { $0.type == "trak" }),
              let stco = find(["mdia", "minf", "stbl", "stco"], bytes, trak), let stsz = find(["mdia", "minf", "stbl", "stsz"], bytes, trak),
              integer(bytes, stco.body.lowerBound + 4) > 0, integer(bytes, stsz.body.lowerBound + 4) == 0
        else { throw Unexpected(description: "no chunk offsets or sample sizes") }
        var end = integer(bytes, stco.body.lowerBound + 8)
        return (0..<integer(bytes, stsz.body.lowerBound + 8)).map { packet in
            end += integer(bytes, stsz.body.lowerBound + 12 + 4 * packet)
            return end
        }
    }

    /// The priming, frames and total frames the file's edit list and sample table state.
    private struct Statement {
        let priming: Int
        let frames: Int
        let total: Int
        let packets: Int
    }

    /// Reads the edit list's start and duration (in the movie's time scale, the sample rate in
    /// files aurender writes) and counts the sample table's packets.
    private static func gaplessStatement(_ bytes: [UInt8], _ moov: Atom, packetFrames: Int) throws -> Statement {
        guard let trak = atoms(bytes, moov.body).first(where: { $0.type == "trak" }),
              let elst = find(["edts", "elst"], bytes, trak), let stts = find(["mdia", "minf", "stbl", "stts"], bytes, trak),
              elst.body.count >= 20, bytes[elst.body.lowerBound] == 0 else { throw Unexpected(description: "no edit list or sample table") }
        let entries = integer(bytes, stts.body.lowerBound + 4)
        let packets = (0..<entries).reduce(0) { $0 + integer(bytes, stts.body.lowerBound + 8 + 8 * $1) }
        let frames = integer(bytes, elst.body.lowerBound + 8), priming = integer(bytes, elst.body.lowerBound + 12)
        return Statement(priming: priming, frames: frames, total: packets * packetFrames, packets: packets)
    }

    /// The rewriting of the index, atom by atom.
    private struct Edit {
        let statement: Statement
        let statingGapless: Bool
        /// Bytes to add to every chunk offset (the index's size, when it moves before the media).
        var offsetShift: Int

        /// `atom` rebuilt with its children rewritten; containers' sizes follow their children.
        func rebuilt(_ bytes: [UInt8], _ atom: Atom) throws -> [UInt8] {
            var body = Array(bytes[atom.body])
            switch atom.type {
            case "moov", "trak", "mdia", "minf", "stbl", "udta", "meta", "ilst":
                let prefix = atom.type == "meta" ? 4 : 0
                let children = atoms(bytes, (atom.body.lowerBound + prefix)..<atom.body.upperBound)
                body = Array(body.prefix(prefix))
                for child in children where child.type != "edts" { body += try rebuilt(bytes, child) }
                if atom.type == "ilst", statingGapless { body += iTunSMPB() }
                if atom.type == "moov", statingGapless, !children.contains(where: { $0.type == "udta" }) {
                    body += box("udta", box("meta", [0, 0, 0, 0] + box("hdlr", [UInt8](repeating: 0, count: 8) + Array("mdirappl".utf8)
                        + [UInt8](repeating: 0, count: 9)) + box("ilst", iTunSMPB())))
                }
            case "mvhd", "mdhd":
                guard body[0] == 0 else { throw Unexpected(description: "a 64-bit \(atom.type)") }
                body.replaceSubrange(16..<20, with: big(statement.total))
            case "tkhd":
                guard body[0] == 0 else { throw Unexpected(description: "a 64-bit tkhd") }
                body.replaceSubrange(20..<24, with: big(statement.total))
            case "stts":
                body = [0, 0, 0, 0] + big(1) + big(statement.packets) + big(statement.total / statement.packets)
            case "stco":
                for entry in 0..<integer(body, 4) {
                    body.replaceSubrange((8 + 4 * entry)..<(12 + 4 * entry), with: big(integer(body, 8 + 4 * entry) + offsetShift))
                }
            default: break
            }
            return box(atom.type, body)
        }

        /// The `----` item iTunes writes: mean `com.apple.iTunes`, name `iTunSMPB`, and text
        /// data of twelve hexadecimal fields, the second to fourth the priming, the padding
        /// and the frames of audio.
        private func iTunSMPB() -> [UInt8] {
            let padding = statement.total - statement.priming - statement.frames
            let fields = [" 00000000", hex(statement.priming, 8), hex(padding, 8), hex(statement.frames, 16)]
                + [String](repeating: "00000000", count: 8)
            return box("----", box("mean", [0, 0, 0, 0] + Array("com.apple.iTunes".utf8)) + box("name", [0, 0, 0, 0] + Array("iTunSMPB".utf8))
                + box("data", big(1) + big(0) + Array(fields.joined(separator: " ").utf8)))
        }

        private func hex(_ value: Int, _ digits: Int) -> String {
            let text = String(value, radix: 16, uppercase: true)
            return String(repeating: "0", count: max(0, digits - text.count)) + text
        }
    }

    /// An atom of the file: its type, its whole bytes and its body's.
    private struct Atom {
        let type: String
        let range: Range<Int>
        var body: Range<Int> { (range.lowerBound + 8)..<range.upperBound }
    }

    /// The atoms one after another in `range` (32-bit sizes, as FFmpeg writes small files).
    private static func atoms(_ bytes: [UInt8], _ range: Range<Int>) -> [Atom] {
        var found: [Atom] = [], offset = range.lowerBound
        while offset + 8 <= range.upperBound {
            let size = integer(bytes, offset)
            guard size >= 8, offset + size <= range.upperBound else { break }
            found.append(Atom(type: String(decoding: bytes[(offset + 4)..<(offset + 8)], as: UTF8.self), range: offset..<(offset + size)))
            offset += size
        }
        return found
    }

    /// The atom reached through `path`'s types from `atom`.
    private static func find(_ path: [String], _ bytes: [UInt8], _ atom: Atom) -> Atom? {
        var current = atom
        for type in path {
            guard let child = atoms(bytes, current.body).first(where: { $0.type == type }) else { return nil }
            current = child
        }
        return current
    }

    private static func box(_ type: String, _ body: [UInt8]) -> [UInt8] { big(8 + body.count) + Array(type.utf8) + body }

    private static func big(_ value: Int) -> [UInt8] { [24, 16, 8, 0].map { UInt8((value >> $0) & 0xFF) } }

    private static func integer(_ bytes: [UInt8], _ offset: Int) -> Int {
        bytes[offset..<(offset + 4)].reduce(0) { $0 << 8 | Int($1) }
    }
}
