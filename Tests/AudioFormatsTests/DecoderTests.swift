import AudioFiles
import AudioFormats
import Foundation
import Testing
import TestSupport

/// The decoder protocol on its libsndfile tenant: lengths, reading, rewinding.
@Suite struct DecoderTests {
    @Test(arguments: ["music.wav", "music.flac", "music.aiff"])
    func lengthsOfFilesAreExact(name: String) throws {
        let decoder = try FormatRegistry.standard.openDecoder(path: fixture(name))
        #expect(decoder.length == .exact(132_300))
        #expect(decoder.isSeekable)
        var buffer = [Float](repeating: 0, count: 200_000 * 2)
        let first = try buffer.withUnsafeMutableBufferPointer { try decoder.read(into: $0.baseAddress!, frames: 200_000) }
        #expect(first == 132_300)
        let opening = Array(buffer.prefix(64))
        try decoder.rewind()
        let again = try buffer.withUnsafeMutableBufferPointer { try decoder.read(into: $0.baseAddress!, frames: 32) }
        #expect(again == 32 && Array(buffer.prefix(64)) == opening)
    }

    @Test func anMP3LengthIsAnEstimate() throws {
        let decoder = try FormatRegistry.standard.openDecoder(path: fixture("music.mp3"))
        guard case .estimated(let frames) = decoder.length else { Issue.record("\(decoder.length)"); return }
        #expect(abs(frames - 132_300) < 4410)
    }

    /// A pipe whose AU header leaves the size open has an unknown length; one of FLAC is read whole.
    @Test func aPipeHasNoLengthUnlessItsHeaderStatesOne() throws {
        var au = Array(".snd".utf8)
        for field: UInt32 in [24, 0xFFFF_FFFF, 3, 8000, 1] { withUnsafeBytes(of: field.bigEndian) { au += $0 } }
        au += [UInt8](repeating: 0, count: 1600)
        let stream = try decode(Data(au))
        #expect(stream.length == .unknown && stream.frames == 800 && !stream.seekable)

        let flac = try decode(try Data(contentsOf: URL(fileURLWithPath: fixture("music.flac"))))
        #expect(flac.length == .exact(132_300) && flac.frames == 132_300)
        let wav = try decode(try Data(contentsOf: URL(fileURLWithPath: fixture("music.wav"))))
        #expect(wav.samples == flac.samples, "FLAC from a pipe decodes to the WAV's samples")
    }

    /// Opens `bytes` fed through a pipe and reads it to the end.
    private func decode(_ bytes: Data) throws -> (length: AudioLength, frames: Int, seekable: Bool, samples: [Float]) {
        let pipe = Pipe()
        let writer = Thread {
            try? pipe.fileHandleForWriting.write(contentsOf: bytes)
            try? pipe.fileHandleForWriting.close()
        }
        writer.start()
        let decoder = try FormatRegistry.standard.openDecoder(fileDescriptor: pipe.fileHandleForReading.fileDescriptor, path: "-")
        var samples: [Float] = []
        var chunk = [Float](repeating: 0, count: 4096 * decoder.format.channelCount)
        while true {
            let got = try chunk.withUnsafeMutableBufferPointer { try decoder.read(into: $0.baseAddress!, frames: 4096) }
            samples += chunk.prefix(got * decoder.format.channelCount)
            if got < 4096 { break }
        }
        return (decoder.length, samples.count / decoder.format.channelCount, decoder.isSeekable, samples)
    }
}
