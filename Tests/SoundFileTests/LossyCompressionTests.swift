import AudioFormats
import Foundation
import SoundFile
import TestSupport
import Testing

/// MP3, Vorbis and Opus outputs take a bit rate or a quality through libsndfile's compression
/// level and bit-rate mode: a lower one gives a smaller file.
@Suite struct LossyCompressionTests {
    /// Writes two seconds of stereo noise as `encoding` in `container` at `rate` with `settings`;
    /// returns the file's size.
    static func size(_ container: AudioContainer, _ encoding: AudioEncoding, rate: Int, _ settings: EncoderSettings,
                     in folder: TemporaryFolder) throws -> Int {
        let path = folder.file("\(encoding.identifier)-\(settings.bitRate ?? 0)-\(settings.quality ?? 0)")
        let encoder = try LibSndfileFormats().makeEncoder(fileDescriptor: open(path, O_RDWR | O_CREAT | O_TRUNC, 0o644), path: path,
                                                          container: container, encoding: encoding, sampleRate: rate, channelCount: 2,
                                                          settings: settings)
        let noise = Signal.noise(frames: rate * 4, amplitude: 0.5)
        try noise.withUnsafeBufferPointer { try encoder.write($0.baseAddress!, frames: rate * 2) }
        try encoder.finish()
        return try Data(contentsOf: URL(fileURLWithPath: path)).count
    }

    @Test func mp3AndOpusBitRatesAreMet() throws {
        let folder = try TemporaryFolder()
        for (container, encoding, rate) in [(AudioContainer.mp3, AudioEncoding.mp3, 44_100), (.ogg, .opus, 48_000)] {
            let low = try Self.size(container, encoding, rate: rate, EncoderSettings(bitRate: 64_000), in: folder)
            let high = try Self.size(container, encoding, rate: rate, EncoderSettings(bitRate: 192_000), in: folder)
            #expect(abs(Double(low) * 8 / 2 - 64_000) < 64_000 * 0.1, "\(encoding.name) at 64 kb/s: \(low) bytes in 2 s")
            #expect(abs(Double(high) * 8 / 2 - 192_000) < 192_000 * 0.1, "\(encoding.name) at 192 kb/s: \(high) bytes in 2 s")
        }
    }

    @Test func aLowerQualityGivesASmallerFile() throws {
        let folder = try TemporaryFolder()
        for (container, encoding, rate) in [(AudioContainer.mp3, AudioEncoding.mp3, 44_100), (.ogg, .vorbis, 44_100), (.ogg, .opus, 48_000)] {
            let low = try Self.size(container, encoding, rate: rate, EncoderSettings(quality: 0.2), in: folder)
            let high = try Self.size(container, encoding, rate: rate, EncoderSettings(quality: 0.8), in: folder)
            #expect(low < high * 3 / 4, "\(encoding.name): \(low) against \(high) bytes")
        }
    }

    @Test func vorbisTakesNoBitRateAndMP3RatesAreBounded() throws {
        let folder = try TemporaryFolder()
        let path = folder.file("x")
        #expect(throws: AudioFormatError(path: path, kind: .unsupportedFormat, reason: "Vorbis takes a quality here, not a bit rate")) {
            try LibSndfileFormats().makeEncoder(fileDescriptor: open(path, O_RDWR | O_CREAT, 0o644), path: path, container: .ogg,
                                                encoding: .vorbis, sampleRate: 44_100, channelCount: 2, settings: EncoderSettings(bitRate: 128_000))
        }
        #expect(throws: AudioFormatError(path: path, kind: .unsupportedFormat, reason: "MPEG Layer III at 44100 Hz takes 32 to 320 kb/s, not 500")) {
            try LibSndfileFormats().makeEncoder(fileDescriptor: open(path, O_RDWR | O_CREAT, 0o644), path: path, container: .mp3,
                                                encoding: .mp3, sampleRate: 44_100, channelCount: 2, settings: EncoderSettings(bitRate: 500_000))
        }
    }
}
