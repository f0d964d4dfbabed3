import Foundation
import SoundFile
import TestSupport
import Testing

@Suite struct RoundTripTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let type: SoundFileType
        let encoding: SoundFileEncoding
        let extensionName: String
        var testDescription: String { "\(extensionName) \(encoding.name)" }
    }

    static let cases: [Case] = [
        Case(type: .wav, encoding: .pcm16, extensionName: "wav"),
        Case(type: .wav, encoding: .pcm24, extensionName: "wav"),
        Case(type: .wav, encoding: .pcm32, extensionName: "wav"),
        Case(type: .flac, encoding: .pcm16, extensionName: "flac"),
        Case(type: .flac, encoding: .pcm24, extensionName: "flac"),
        Case(type: .aiff, encoding: .pcm16, extensionName: "aiff"),
        Case(type: .aiff, encoding: .pcm24, extensionName: "aiff"),
        Case(type: .caf, encoding: .pcm16, extensionName: "caf"),
        Case(type: .w64, encoding: .pcm24, extensionName: "w64"),
        Case(type: .rf64, encoding: .pcm16, extensionName: "rf64"),
    ]

    /// Integer samples at the file's own depth, written left-justified, read back as the same values.
    @Test(arguments: cases)
    func integersSurviveExactly(_ test: Case) throws {
        let folder = try TemporaryFolder()
        let path = folder.file("round." + test.extensionName)
        let frames = 1000, channels = 2
        let bits = try #require(test.encoding.integerBits)
        let samples: [Int32] = (0..<(frames * channels)).map { index in
            let full = Int64(1) << (bits - 1)
            let value = Int64(index * 7919) % (2 * full - 1) - (full - 1)
            return Int32(value << (32 - bits))
        }
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        let writer = try SoundFileWriter(fileDescriptor: descriptor, path: path, type: test.type,
                                         encoding: test.encoding, sampleRate: 44100, channelCount: channels)
        try samples.withUnsafeBufferPointer { try writer.write($0.baseAddress!, frames: frames) }
        try writer.finish()

        let reader = try SoundFileReader(path: path)
        #expect(reader.type == test.type)
        #expect(reader.encoding == test.encoding)
        #expect(reader.frameCount == Int64(frames))
        #expect(reader.format.channelCount == channels)
        #expect(reader.format.sampleRate == 44100)
        var floats = [Float](repeating: 0, count: (frames + 10) * channels)
        let read = try floats.withUnsafeMutableBufferPointer { try reader.read(into: $0.baseAddress!, frames: frames + 10) }
        #expect(read == frames)
        // Float32 holds 24 bits exactly; 32-bit PCM is compared within Float32's precision.
        let exact = bits <= 24
        for index in samples.indices {
            let expected = Double(samples[index]) / 2_147_483_648
            let tolerance = exact ? 0 : 1e-7
            if abs(Double(floats[index]) - expected) > tolerance {
                Issue.record("sample \(index): read \(floats[index]), wrote \(expected)")
                return
            }
        }
    }

    @Test(arguments: [(SoundFileType.wav, SoundFileEncoding.float), (.caf, .float), (.wav, .double), (.aiff, .float)])
    func floatsSurviveExactly(type: SoundFileType, encoding: SoundFileEncoding) throws {
        let folder = try TemporaryFolder()
        let path = folder.file("float.file")
        let samples = Signal.noise(frames: 3000, amplitude: 1.5) + [.leastNonzeroMagnitude, -0.0, 1, -1]
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        let writer = try SoundFileWriter(fileDescriptor: descriptor, path: path, type: type, encoding: encoding,
                                         sampleRate: 96000, channelCount: 1)
        try samples.withUnsafeBufferPointer { try writer.write($0.baseAddress!, frames: samples.count) }
        try writer.finish()
        let reader = try SoundFileReader(path: path)
        #expect(reader.encoding == encoding)
        var back = [Float](repeating: 0, count: samples.count)
        _ = try back.withUnsafeMutableBufferPointer { try reader.read(into: $0.baseAddress!, frames: samples.count) }
        #expect(back == samples, "values beyond full scale are kept in float files")
    }

    @Test func sixteenBitFilesReadAndWriteAsShortsUnchanged() throws {
        let folder = try TemporaryFolder()
        let path = folder.file("shorts.wav")
        let samples: [Int16] = [0, 1, -1, 32767, -32768, 12345, -12345, 7]
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        let writer = try SoundFileWriter(fileDescriptor: descriptor, path: path, type: .wav, encoding: .pcm16,
                                         sampleRate: 8000, channelCount: 1)
        try samples.withUnsafeBufferPointer { try writer.write($0.baseAddress!, frames: samples.count) }
        try writer.finish()
        let reader = try SoundFileReader(path: path)
        var back = [Int16](repeating: 0, count: samples.count)
        _ = try back.withUnsafeMutableBufferPointer { try reader.read(into: $0.baseAddress!, frames: samples.count) }
        #expect(back == samples)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(Array(bytes.suffix(16)) == WaveFile.pcm16(samples))
    }

    @Test(arguments: ["music.ogg", "music.mp3", "speech.ogg", "speech.mp3", "music.flac", "music.aiff"])
    func readsCompressedAndOtherFixtures(_ name: String) throws {
        let reference = try SoundFileReader(path: fixture(name.hasPrefix("music") ? "music.wav" : "speech.wav"))
        let reader = try SoundFileReader(path: fixture(name))
        #expect(reader.format.sampleRate == reference.format.sampleRate)
        #expect(reader.format.channelCount == reference.format.channelCount)
        let capacity = Int(reference.frameCount!) + 10_000
        var samples = [Float](repeating: 0, count: capacity * reader.format.channelCount)
        let frames = try samples.withUnsafeMutableBufferPointer { try reader.read(into: $0.baseAddress!, frames: capacity) }
        let expected = Int(reference.frameCount!)
        #expect(abs(frames - expected) < 2500, "decoded \(frames) frames, expected about \(expected)")
        var original = [Float](repeating: 0, count: expected * reference.format.channelCount)
        _ = try original.withUnsafeMutableBufferPointer { try reference.read(into: $0.baseAddress!, frames: expected) }
        let level = 20 * log10(Signal.rms(Array(samples.prefix(frames * reader.format.channelCount))) / Signal.rms(original))
        #expect(abs(level) < 1.0, "level differs by \(level) dB")
    }
}
