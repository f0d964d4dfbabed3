import Aurender
import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What a piped input's head gives the tag reader, with a limit small enough to pass in a test.
@Suite struct PipedMetadataTests {
    /// A pipe holding `bytes`, written on a thread of its own; its read end.
    private func pipe(of bytes: [UInt8]) -> Int32 {
        var ends: [Int32] = [0, 0]
        _ = Glibc.pipe(&ends)
        let writeEnd = ends[1]
        Thread {
            var done = 0
            while done < bytes.count {
                let wrote = bytes.withUnsafeBytes { write(writeEnd, $0.baseAddress! + done, bytes.count - done) }
                if wrote <= 0 { break }
                done += wrote
            }
            close(writeEnd)
        }.start()
        return ends[0]
    }

    /// `fLaC`, a STREAMINFO block, a Vorbis comment block of `TITLE=Small` and a last padding block of `padding` bytes, then frames.
    private func flac(padding: Int) -> [UInt8] {
        let vendor = Array("test".utf8), comment = Array("TITLE=Small".utf8)
        func little(_ value: Int) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }
        let comments = little(vendor.count) + vendor + little(1) + little(comment.count) + comment
        let streamInfo: [UInt8] = [0x10, 0x00, 0x10, 0x00, 0, 0, 0, 0, 0, 0, 0x0A, 0xC4, 0x42, 0xF0, 0, 0, 0, 0] + [UInt8](repeating: 0, count: 16)
        return Array("fLaC".utf8) + [0, 0, 0, 34] + streamInfo + [4, 0, 0, UInt8(comments.count)] + comments
            + [0x81, UInt8(padding >> 16), UInt8((padding >> 8) & 0xFF), UInt8(padding & 0xFF)] + [UInt8](repeating: 0, count: padding)
            + [UInt8](repeating: 0xAB, count: 5000)
    }

    @Test func metadataWithinTheLimitIsReadFromTheHead() throws {
        let descriptor = pipe(of: flac(padding: 6000))
        defer { close(descriptor) }
        let carriage = MetadataCarriage.reading(piped: try AudioInput(fileDescriptor: descriptor, path: "-", leadingMetadataLimit: 10_000))
        #expect(carriage.readError == nil)
        #expect(carriage.metadata.tags["TITLE"] == ["Small"])
    }

    @Test func metadataPastTheLimitIsAWarningNamingTheInput() throws {
        let descriptor = pipe(of: flac(padding: 20_000))
        defer { close(descriptor) }
        let carriage = MetadataCarriage.reading(piped: try AudioInput(fileDescriptor: descriptor, path: "-", leadingMetadataLimit: 10_000))
        #expect(carriage.metadata.isEmpty)
        #expect(carriage.readError?.description == "-: tags not read: the metadata before its audio is larger than the 10000 bytes read from a pipe")
    }
}
