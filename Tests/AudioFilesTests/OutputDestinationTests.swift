import AudioFiles
import Foundation
import TestSupport
import Testing

@Suite struct OutputDestinationTests {
    @Test func theDestinationIsDecidedOnceFromThePath() throws {
        let folder = try TemporaryFolder()
        #expect(OutputDestination("-") == .standardOutput)
        #expect(OutputDestination("-").path == "-")
        #expect(OutputDestination("/dev/null") == .device("/dev/null"))
        #expect(OutputDestination(folder.file("new.wav")) == .file(folder.file("new.wav")))
        #expect(OutputDestination(folder.path) == .file(folder.path), "a folder is a file destination, refused when created")
        #expect(throws: (any Error).self) { try OutputFile(destination: .file(folder.path)) }
    }

    @Test func aDeviceIsWrittenInPlaceAndAFileThroughATemporary() throws {
        let folder = try TemporaryFolder()
        let device = try OutputFile(destination: .device("/dev/null"))
        try device.commit()
        #expect(folder.contents().isEmpty)
        let file = try OutputFile(destination: .file(folder.file("out.wav")))
        #expect(folder.contents().isEmpty && unnamedFiles(openBy: getpid(), in: folder.path) == 1, "an unnamed temporary file")
        close(file.fileDescriptor)
        try file.commit()
        #expect(folder.contents() == ["out.wav"])
        #expect(unnamedFiles(openBy: getpid(), in: folder.path) == 0)
    }
}
