import AudioFormats
import Foundation
@testable import SoundFile
import TestSupport
import Testing

@Suite struct BadInputTests {
    func openError(_ path: String) -> SoundFileError? {
        do {
            _ = try SoundFileReader(path: path)
            return nil
        } catch {
            return error
        }
    }

    @Test func missingFile() throws {
        let error = openError("/nonexistent/file.wav")
        #expect(error == SoundFileError(path: "/nonexistent/file.wav", kind: .cannotOpen, reason: "No such file or directory"))
    }

    @Test func directory() throws {
        let folder = try TemporaryFolder()
        #expect(openError(folder.path)?.kind == .cannotOpen)
        #expect(openError(folder.path)?.reason == "is a directory, not a sound file")
    }

    @Test func symlinkLoop() throws {
        let folder = try TemporaryFolder()
        try FileManager.default.createSymbolicLink(atPath: folder.file("a.wav"), withDestinationPath: folder.file("b.wav"))
        try FileManager.default.createSymbolicLink(atPath: folder.file("b.wav"), withDestinationPath: folder.file("a.wav"))
        let error = openError(folder.file("a.wav"))
        #expect(error?.kind == .cannotOpen)
        #expect(error?.reason.contains("symbolic links") == true)
    }

    static let broken: [(String, [UInt8], String)] = [
        ("empty", [], ""),
        ("garbage", (0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }, ""),
        ("text", Array("This is a text file, not audio.\n".utf8), ""),
        ("truncated header", Array(WaveFile.bytes(channels: 2, sampleRate: 44100).prefix(20)), ""),
        ("no channels", WaveFile.bytes(channels: 0, sampleRate: 44100, data: [0, 0]), ""),
        ("65535 channels", WaveFile.bytes(channels: 65535, sampleRate: 44100, data: [0, 0]), ""),
        ("0 Hz", WaveFile.bytes(channels: 2, sampleRate: 0, data: [0, 0, 0, 0]), ""),
        ("4294967295 Hz", WaveFile.bytes(channels: 2, sampleRate: 4_294_967_295, data: [0, 0, 0, 0]), ""),
    ]

    @Test(arguments: broken.map(\.0))
    func brokenFilesAreInvalid(_ name: String) throws {
        let bytes = Self.broken.first { $0.0 == name }!.1
        let folder = try TemporaryFolder()
        let path = folder.file("\(name).wav")
        try WaveFile.write(bytes, to: path)
        let error = openError(path)
        #expect(error?.kind == .invalidFile, "\(name): \(String(describing: error))")
        #expect(error?.path == path)
        #expect(error?.description.contains("\n") == false)
        #expect((error?.reason.count ?? 0) > 5)
    }

    @Test func truncatedDataReadsWhatIsThere() throws {
        let folder = try TemporaryFolder()
        let path = folder.file("short.wav")
        var bytes = WaveFile.bytes(channels: 1, sampleRate: 8000, data: WaveFile.pcm16([1, 2, 3, 4, 5, 6, 7, 8]))
        bytes.removeLast(6)
        try WaveFile.write(bytes, to: path)
        let reader = try SoundFileReader(path: path)
        var samples = [Int16](repeating: 0, count: 8)
        let frames = try samples.withUnsafeMutableBufferPointer { try reader.read(into: $0.baseAddress!, frames: 8) }
        #expect(frames == 5)
        #expect(Array(samples.prefix(5)) == [1, 2, 3, 4, 5])
    }

    @Test func writingToAFullDiskFails() throws {
        let descriptor = open("/dev/full", O_WRONLY)
        try #require(descriptor >= 0)
        let samples = [Int16](repeating: 1000, count: 2 * 65536)
        var failure: SoundFileError?
        do {
            let writer = try SoundFileWriter(fileDescriptor: descriptor, path: "/dev/full", type: .au, encoding: .pcm16,
                                             sampleRate: 44100, channelCount: 2)
            try samples.withUnsafeBufferPointer { try writer.write($0.baseAddress!, frames: 65536) }
            try writer.finish()
        } catch {
            failure = error as? SoundFileError
        }
        #expect(failure?.kind == .writeFailed)
        #expect(failure?.path == "/dev/full")
        #expect(failure?.reason.contains("No space left on device") == true, "\(String(describing: failure))")
    }

    @Test func impossibleCombinationsAreRefusedBeforeWriting() throws {
        let folder = try TemporaryFolder()
        let path = folder.file("x.flac")
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        #expect(!SoundFileWriter.canWrite(type: .flac, encoding: .float, sampleRate: 44100, channelCount: 2))
        #expect(throws: SoundFileError(path: path, kind: .unsupportedFormat,
                                       reason: "cannot write 32 bit float in FLAC (Free Lossless Audio Codec) at 44100 Hz with 2 channels")) {
            _ = try SoundFileWriter(fileDescriptor: descriptor, path: path, type: .flac, encoding: .float,
                                    sampleRate: 44100, channelCount: 2)
        }
        close(descriptor)
    }

    @Test func containerNamesAndExtensions() {
        #expect(AudioContainer.forPath("/a/b/song.WAV")?.container == .wav)
        #expect(AudioContainer.forPath("x.opus")?.container == .ogg)
        #expect(AudioContainer.forPath("x.opus")?.encoding == .opus)
        #expect(AudioContainer.forPath("x.mp3")?.encoding == .mp3)
        #expect(AudioContainer.forPath("no-extension") == nil)
        #expect(AudioContainer.forPath(".hidden") == nil)
        #expect(AudioContainer.forPath("dir.wav/file") == nil)
        #expect(AudioEncoding.forBits("24") == .pcm24)
        #expect(AudioEncoding.forBits("float") == .float)
        #expect(AudioEncoding.forBits("12") == nil)
        #expect(SoundFileEncoding.pcm24.integerBits == 24)
        #expect(SoundFileEncoding.vorbis.integerBits == nil)
    }
}

/// libsndfile's vaguer messages reach the user as what they mean for the file.
@Suite struct LibsndfileWordsTests {
    @Test(arguments: [
        ("Unspecified internal error", "libsndfile's decoder stopped part way without saying why (the file may be damaged)"),
        ("unknown error in flac decoder", "its FLAC data does not decode (damaged, or a FLAC variant libFLAC rejects)"),
        ("File contains data in an unimplemented format", "it holds audio in an encoding libsndfile does not implement"),
        ("Format not recognised", "not audio libsndfile can decode (unrecognised or damaged)"),
        ("flac decoder lost sync", "it is damaged: its FLAC frames break off where the decoder expects the next"),
        ("Error in WAV/W64/RF64 file. Malformed 'fmt ' chunk", "it is damaged: its WAV format chunk (fmt) is malformed"),
        ("Bad format field in SF_INFO struct", "Bad format field in SF_INFO struct"),
    ])
    func messagesAreSaidInPlainWords(said: String, meant: String) {
        #expect(SoundFileReader.inPlainWords(said) == meant)
    }
}
