@testable import AudioMetadata
import Foundation
import TestSupport
import Testing

/// `TagPresence` hands TagLib only the files that may hold tags: a WAV or AIFF is judged by its
/// chunks, walked to its end; anything else, or a file whose chunks do not end with it, may.
@Suite struct TagPresenceTests {
    /// A RIFF WAVE (little-endian sizes) or AIFF (big-endian) file of `chunks` (identifier and body).
    static func file(_ form: String, _ type: String, _ chunks: [(String, [UInt8])], littleEndian: Bool, cutBy cut: Int = 0) -> [UInt8] {
        func size(_ value: Int) -> [UInt8] {
            let bytes = (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
            return littleEndian ? bytes : bytes.reversed()
        }
        var body = Array(type.utf8)
        for (identifier, bytes) in chunks {
            body += Array(identifier.utf8) + size(bytes.count) + bytes + (bytes.count % 2 == 1 ? [0] : [])
        }
        let whole = Array(form.utf8) + size(body.count) + body
        return Array(whole.dropLast(cut))
    }

    static let format = [UInt8](repeating: 1, count: 16)
    static let samples = [UInt8](repeating: 0, count: 99)

    func mayHoldTags(_ bytes: [UInt8]) throws -> Bool {
        let folder = try TemporaryFolder()
        let path = folder.file("file")
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return TagPresence.mayHoldTags(path: path)
    }

    @Test func aWAVOrAIFFWithoutATagChunkHoldsNoTags() throws {
        #expect(try !mayHoldTags(Self.file("RIFF", "WAVE", [("fmt ", Self.format), ("data", Self.samples)], littleEndian: true)))
        #expect(try !mayHoldTags(Self.file("RIFF", "WAVE", [("fmt ", Self.format), ("bext", Self.format), ("data", Self.samples)], littleEndian: true)))
        #expect(try !mayHoldTags(Self.file("FORM", "AIFF", [("COMM", Self.format), ("SSND", Self.samples)], littleEndian: false)))
    }

    @Test(arguments: ["LIST", "id3 ", "ID3 "])
    func aWAVWithATagChunkMayHoldTags(chunk: String) throws {
        #expect(try mayHoldTags(Self.file("RIFF", "WAVE", [("fmt ", Self.format), ("data", Self.samples), (chunk, Self.format)], littleEndian: true)))
    }

    @Test(arguments: ["NAME", "AUTH", "(c) ", "ANNO", "COMT", "ID3 "])
    func anAIFFWithATagChunkMayHoldTags(chunk: String) throws {
        #expect(try mayHoldTags(Self.file("FORM", "AIFC", [(chunk, Self.format), ("SSND", Self.samples)], littleEndian: false)))
    }

    @Test func aFileWhoseChunksDoNotEndWithItOrOfAnotherFormatMayHoldTags() throws {
        #expect(try mayHoldTags(Self.file("RIFF", "WAVE", [("fmt ", Self.format), ("data", Self.samples)], littleEndian: true, cutBy: 3)))
        #expect(try mayHoldTags(Self.file("RIFF", "WAVE", [("fmt ", Self.format), ("data", Self.samples)], littleEndian: true) + [1, 2, 3, 4, 5]))
        #expect(try mayHoldTags(Array("fLaC".utf8) + Self.samples))
        #expect(try mayHoldTags(Self.file("RF64", "WAVE", [("ds64", Self.format), ("data", Self.samples)], littleEndian: true)))
    }
}
