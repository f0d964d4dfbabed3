import AudioFormats
@testable import FFmpegFormats
import Foundation
import Testing
import TestSupport
@testable import VorbisFormats

/// Long Ogg Vorbis files decoded in segments by FFmpeg's Vorbis decoder, lent to libvorbisfile's
/// tenant (`FFmpegSegmentDecoders`): the frames are FFmpeg's own decode from the start, bit for
/// bit, whatever the number of workers, within 1 LSB at 16 bits of `oggdec`'s, and as many as
/// libvorbisfile states; files it does not take stay with libvorbis.
@Suite struct FFmpegVorbisSegmentsTests {
    /// Every frame `path` decodes to through libvorbisfile's tenant with `workers` threads and
    /// `lent` segment decoders, read in blocks of `block` frames, and the error that ended it.
    static func decode(_ path: String, workers: Int, lent: (any SegmentDecoderSource)? = FFmpegSegmentDecoders(),
                       block: Int = 10_000) throws -> (samples: [Float], failure: AudioFormatError?) {
        let decoder = try VorbisFileDecoder(input: try AudioInput(path: path), workers: workers, segmentDecoders: lent)
        defer { decoder.close() }
        return Self.readAll(decoder, block: block)
    }

    /// Every frame `decoder` gives in blocks of `block`, and the error that ended the reading.
    static func readAll(_ decoder: any AudioDecoder, block: Int = 10_000) -> (samples: [Float], failure: AudioFormatError?) {
        var samples: [Float] = [], chunk = [Float](repeating: 0, count: block * decoder.format.channelCount)
        do {
            while true {
                let got = try chunk.withUnsafeMutableBufferPointer { try decoder.read(into: $0.baseAddress!, frames: block) }
                samples += chunk.prefix(got * decoder.format.channelCount)
                if got < block { return (samples, nil) }
            }
        } catch let error as AudioFormatError {
            return (samples, error)
        } catch {
            return (samples, nil)
        }
    }

