import Foundation
import Resampling
import TestSupport
import Testing

@Suite struct SampleRateConverterTests {
    @Test func qualitiesHaveNamesBothWays() {
        #expect(ConverterQuality.allCases.map(\.name) == ["best", "medium", "fastest", "zoh", "linear"])
        #expect(ConverterQuality(name: "ZOH") == .zeroOrderHold)
        #expect(ConverterQuality(name: "great") == nil)
        #expect(ConverterQuality.best.description.contains("Best"))
    }

    @Test func impossibleRatiosAreRefused() {
        #expect(throws: SampleRateConverterError.invalidRatio(300)) { _ = try SampleRateConverter(ratio: 300) }
        #expect(throws: SampleRateConverterError.invalidRatio(0)) { _ = try SampleRateConverter(ratio: 0) }
    }

    /// Streaming in small, uneven blocks gives what the one-shot `src_simple` gives.
    @Test(arguments: [ConverterQuality.best, .medium, .fastest])
    func streamingMatchesOneShot(quality: ConverterQuality) throws {
        let input = Signal.sine(frequency: 1000, sampleRate: 44100, frames: 20000, amplitude: 0.5)
        let whole = try SampleRateConverter.convertWhole(input, channelCount: 1, ratio: 48000.0 / 44100, quality: quality)
        let converter = try SampleRateConverter(ratio: 48000.0 / 44100, quality: quality)
        var output: [Float] = []
        var position = 0
        var block = [Float](repeating: 0, count: 700)
        while true {
            let chunk = min(333, input.count - position)
            let ended = position + chunk == input.count
            let progress = try input.withUnsafeBufferPointer { source in
                try block.withUnsafeMutableBufferPointer { destination in
                    try converter.process(input: source.baseAddress! + position, inputFrames: chunk, output: destination.baseAddress!,
                                          outputCapacity: 700, endOfInput: ended)
                }
            }
            position += progress.framesUsed
            output += block.prefix(progress.framesGenerated)
            if ended, progress.framesGenerated == 0, progress.framesUsed == 0 { break }
        }
        #expect(abs(output.count - whole.count) <= 2)
        let worst = zip(output, whole).map { abs($0 - $1) }.max() ?? 1
        #expect(worst < 1e-4, "\(quality.name): streaming differs from src_simple by \(worst)")
    }
}
