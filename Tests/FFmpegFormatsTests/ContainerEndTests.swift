@testable import FFmpegFormats
import Foundation
import Testing
import TestSupport

/// `ContainerEnd` reads what ASF, DSF and MPEG-4 say of their own ends.
@Suite struct ContainerEndTests {
    @Test func anASFStatingMoreBytesThanItHasWasCutShort() throws {
        let head = [UInt8](try Data(contentsOf: URL(fileURLWithPath: fixture("ffmpeg/windows-media.wma"))).prefix(4_096))
        let size = Int64(try Data(contentsOf: URL(fileURLWithPath: fixture("ffmpeg/windows-media.wma"))).count)
        #expect(!ContainerEnd.asfIsCutShort(head: head, size: size))
        #expect(ContainerEnd.asfIsCutShort(head: head, size: size - 1))
        #expect(!ContainerEnd.asfIsCutShort(head: head, size: nil), "a pipe's size is unknown")
        #expect(!ContainerEnd.asfIsCutShort(head: Array(head.prefix(40)), size: 1), "no file properties in reach")
    }

    @Test func aDSFStatesItsSamplesOverTheDecimation() {
        let file = [UInt8](ByteBuiltFiles.dsf([UInt8](repeating: 0x69, count: 1_000)))
        #expect(ContainerEnd.dsfFrames(head: file, rate: ByteBuiltFiles.dsdRate / 8) == 1_000)
        #expect(ContainerEnd.dsfFrames(head: file, rate: ByteBuiltFiles.dsdRate / 16) == 500)
        #expect(ContainerEnd.dsfFrames(head: file, rate: 44_099) == nil, "not a whole decimation")
        #expect(ContainerEnd.dsfFrames(head: Array(file.prefix(60)), rate: 352_800) == nil)
    }
}
