import AudioFiles
import AudioFormats
import Foundation
import MallocCounter
@testable import Mpg123Formats
import Testing
import TestSupport

/// A long MPEG-1 layer III file decodes on two cores, in segments, to exactly the samples one
/// libmpg123 handle gives reading it from its start (which `mpg123 -e f32` gives too:
/// `MP3DecoderTests`), whatever blocks the caller reads in, again after a rewind, and without
/// allocating on the caller's thread once open.
@Suite struct Mpg123SegmentsTests {
    static let hasTwoCores = sysconf(Int32(_SC_NPROCESSORS_ONLN)) > 1

    /// Writes `seconds` of noise over a tone as an MP3 at `bitRate` (libsndfile's LAME).
    static func writeMP3(_ path: String, rate: Int, channels: Int, bitRate: Int, seconds: Int) throws {
        let frames = rate * seconds
        let noise = Signal.noise(frames: frames * channels, amplitude: 0.3, seed: 5)
        let tone = Signal.sine(frequency: 330, sampleRate: Double(rate), frames: frames, amplitude: 0.3)
        let samples = (0..<(frames * channels)).map { noise[$0] + tone[$0 / channels] }
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        let encoder = try FormatRegistry.standard.makeEncoder(fileDescriptor: descriptor, path: path, container: .mp3, encoding: .mp3,
                                                              sampleRate: rate, channelCount: channels,
                                                              settings: EncoderSettings(bitRate: bitRate))
        try samples.withUnsafeBufferPointer { try encoder.write($0.baseAddress!, frames: frames) }
        try encoder.finish()
    }

    /// Every sample `read` gives, asked for `block` frames at a time.
    static func readAll(channels: Int, block: Int, read: (UnsafeMutablePointer<Float>, Int) throws -> Int) throws -> [Float] {
        var samples: [Float] = []
        var buffer = [Float](repeating: 0, count: block * channels)
        while true {
            let got = try buffer.withUnsafeMutableBufferPointer { try read($0.baseAddress!, block) }
            samples += buffer[0..<(got * channels)]
            if got < block { return samples }
        }
    }

    /// The samples of one handle reading `path` from its start, as aurender decoded MP3 before.
    static func oneHandle(_ path: String) throws -> [Float] {
        let stream = try Mpg123Stream(source: try InputBytes(input: try AudioInput(path: path, headBytes: 0)), path: path)
        return try readAll(channels: stream.channelCount, block: 4_096) { try stream.read(into: $0, frames: $1) }
    }

    @Test(arguments: [(48_000, 2, 32_000), (44_100, 2, 320_000), (44_100, 1, 64_000)])
    func segmentsGiveOneHandlesSamples(rate: Int, channels: Int, bitRate: Int) throws {
        let folder = try TemporaryFolder()
        let path = folder.file("long.mp3")
        // Three segments and part of a fourth: both handles seek, and the last segment is short.
        try Self.writeMP3(path, rate: rate, channels: channels, bitRate: bitRate, seconds: 34)
        let reference = try Self.oneHandle(path)
        #expect(reference.count / channels > 3 * Mpg123Segments.segmentFrames * 1_152, "more than three segments")

        let decoder = try #require(try FormatRegistry.standard.openDecoder(path: path) as? Mpg123Decoder)
        #expect(decoder.decodesOnTwoCores == Self.hasTwoCores, "MPEG-1 layer III of more than two segments")
        for block in [65_536, 1_000] {
            let samples = try Self.readAll(channels: channels, block: block) { try decoder.read(into: $0, frames: $1) }
            #expect(samples.count == reference.count)
            let differing = zip(samples, reference).filter { $0 != $1 }.count
            #expect(differing == 0, "\(bitRate / 1000) kb/s at \(rate) Hz in blocks of \(block): the same samples")
            try decoder.rewind()
            #expect(decoder.decodesOnTwoCores == Self.hasTwoCores)
        }
    }

    @Test func readingAllocatesNothingOnTheCallersThread() throws {
        let folder = try TemporaryFolder()
        let path = folder.file("long.mp3")
        try Self.writeMP3(path, rate: 44_100, channels: 2, bitRate: 128_000, seconds: 32)
        let decoder = try #require(try FormatRegistry.standard.openDecoder(path: path) as? Mpg123Decoder)
        #expect(decoder.decodesOnTwoCores == Self.hasTwoCores)
        var buffer = [Float](repeating: 0, count: 2 * 65_536)
        var frames = 0
        let allocations = try buffer.withUnsafeMutableBufferPointer { (samples) throws -> Int in
            let before = malloc_counter_thread_allocations()
            while true {
                let got = try decoder.read(into: samples.baseAddress!, frames: 65_536)
                frames += got
                if got < 65_536 { break }
            }
            return malloc_counter_thread_allocations() - before
        }
        #expect(frames == 44_100 * 32)
        #expect(allocations == 0)
    }

    /// Layer II, MPEG-2 and short files keep the one handle: the segment's reasoning holds for
    /// MPEG-1 layer III only, and a short file gains nothing.
    @Test func otherStreamsKeepOneHandle() throws {
        let folder = try TemporaryFolder()
        let short = folder.file("short.mp3")
        try Self.writeMP3(short, rate: 44_100, channels: 2, bitRate: 128_000, seconds: 5)
        let lowRate = folder.file("mpeg2.mp3")
        try Self.writeMP3(lowRate, rate: 22_050, channels: 1, bitRate: 32_000, seconds: 70)
        for path in [short, lowRate] {
            let decoder = try #require(try FormatRegistry.standard.openDecoder(path: path) as? Mpg123Decoder)
            #expect(!decoder.decodesOnTwoCores, "\(path)")
            let samples = try Self.readAll(channels: decoder.format.channelCount, block: 65_536) { try decoder.read(into: $0, frames: $1) }
            let reference = try Self.oneHandle(path)
            #expect(samples.count == reference.count && zip(samples, reference).allSatisfy { $0 == $1 })
        }
    }
}
