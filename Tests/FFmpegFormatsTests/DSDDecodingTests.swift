import AudioFormats
import FFmpegFormats
import Foundation
import Testing
import TestSupport

/// DSD (Sony's DSF) decodes through FFmpeg's libraries. No encoder here writes DSD, so the test
/// builds the file itself: a 440 Hz sine at half scale, delta-sigma modulated at 2.8224 MHz.
@Suite struct DSDDecodingTests {
    /// One channel of one-bit samples from a second-order delta-sigma modulator, one byte per
    /// eight samples, least significant bit first (DSF's order).
    static func modulatedSine(seconds: Double) -> [UInt8] {
        let count = Int(Double(ByteBuiltFiles.dsdRate) * seconds) / 8 * 8
        var bytes = [UInt8](repeating: 0, count: count / 8)
        var first = 0.0, second = 0.0, feedback = 0.0
        for index in 0..<count {
            let input = 0.5 * sin(2 * Double.pi * 440 * Double(index) / Double(ByteBuiltFiles.dsdRate))
            first += input - feedback
            second += first - feedback
            let bit = second >= 0
            feedback = bit ? 1 : -1
            if bit { bytes[index / 8] |= UInt8(1) << UInt8(index % 8) }
        }
        return bytes
    }

    /// The amplitude of the `frequency` component of `samples` at `rate` (a single-bin DFT).
    static func amplitude(_ samples: [Float], frequency: Double, rate: Double) -> Double {
        var real = 0.0, imaginary = 0.0
        for (index, sample) in samples.enumerated() {
            let phase = 2 * Double.pi * frequency * Double(index) / rate
            real += Double(sample) * cos(phase)
            imaginary += Double(sample) * sin(phase)
        }
        return 2 * (real * real + imaginary * imaginary).squareRoot() / Double(samples.count)
    }

    @Test func aDSFFileDecodesToItsSineAtAnEighthOfTheDSDRate() throws {
        let folder = try TemporaryFolder()
        let path = folder.file("sine.dsf")
        try ByteBuiltFiles.dsf(Self.modulatedSine(seconds: 0.25)).write(to: URL(fileURLWithPath: path))
        let (decoder, samples) = try FFmpegDecodingTests.decodeAll(path)
        let rate = Double(ByteBuiltFiles.dsdRate / 8)
        #expect(decoder.decoderName == "FFmpeg")
        #expect(decoder.container.identifier == "dsf")
        #expect(decoder.format.sampleRate == rate && decoder.format.channelCount == 1)
        #expect(decoder.length == .exact(88_200), "the fmt chunk's sample count over 8, not the padded data")
        #expect(samples.count == 88_200)
        let body = Array(samples[(samples.count / 5)..<(samples.count * 4 / 5)])
        let tone = Self.amplitude(body, frequency: 440, rate: rate)
        #expect(abs(tone - 0.5) < 0.05, "440 Hz at \(tone)")
        #expect(Self.amplitude(body, frequency: 1_000, rate: rate) < 0.01)
    }
}
