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

    @Test func noPagesIsNoEnd() {
        #expect(!Self.endsWhole([]))
        #expect(!Self.endsWhole(Array("OggS".utf8)))
    }
}
