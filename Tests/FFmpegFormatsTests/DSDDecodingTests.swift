import AudioFormats
import FFmpegFormats
import Foundation
import Testing
import TestSupport

/// DSD (Sony's DSF) decodes through FFmpeg's libraries. No encoder here writes DSD, so the test
/// builds the file itself: a 440 Hz sine at half scale, delta-sigma modulated at 2.8224 MHz.
@Suite struct DSDDecodingTests {
    static let dsdRate = 2_822_400
    static let blockSize = 4_096

    /// One channel of one-bit samples from a second-order delta-sigma modulator, one byte per
    /// eight samples, least significant bit first (DSF's order).
    static func modulatedSine(seconds: Double) -> [UInt8] {
        let count = Int(Double(dsdRate) * seconds) / 8 * 8
        var bytes = [UInt8](repeating: 0, count: count / 8)
        var first = 0.0, second = 0.0, feedback = 0.0
        for index in 0..<count {
            let input = 0.5 * sin(2 * Double.pi * 440 * Double(index) / Double(dsdRate))
            first += input - feedback
            second += first - feedback
            let bit = second >= 0
            feedback = bit ? 1 : -1
            if bit { bytes[index / 8] |= UInt8(1) << UInt8(index % 8) }
        }
        return bytes
    }

    /// A mono DSF file holding `bits`: the DSD, fmt and data chunks, the data padded to whole blocks.
    static func dsfFile(_ bits: [UInt8]) -> Data {
        var data = Data()
        func append<Value: FixedWidthInteger>(_ value: Value) { withUnsafeBytes(of: value.littleEndian) { data.append(contentsOf: $0) } }
        let blocks = (bits.count + blockSize - 1) / blockSize
        let dataChunk = 12 + blocks * blockSize
        data.append(contentsOf: Array("DSD ".utf8)); append(UInt64(28)); append(UInt64(28 + 52 + dataChunk)); append(UInt64(0))
        data.append(contentsOf: Array("fmt ".utf8)); append(UInt64(52))
        append(UInt32(1)); append(UInt32(0)); append(UInt32(1)); append(UInt32(1))
        append(UInt32(dsdRate)); append(UInt32(1)); append(UInt64(bits.count * 8)); append(UInt32(blockSize)); append(UInt32(0))
        data.append(contentsOf: Array("data".utf8)); append(UInt64(dataChunk))
        data.append(contentsOf: bits)
        data.append(contentsOf: [UInt8](repeating: 0x69, count: blocks * blockSize - bits.count))
        return data
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
        try Self.dsfFile(Self.modulatedSine(seconds: 0.25)).write(to: URL(fileURLWithPath: path))
        let (decoder, samples) = try FFmpegDecodingTests.decodeAll(path)
        let rate = Double(Self.dsdRate / 8)
        #expect(decoder.decoderName == "FFmpeg")
        #expect(decoder.container.identifier == "dsf")
        #expect(decoder.format.sampleRate == rate && decoder.format.channelCount == 1)
        #expect(abs(samples.count - Int(0.25 * rate)) <= 4_096 / 8 * 8, "\(samples.count) frames")
        let body = Array(samples[(samples.count / 5)..<(samples.count * 4 / 5)])
        let tone = Self.amplitude(body, frequency: 440, rate: rate)
        #expect(abs(tone - 0.5) < 0.05, "440 Hz at \(tone)")
        #expect(Self.amplitude(body, frequency: 1_000, rate: rate) < 0.01)
    }
}
