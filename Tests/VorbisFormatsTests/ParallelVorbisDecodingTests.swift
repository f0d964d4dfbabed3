import AudioFormats
import Foundation
import Testing
import TestSupport
@testable import VorbisFormats

/// Long Ogg Vorbis files decoded in segments on several threads (`ParallelSegments`) give the
/// frames of the one decoder reading from the start, whatever the number of workers; a segment
/// that does not decode whole hands the reading back to the one decoder. The files are made by
/// `oggenc` (vorbis-tools, installed by `make deps`).
@Suite struct ParallelVorbisDecodingTests {
    /// An oggenc file (`OggVorbisFiles.encode`), which must be made.
    static func encode(frames: Int, channels: Int, rate: Int, quality: Int = 3, serial: Int = 1, in folder: TemporaryFolder) throws -> String {
        try #require(try OggVorbisFiles.encode(frames: frames, channels: channels, rate: rate, quality: quality, serial: serial, in: folder))
    }

    /// Every frame `path` decodes to with `workers` threads, read in blocks of `block` frames,
    /// and the error that ended the reading, if one did.
    static func decode(_ path: String, workers: Int, block: Int = 10_000) throws -> (samples: [Float], failure: AudioFormatError?) {
        let decoder = try VorbisFileDecoder(input: try AudioInput(path: path), workers: workers)
        defer { decoder.close() }
        var samples: [Float] = [], chunk = [Float](repeating: 0, count: block * decoder.format.channelCount)
        do {
            while true {
                let got = try chunk.withUnsafeMutableBufferPointer { try decoder.read(into: $0.baseAddress!, frames: block) }
                samples += chunk.prefix(got * decoder.format.channelCount)
                if got < block { return (samples, nil) }
            }
        } catch let error as AudioFormatError {
            return (samples, error)
        }
    }

    @Test(arguments: [(frames: 400_001, channels: 2, rate: 44_100), (frames: 300_007, channels: 1, rate: 22_050),
                      (frames: 262_145, channels: 2, rate: 48_000)])
    func segmentsGiveTheOneDecodersFrames(frames: Int, channels: Int, rate: Int) throws {
        let folder = try TemporaryFolder()
        let ogg = try Self.encode(frames: frames, channels: channels, rate: rate, in: folder)
        let alone = try Self.decode(ogg, workers: 1)
        #expect(alone.failure == nil)
        #expect(alone.samples.count == frames * channels)
        #expect(frames > 2 * ParallelSegments.defaultSegmentFrames, "the file spans several segments")
        for workers in [2, 3, 4] {
            let parallel = try Self.decode(ogg, workers: workers, block: 4_099)
            #expect(parallel.failure == nil)
            #expect(parallel.samples == alone.samples, "\(workers) workers")
        }
    }

    /// A page in the middle whose checksum fails is a gap: the segment over it does not decode
    /// whole, and the one decoder goes on from there, so the frames and the error at the end
    /// are those of reading alone.
    @Test func aDamagedPageHandsTheReadingBackToTheOneDecoder() throws {
        let folder = try TemporaryFolder()
        let ogg = try Self.encode(frames: 500_000, channels: 2, rate: 44_100, in: folder)
        let damaged = try OggVorbisFiles.damagingAPageInTheMiddle(of: ogg, in: folder)
        let alone = try Self.decode(damaged, workers: 1)
        let parallel = try Self.decode(damaged, workers: 2)
        #expect(alone.samples.count < 500_000 * 2)
        #expect(parallel.samples == alone.samples)
        #expect(parallel.failure == alone.failure)
        #expect(alone.failure?.shortfall?.stated == 500_000)
    }

    /// A chained file (two streams one after the other) is read by the one decoder, as before.
    @Test func aChainedFileIsReadAlone() throws {
        let folder = try TemporaryFolder()
        let first = try [UInt8](Data(contentsOf: URL(fileURLWithPath: try Self.encode(frames: 300_000, channels: 2, rate: 44_100, serial: 1, in: folder))))
        let second = try [UInt8](Data(contentsOf: URL(fileURLWithPath: try Self.encode(frames: 200_000, channels: 2, rate: 44_100, serial: 2, in: folder))))
        let chained = folder.file("chained.ogg")
        try Data(first + second).write(to: URL(fileURLWithPath: chained))
        let decoder = try VorbisFileDecoder(input: try AudioInput(path: chained), workers: 2)
        #expect(decoder.length == .exact(500_000))
        let parallel = try Self.decode(chained, workers: 2), alone = try Self.decode(chained, workers: 1)
        #expect(parallel.samples.count == 1_000_000)
        #expect(parallel.samples == alone.samples)
    }
}
