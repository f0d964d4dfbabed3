import Foundation
@testable import Resampling
import TestSupport
import Testing

@Suite struct LibsamplerateStreamingTests {
    @Test func qualitiesHaveNamesBothWays() {
        #expect(ResamplerQuality.allCases.map(\.name) == ["best", "high", "medium", "fastest", "zoh", "linear"])
        #expect(ResamplerQuality(name: "ZOH") == .zeroOrderHold)
        #expect(ResamplerQuality(name: "great") == nil)
        #expect(LibsamplerateEngine.converterName(for: .best)?.contains("Best") == true)
    }

    @Test func impossibleRatiosAreRefused() {
        let libsamplerate = LibsamplerateEngine.kind
        #expect(throws: ResamplerError.unsupported(engine: "libsamplerate",
                                                   reason: "converts between rates at most 256 times apart, not 100 Hz to 30000 Hz")) {
            _ = try libsamplerate.makeEngine(ResamplerConfiguration(inputRate: 100, outputRate: 30000, channelCount: 1))
        }
        #expect(throws: ResamplerError.unsupported(engine: "libsamplerate", reason: "needs rates above 0 Hz, not 100 Hz to 0 Hz")) {
            _ = try libsamplerate.makeEngine(ResamplerConfiguration(inputRate: 100, outputRate: 0, channelCount: 1))
        }
    }

    /// Streaming in small, uneven blocks gives what the one-shot `src_simple` gives.
    @Test(arguments: [ResamplerQuality.best, .medium, .fastest])
    func streamingMatchesOneShot(quality: ResamplerQuality) throws {
        let input = Signal.sine(frequency: 1000, sampleRate: 44100, frames: 20000, amplitude: 0.5)
        let whole = try LibsamplerateEngine.convertWhole(input, channelCount: 1, ratio: 48000.0 / 44100, quality: quality)
        let converter = try LibsamplerateEngine.kind.makeEngine(ResamplerConfiguration(inputRate: 44100, outputRate: 48000, channelCount: 1,
                                                                                       quality: quality))
        var output: [Float] = []
        var position = 0
        var block = [Float](repeating: 0, count: 700)
        while true {
            let chunk = min(333, input.count - position)
            let ended = position + chunk == input.count
            let progress = try input.withUnsafeBufferPointer { source in
                try block.withUnsafeMutableBufferPointer { destination in
                    try converter.process(.interleaved(source.baseAddress! + position), inputFrames: chunk,
                                          into: .interleaved(destination.baseAddress!), outputCapacity: 700, endOfInput: ended)
                }
            }
            position += progress.framesConsumed
            output += block.prefix(progress.framesProduced)
            if ended, progress.framesProduced == 0, progress.framesConsumed == 0 { break }
        }
        #expect(abs(output.count - whole.count) <= 2)
        let worst = zip(output, whole).map { abs($0 - $1) }.max() ?? 1
        #expect(worst < 1e-4, "\(quality.name): streaming differs from src_simple by \(worst)")
    }
}
