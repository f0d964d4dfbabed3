import Foundation
@testable import Resampling
import TestSupport
import Testing

@Suite struct LibsamplerateEngineTests {
    static let ratios = [(44100, 48000), (48000, 44100), (8000, 96000), (96000, 8000)]

    func engine(_ inputRate: Int, _ outputRate: Int, channels: Int = 1, quality: ResamplerQuality = .best) throws -> any ResamplerEngine {
        try ResamplingTests.engine(named: "libsamplerate", inputRate, outputRate, channels: channels, quality: quality)
    }

    @Test func eachQualityUsesTheExpectedLibsamplerateConverter() {
        let expected: [(ResamplerQuality, Int32, String)] = [
            (.best, 0, "Best Sinc Interpolator"), (.medium, 1, "Medium Sinc Interpolator"),
            (.fastest, 2, "Fastest Sinc Interpolator"), (.zeroOrderHold, 3, "ZOH Interpolator"), (.linear, 4, "Linear Interpolator"),
        ]
        for (quality, converter, name) in expected {
            #expect(LibsamplerateEngine.converter(for: quality) == converter, "\(quality)")
            #expect(LibsamplerateEngine.converterName(for: quality) == name, "\(quality)")
        }
    }

    @Test(arguments: ratios)
    func outputLengthIsExact(inputRate: Int, outputRate: Int) throws {
        let engine = try engine(inputRate, outputRate)
        for frames in [1, 6, 999, 20_011] {
            engine.reset()
            let input = Signal.noise(frames: frames, amplitude: 0.3, seed: 3)
            let output = try stream(input, through: engine, chunk: 4096, room: 4096)
            let exact = Int((Double(frames) * Double(outputRate) / Double(inputRate)).rounded())
            #expect(output.count == exact, "\(frames) frames \(inputRate) → \(outputRate)")
        }
    }

    /// The same samples however the input and output are cut into calls.
    @Test(arguments: ratios)
    func chunkSizesDoNotChangeTheSamples(inputRate: Int, outputRate: Int) throws {
        let input = Signal.noise(frames: 30_001, amplitude: 0.5, seed: 4)
        let reference = try stream(input, through: try engine(inputRate, outputRate), chunk: 30_001, room: 400_000)
        for (chunk, room) in [(1, 7), (64, 64), (1000, 333), (4097, 10_000)] {
            let other = try stream(input, through: try engine(inputRate, outputRate), chunk: chunk, room: room)
            #expect(other.count == reference.count, "chunks of \(chunk), room \(room)")
            let worst = zip(reference, other).map { abs($0 - $1) }.max() ?? 1
            #expect(worst == 0, "\(inputRate) → \(outputRate), chunks of \(chunk), room \(room): \(worst)")
        }
    }

    /// Planar frames give what interleaved frames give.
    @Test func planarMatchesInterleaved() throws {
        let left = Signal.noise(frames: 5000, amplitude: 0.5, seed: 5), right = Signal.noise(frames: 5000, amplitude: 0.5, seed: 6)
        let interleaved = zip(left, right).flatMap { [$0, $1] }
        let expected = try stream(interleaved, through: try engine(44100, 48000, channels: 2), chunk: 5000, room: 6000)
        let engine = try engine(44100, 48000, channels: 2)
        var (outLeft, outRight) = ([Float](repeating: 0, count: 6000), [Float](repeating: 0, count: 6000))
        var (inLeft, inRight) = (left, right)
        var position = 0, produced = 0
        while true {
            let count = min(700, 5000 - position)
            let progress = try inLeft.withUnsafeMutableBufferPointer { l in
                try inRight.withUnsafeMutableBufferPointer { r in
                    try outLeft.withUnsafeMutableBufferPointer { ol in
                        try outRight.withUnsafeMutableBufferPointer { or in
                            let inputs = [l.baseAddress! + position, r.baseAddress! + position]
                            let outputs = [ol.baseAddress! + produced, or.baseAddress! + produced]
                            return try inputs.withUnsafeBufferPointer { i in
                                try outputs.withUnsafeBufferPointer { o in
                                    try engine.process(.planar(i), inputFrames: count, into: .planar(o), outputCapacity: 6000 - produced,
                                                       endOfInput: position + count == 5000)
                                }
                            }
                        }
                    }
                }
            }
            position += progress.framesConsumed
            produced += progress.framesProduced
            if position == 5000, progress.framesConsumed == 0, progress.framesProduced == 0 { break }
        }
        #expect(produced * 2 == expected.count)
        #expect(Array(zip(outLeft.prefix(produced), outRight.prefix(produced)).flatMap { [$0, $1] }) == expected)
    }

    /// Input given without the end mark, then `flush` drains the tail to the exact length.
    @Test func flushDrainsTheTail() throws {
        let engine = try engine(48000, 44100)
        let input = Signal.noise(frames: 10_000, amplitude: 0.5, seed: 7)
        var output = [Float](repeating: 0, count: 12_000)
        var position = 0, produced = 0
        try input.withUnsafeBufferPointer { source in
            try output.withUnsafeMutableBufferPointer { destination in
                while position < input.count {
                    let step = try engine.process(.interleaved(source.baseAddress! + position), inputFrames: input.count - position,
                                                  into: .interleaved(destination.baseAddress! + produced),
                                                  outputCapacity: 12_000 - produced, endOfInput: false)
                    position += step.framesConsumed
                    produced += step.framesProduced
                }
                #expect(produced < 9188, "libsamplerate holds back its filter's reach")
                while true {
                    let flushed = try engine.flush(into: .interleaved(destination.baseAddress! + produced), outputCapacity: 12_000 - produced)
                    if flushed == 0 { break }
                    produced += flushed
                }
            }
        }
        #expect(produced == 9188, "round(10000 × 44100 / 48000)")
        let whole = try stream(input, through: try self.engine(48000, 44100), chunk: 10_000, room: 12_000)
        #expect(Array(output.prefix(produced)) == whole)
    }

    /// Output frame k lies at input time k × in / out: no leading delay.
    @Test func thereIsNoLeadingDelay() throws {
        let input = Signal.sine(frequency: 100, sampleRate: 44100, frames: 44100, amplitude: 0.5)
        let output = try stream(input, through: try engine(44100, 48000), chunk: 4096, room: 4096)
        for k in [500, 1000, 20_000] {
            let expected = 0.5 * sin(2 * Double.pi * 100 * Double(k) / 48000)
            #expect(abs(Double(output[k]) - expected) < 1e-3, "frame \(k): \(output[k]) vs \(expected)")
        }
    }

    /// The latency bounds the filter's reach: 256 input frames, widened by 1 / ratio when lowering the rate.
    @Test func latencyIsReported() throws {
        #expect(try engine(44100, 48000).latency == 256)
        #expect(try engine(8000, 96000).latency == 256)
        #expect(try engine(48000, 44100).latency == 279)
        #expect(try engine(96000, 8000, quality: .fastest).latency == 3072)
    }
}
