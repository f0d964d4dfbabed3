import AudioFormats
import Foundation
import Testing
import TestSupport

/// `PlainOggStream` passes only whole, single-stream, regular files to a decoder other than
/// the reference (and Vorbis only with its audio on a fresh page).
@Suite struct PlainOggStreamTests {
    static let music = [UInt8](try! Data(contentsOf: URL(fileURLWithPath: fixture("music.ogg"))))

    /// Whether `bytes`, written to a file, are a plain Ogg Vorbis stream.
    static func isPlain(_ bytes: [UInt8]) throws -> Bool {
        let folder = try TemporaryFolder()
        try Data(bytes).write(to: URL(fileURLWithPath: folder.file("x.ogg")))
        return PlainOggStream.holds(try AudioInput(path: folder.file("x.ogg")), encoding: .vorbis)
    }

    @Test func aWholeFileIsPlain() throws {
        #expect(try Self.isPlain(Self.music))
    }

    @Test func aCutFileIsNot() throws {
        #expect(try !Self.isPlain(Array(Self.music.dropLast(500))))
    }

    @Test func audioOnTheSetupPageIsNot() throws {
        #expect(try !Self.isPlain(OggPage.audioOnTheSetupPage(Self.music)))
    }

    /// A chained file: a second stream, another serial number, after the first.
    @Test func aChainedFileIsNot() throws {
        let second = OggPage.pages(of: Self.music).map { page -> OggPage in
            var page = page
            page.serial ^= 1
            return page
        }
        #expect(try !Self.isPlain(Self.music + second.flatMap(\.bytes)))
    }

    /// A pipe (here its first 8 KB, which the pipe's buffer holds) is never plain: its end
    /// cannot be read before decoding.
    @Test func aPipeIsNot() throws {
        var descriptors: [Int32] = [0, 0]
        #expect(pipe(&descriptors) == 0)
        Self.music.prefix(8_192).withUnsafeBytes { _ = write(descriptors[1], $0.baseAddress!, $0.count) }
        close(descriptors[1])
        let input = try AudioInput(fileDescriptor: descriptors[0], path: "-")
        #expect(!PlainOggStream.holds(input, encoding: .vorbis))
        close(descriptors[0])
    }
}