    /// `oggdec`'s 16-bit samples of `path` (its WAV's data chunk).
    static func oggdec(_ path: String, in folder: TemporaryFolder) throws -> [Int16] {
        let output = folder.file("oggdec.wav")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/oggdec")
        process.arguments = ["-Q", "-o", output, path]
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: output)))
        var offset = 12
        while offset + 8 <= bytes.count {
            let size = Int(bytes[offset + 4]) | Int(bytes[offset + 5]) << 8 | Int(bytes[offset + 6]) << 16 | Int(bytes[offset + 7]) << 24
            if bytes[offset..<(offset + 4)].elementsEqual("data".utf8) {
                let data = bytes[(offset + 8)..<min(bytes.count, offset + 8 + size)]
                return stride(from: data.startIndex, to: data.endIndex - 1, by: 2).map { Int16(bitPattern: UInt16(data[$0]) | UInt16(data[$0 + 1]) << 8) }
            }
            offset += 8 + size + size % 2
        }
        return []
    }

    /// A sample as libvorbisfile's `ov_read` (and so `oggdec`) makes it 16 bits: rounded to the
    /// nearest step of 1/32,768, clipped.
    static func sixteenBits(_ sample: Float) -> Int {
        max(-32_768, min(32_767, Int((sample * 32_768).rounded(.toNearestOrEven))))
    }

    @Test(arguments: [(frames: 400_001, channels: 2, rate: 44_100), (frames: 300_007, channels: 1, rate: 22_050),
                      (frames: 262_145, channels: 2, rate: 48_000)])
    func segmentsGiveFFmpegsFramesWithinOneStepOfOggdec(frames: Int, channels: Int, rate: Int) throws {
        let folder = try TemporaryFolder()
        let ogg = try #require(try OggVorbisFiles.encode(frames: frames, channels: channels, rate: rate, in: folder))
        let ffmpeg = Self.readAll(try FFmpegFormats().makeDecoder(for: try AudioInput(path: ogg), raw: nil))
        #expect(ffmpeg.failure == nil)
        #expect(ffmpeg.samples.count == frames * channels)
        let alone = try Self.decode(ogg, workers: 1)
        #expect(frames > 2 * ParallelSegments.defaultSegmentFrames, "the file spans several segments")
        for workers in [2, 3, 4] {
            let parallel = try Self.decode(ogg, workers: workers, block: 4_099)
            #expect(parallel.failure == nil)
            #expect(parallel.samples == ffmpeg.samples, "\(workers) workers")
            #expect(parallel.samples != alone.samples, "libvorbis's samples differ in the last bits: these are FFmpeg's")
        }
        let reference = try Self.oggdec(ogg, in: folder)
        #expect(reference.count == frames * channels)
        let parallel = try Self.decode(ogg, workers: 2)
        let steps = zip(parallel.samples, reference).map { abs(Self.sixteenBits($0) - Int($1)) }
        #expect(steps.max() == 1, "some samples differ by one step, none by more")
    }

    /// A page in the middle whose checksum fails is a gap: FFmpeg's segment over it does not
    /// decode whole, and libvorbisfile goes on alone from there, so the frames end where they
    /// end reading alone, with the same error.
    @Test func aDamagedPageHandsTheReadingBackToLibvorbis() throws {
        let folder = try TemporaryFolder()
        let ogg = try #require(try OggVorbisFiles.encode(frames: 500_000, channels: 2, rate: 44_100, in: folder))
        let damaged = try OggVorbisFiles.damagingAPageInTheMiddle(of: ogg, in: folder)
        let alone = try Self.decode(damaged, workers: 1)
        let parallel = try Self.decode(damaged, workers: 2)
        #expect(alone.samples.count < 500_000 * 2)
        #expect(parallel.samples.count == alone.samples.count)
        #expect(parallel.failure == alone.failure)
        #expect(alone.failure?.shortfall?.stated == 500_000)
        let steps = zip(parallel.samples, alone.samples).map { abs(Self.sixteenBits($0) - Self.sixteenBits($1)) }
        #expect(steps.max() == 1)
    }

    /// FFmpeg takes mono and stereo files of the length libvorbisfile states, and nothing when its
    /// libraries are missing; a surround file (whose channels FFmpeg orders its own way) is
    /// decoded by libvorbis in segments, to libvorbis's own frames.
    @Test func ffmpegTakesOnlyFilesItDecodesInTheSameOrderAndLength() throws {
        let folder = try TemporaryFolder()
        let stereo = try #require(try OggVorbisFiles.encode(frames: 300_000, channels: 2, rate: 44_100, serial: 1, in: folder))
        let input = try AudioInput(path: stereo)
        #expect(FFmpegSegmentDecoders().makeSegmentDecoder(for: input, encoding: .vorbis, sampleRate: 44_100, channelCount: 2, totalFrames: 300_000) != nil)
        #expect(FFmpegSegmentDecoders().makeSegmentDecoder(for: input, encoding: .vorbis, sampleRate: 44_100, channelCount: 2, totalFrames: 299_999) == nil)
        #expect(FFmpegSegmentDecoders().makeSegmentDecoder(for: input, encoding: .opus, sampleRate: 44_100, channelCount: 2, totalFrames: 300_000) == nil)
        var missing = LibAVLibraries.headers
        missing.avcodec = "libavcodec.so.999"
        #expect(FFmpegSegmentDecoders(libraries: missing).makeSegmentDecoder(for: input, encoding: .vorbis, sampleRate: 44_100, channelCount: 2,
                                                                             totalFrames: 300_000) == nil)
        let surround = try #require(try OggVorbisFiles.encode(frames: 300_000, channels: 6, rate: 44_100, serial: 2, in: folder))
        #expect(FFmpegSegmentDecoders().makeSegmentDecoder(for: try AudioInput(path: surround), encoding: .vorbis, sampleRate: 44_100,
                                                           channelCount: 6, totalFrames: 300_000) == nil)
        let alone = try Self.decode(surround, workers: 1, lent: nil)
        #expect(alone.samples.count == 300_000 * 6)
        #expect(try Self.decode(surround, workers: 2).samples == alone.samples)
    }
}
