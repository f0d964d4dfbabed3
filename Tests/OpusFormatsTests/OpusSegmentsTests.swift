import AudioFormats
import Foundation
import Testing
import TestSupport
@testable import OpusFormats

/// Long Ogg Opus files decoded by libopus in segments on several threads, each started half a
/// second early (`OpusSegmentDecoder`): the same frames for any number of workers and any read
/// size, `opusdec`'s length, its very samples in the first segment and within rounding of them
/// after (RFC 6716's `opus_compare` criterion holds at its top); a packet that does not decode
/// ends the reading where libopus alone ends it, with its error. The files are made by `opusenc`
/// and decoded by `opusdec` (opus-tools, installed by `make deps`).
@Suite struct OpusSegmentsTests {
    /// Every frame `path` decodes to with `workers` threads, read in blocks of `block` frames,
    /// and the error that ended the reading, if one did.
    static func decode(_ path: String, workers: Int, block: Int = 10_000) throws -> (samples: [Float], failure: AudioFormatError?) {
        let decoder = try OggOpusDecoder(input: try AudioInput(path: path), workers: workers)
        defer { decoder.close() }
        return readAll(block: block, channels: decoder.format.channelCount) { (buffer, frames) throws(AudioFormatError) in
            try decoder.read(into: buffer, frames: frames)
        }
    }

    /// Every frame libopus's one decoder gives reading `path` alone from the start, and its error.
    static func decodeAlone(_ path: String, block: Int = 10_000) throws -> (samples: [Float], failure: AudioFormatError?) {
        let source = try InputBytes(input: try AudioInput(path: path))
        let survey = try #require(OggOpusStream.survey(source))
        let stream = try OggOpusStream(source: source, path: path, survey: survey)
        var stated = StatedLength(.exact(survey.totalFrames))
        return readAll(block: block, channels: survey.channelCount) { (buffer, frames) throws(AudioFormatError) in
            try stated.read(frames, path: path) { (asked) throws(AudioFormatError) in try stream.read(into: buffer, frames: asked) }
        }
    }

    private static func readAll(block: Int, channels: Int,
                                _ read: (UnsafeMutablePointer<Float>, Int) throws(AudioFormatError) -> Int) -> (samples: [Float], failure: AudioFormatError?) {
        var samples: [Float] = [], chunk = [Float](repeating: 0, count: block * channels)
        do {
            while true {
                let got = try chunk.withUnsafeMutableBufferPointer { (buffer) throws(AudioFormatError) in try read(buffer.baseAddress!, block) }
                samples += chunk.prefix(got * channels)
                if got < block { return (samples, nil) }
            }
        } catch {
            return (samples, error)
        }
    }

    @Test(arguments: [(frames: 480_000, channels: 2, bitRate: 128), (frames: 300_007, channels: 1, bitRate: 64),
                      (frames: 400_321, channels: 2, bitRate: 48)])
    func segmentsKeepOpusdecsLengthAndPassTheCriterion(frames: Int, channels: Int, bitRate: Int) throws {
        let folder = try TemporaryFolder()
        let opus = try #require(try OggOpusFiles.encode(frames: frames, channels: channels, bitRate: bitRate, in: folder))
        #expect(try OggOpusStream.survey(InputBytes(input: AudioInput(path: opus)))?.isCELTOnly == true)
        let reference = try #require(try OggOpusFiles.opusdec(opus, in: folder))
        #expect(reference.channels == channels)
        #expect(reference.samples.count == frames * channels)
        #expect(frames > 2 * OggOpusDecoder.segmentFrames, "the file spans several segments")
        let ours = try Self.decode(opus, workers: 2)
        #expect(ours.failure == nil)
        #expect(ours.samples.count == reference.samples.count)
        for (workers, block) in [(1, 10_000), (3, 4_099), (2, 65_536)] {
            #expect(try Self.decode(opus, workers: workers, block: block).samples == ours.samples, "\(workers) workers, blocks of \(block)")
        }
        let first = OggOpusDecoder.segmentFrames * channels
        #expect(ours.samples.prefix(first) == reference.samples.prefix(first), "the first segment is decoded from the start")
        let largest = zip(ours.samples, reference.samples).map { abs($0 - $1) }.max() ?? 1
        #expect(largest > 0 && largest < 1e-5, "\(largest): later segments are within rounding, not a 16-bit step's third")
        let quality = try #require(OpusCompare.quality(reference: reference.samples, decoded: ours.samples, channelCount: channels))
        #expect(quality >= 99.9, "\(quality)")
    }

