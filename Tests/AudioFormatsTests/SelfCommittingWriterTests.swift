import AudioFiles
import AudioFormats
import AudioGraph
import Foundation
import Testing
import TestSupport

/// `AudioFileWriter(path:…)` puts its file in place on `finish()` and leaves nothing otherwise.
@Suite struct SelfCommittingWriterTests {
    let format = StreamFormat.canonical(sampleRate: 8000, channelCount: 1)

    private func write(_ writer: AudioFileWriter, _ values: [Float]) throws {
        let storage = UnsafeMutablePointer<Float>.allocate(capacity: values.count)
        defer { storage.deallocate() }
        storage.initialize(from: values, count: values.count)
        var channel = storage
        try withUnsafeMutablePointer(to: &channel) { pointer in
            try writer.write(AudioBufferList(channels: UnsafeMutableBufferPointer(start: pointer, count: 1), capacity: values.count),
                             frames: values.count)
        }
    }

    @Test func finishingPutsTheFileInPlace() throws {
        let folder = try TemporaryFolder()
        let path = folder.file("out.wav")
        let writer = try AudioFileWriter(path: path, container: .wav, encoding: .pcm16, format: format)
        try write(writer, [0, 0.5, -0.5, 0.25])
        #expect(folder.contents().isEmpty && unnamedFiles(openBy: getpid(), in: folder.path) == 1,
                "only the unnamed temporary file until finish")
        try writer.finish()
        #expect(folder.contents() == ["out.wav"])
        let decoder = try FormatRegistry.standard.openDecoder(path: path)
        var back = [Int16](repeating: 0, count: 8)
        let frames = try back.withUnsafeMutableBufferPointer { try decoder.read(into: $0.baseAddress!, frames: 8) }
        #expect(frames == 4 && Array(back.prefix(4)) == [0, 16384, -16384, 8192])
    }

    @Test func aWriterReleasedUnfinishedLeavesNothing() throws {
        let folder = try TemporaryFolder()
        do {
            let writer = try AudioFileWriter(path: folder.file("out.wav"), container: .wav, encoding: .pcm16, format: format)
            try write(writer, [0.1, 0.2])
            #expect(unnamedFiles(openBy: getpid(), in: folder.path) == 1)
        }
        #expect(folder.contents().isEmpty && unnamedFiles(openBy: getpid(), in: folder.path) == 0, "no output and no temporary file")
    }

    @Test func anImpossibleFormatLeavesNothing() throws {
        let folder = try TemporaryFolder()
        #expect(throws: AudioFormatError.self) {
            try AudioFileWriter(path: folder.file("out.flac"), container: .flac, encoding: .float, format: format)
        }
        #expect(folder.contents().isEmpty)
    }
}
