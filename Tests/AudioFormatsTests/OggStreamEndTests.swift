import AudioFormats
import Foundation
import Testing
import TestSupport

/// An Ogg file ends whole when its last complete page carries the end-of-stream flag.
@Suite struct OggStreamEndTests {
    static let pages = OggPage.pages(of: [UInt8](try! Data(contentsOf: URL(fileURLWithPath: fixture("music.ogg")))))

    static func endsWhole(_ bytes: [UInt8]) -> Bool { OggStreamEnd.endsWhole(tail: bytes[...]) }

    @Test func aWholeFileEndsWhole() {
        #expect(Self.pages.last?.flags == 0x04)
        #expect(Self.endsWhole(Self.pages.flatMap(\.bytes)))
        #expect(Self.endsWhole(Array(Self.pages.flatMap(\.bytes).suffix(OggStreamEnd.tailLength))), "from the tail alone")
    }

    @Test func aFileCutBetweenPagesDoesNot() {
        #expect(!Self.endsWhole(Self.pages.dropLast().flatMap(\.bytes)))
    }

    @Test func aFileCutInsideItsLastPageDoesNot() {
        let bytes = Self.pages.flatMap(\.bytes)
        #expect(!Self.endsWhole(Array(bytes.dropLast(100))))
        #expect(!Self.endsWhole(Array(bytes.dropLast(Self.pages.last!.body.count + 1))), "cut inside the segment table")
    }

    @Test func bytesAfterTheLastPageDoNotMatter() {
        #expect(Self.endsWhole(Self.pages.flatMap(\.bytes) + Array("TAG".utf8) + [UInt8](repeating: 0, count: 125)))
    }

    /// A tag longer than the cut makes the cut page's stated length fit in the file again; the
    /// tag's bytes are no part of it.
    @Test func aPageCutBeforeAnID3v1TagDoesNot() {
        let tag = Array("TAG".utf8) + [UInt8](repeating: 0, count: 125)
        #expect(!Self.endsWhole(Array(Self.pages.flatMap(\.bytes).dropLast(20)) + tag))
        #expect(ID3v1Tag.length(atEndOf: tag[...]) == 128 && ID3v1Tag.length(atEndOf: tag.dropFirst()) == 0)
    }

    @Test func noPagesIsNoEnd() {
        #expect(!Self.endsWhole([]))
        #expect(!Self.endsWhole(Array("OggS".utf8)))
    }
}