    /// Going back to the start part way (a two-pass render's second pass) starts the segments
    /// anew: the same frames again.
    @Test func rewindingPartWayGivesTheSameFramesAgain() throws {
        let folder = try TemporaryFolder()
        let opus = try #require(try OggOpusFiles.encode(frames: 400_000, channels: 2, bitRate: 96, in: folder))
        let whole = try Self.decode(opus, workers: 2)
        let decoder = try OggOpusDecoder(input: try AudioInput(path: opus), workers: 2)
        defer { decoder.close() }
        var chunk = [Float](repeating: 0, count: 300_000 * 2)
        let part = try chunk.withUnsafeMutableBufferPointer { try decoder.read(into: $0.baseAddress!, frames: 300_000) }
        #expect(part == 300_000)
        #expect(Array(chunk) == Array(whole.samples.prefix(600_000)))
        try decoder.rewind()
        let again = Self.readAll(block: 10_000, channels: 2) { (buffer, frames) throws(AudioFormatError) in try decoder.read(into: buffer, frames: frames) }
        #expect(again.failure == nil)
        #expect(again.samples == whole.samples)
    }

    /// A file FFmpeg's Ogg muxer wrote (`ffmpeg -c:a libopus`, where the command is installed;
    /// the tests need it nowhere else) is plain too, and decodes in segments to `opusdec`'s
    /// length within rounding of its samples.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/ffmpeg")))
    func aFileFFmpegWroteDecodesInSegmentsToo() throws {
        let folder = try TemporaryFolder()
        let source = try #require(try OggOpusFiles.encode(frames: 400_000, channels: 2, bitRate: 96, in: folder))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/ffmpeg")
        process.arguments = ["-v", "error", "-i", source + ".wav", "-c:a", "libopus", "-b:a", "96k", folder.file("ffmpeg.opus")]
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let opus = folder.file("ffmpeg.opus")
        let survey = try #require(try OggOpusStream.survey(InputBytes(input: AudioInput(path: opus))))
        #expect(survey.isCELTOnly)
        let reference = try #require(try OggOpusFiles.opusdec(opus, in: folder))
        let ours = try Self.decode(opus, workers: 2)
        #expect(ours.samples.count == 400_000 * 2)
        #expect(ours.samples.count == reference.samples.count)
        #expect(zip(ours.samples, reference.samples).allSatisfy { abs($0 - $1) < 1e-5 })
        #expect(try #require(OpusCompare.quality(reference: reference.samples, decoded: ours.samples, channelCount: 2)) >= 99.9)
    }

    /// A packet whose padding runs past its end, in the middle of the file: the segment over it
    /// fails, the one decoder takes over from that segment's start and fails at the packet as
    /// it fails reading alone, with the same frames before it and the same error.
    @Test func aPacketThatDoesNotDecodeEndsTheReadingWhereLibopusAloneEndsIt() throws {
        let folder = try TemporaryFolder()
        let opus = try #require(try OggOpusFiles.encode(frames: 500_000, channels: 2, bitRate: 96, in: folder))
        var pages = OggPage.pages(of: try [UInt8](Data(contentsOf: URL(fileURLWithPath: opus))))
        let index = pages.indices.first { $0 >= pages.count * 3 / 5 && pages[$0].flags & 0x01 == 0 } ?? 0
        // Code 3 (frames counted in the next byte): one frame, with padding whose length (254
        // bytes and more) runs past the packet; the sample count, and so the granules, stay.
        pages[index].body[0] |= 0x03
        pages[index].body[1] = 0x41
        pages[index].body[2] = 0xFF
        let damaged = folder.file("damaged.opus")
        try Data(pages.flatMap(\.bytes)).write(to: URL(fileURLWithPath: damaged))
        let alone = try Self.decodeAlone(damaged)
        #expect(alone.failure?.reason.contains("an Opus packet does not decode") == true, "\(String(describing: alone.failure))")
        #expect(alone.samples.count > 200_000 && alone.samples.count < 1_000_000)
        for workers in [1, 2] {
            let segmented = try Self.decode(damaged, workers: workers)
            #expect(segmented.samples.count == alone.samples.count, "\(workers) workers")
            #expect(segmented.failure == alone.failure, "\(workers) workers")
            let largest = zip(segmented.samples, alone.samples).map { abs($0 - $1) }.max() ?? 1
            #expect(largest < 1e-5)
        }
    }

    /// A file no longer than one segment, and a long one with SILK (hybrid) packets, are
    /// decoded from the start by the one decoder: `opusdec`'s samples exactly.
    @Test(arguments: [(frames: 100_003, bitRate: 64, speech: false), (frames: 288_123, bitRate: 24, speech: true)])
    func shortFilesAndFilesWithSILKAreOpusdecsExactly(frames: Int, bitRate: Int, speech: Bool) throws {
        let folder = try TemporaryFolder()
        let opus = try #require(try OggOpusFiles.encode(frames: frames, channels: 1, bitRate: bitRate, speech: speech, in: folder))
        #expect(try OggOpusStream.survey(InputBytes(input: AudioInput(path: opus)))?.isCELTOnly == !speech)
        let reference = try #require(try OggOpusFiles.opusdec(opus, in: folder))
        #expect(reference.samples.count == frames)
        #expect(try Self.decode(opus, workers: 2).samples == reference.samples)
    }
}
