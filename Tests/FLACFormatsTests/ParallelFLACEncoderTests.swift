import AudioFormats
@testable import FLACFormats
import Foundation
import MallocCounter
import SoundFile
import Synchronization
import TestSupport
import Testing

/// The FLAC encoder that encodes chunks of blocks on worker threads writes one valid stream:
/// `flac -t` accepts it, `flac -d` gives the input back, STREAMINFO states the whole, the frames
/// are numbered in order, and the bytes are the same for any number of workers — libsndfile's own.
@Suite struct ParallelFLACEncoderTests {
    /// Interleaved right-justified samples of `bits` bits: a sine per channel with noise, so
    /// libFLAC has something to predict and something it cannot.
    static func samples(frames: Int, channels: Int, bits: Int) -> [Int32] {
        let noise = Signal.noise(frames: frames * channels, amplitude: 0.05, seed: 11)
        let peak = Double(1 << (bits - 1) - 1)
        return (0..<frames * channels).map { index in
            let (frame, channel) = index.quotientAndRemainder(dividingBy: channels)
            let tone = 0.6 * sin(2 * Double.pi * Double(220 * (channel + 1)) * Double(frame) / 44_100)
            return Int32((tone + Double(noise[index])) * peak)
        }
    }

    /// `samples` encoded by `kind` to `path` as `bits`-bit FLAC, written in slices of `slice` frames
    /// (16-bit as shorts, others left-justified in 32 bits, as aurender's writer gives them).
    static func encode(_ samples: [Int32], channels: Int, bits: Int, rate: Int = 44_100, kind: any AudioFormatKind,
                       to path: String, slice: Int = 1_000) throws {
        let descriptor = open(path, O_RDWR | O_CREAT | O_TRUNC, 0o644)
        try #require(descriptor >= 0)
        let encoding: AudioEncoding = bits == 8 ? .pcmS8 : bits == 16 ? .pcm16 : .pcm24
        let encoder = try kind.makeEncoder(fileDescriptor: descriptor, path: path, container: .flac, encoding: encoding,
                                           sampleRate: rate, channelCount: channels, settings: EncoderSettings())
        try write(samples, channels: channels, bits: bits, to: encoder, slice: slice)
        try encoder.finish()
    }

    static func write(_ samples: [Int32], channels: Int, bits: Int, to encoder: any AudioEncoder, slice: Int) throws {
        let frames = samples.count / channels
        for start in stride(from: 0, to: frames, by: slice) {
            let count = min(slice, frames - start)
            let part = samples[(start * channels)..<((start + count) * channels)]
            if bits == 16 {
                try part.map { Int16($0) }.withUnsafeBufferPointer { try encoder.write($0.baseAddress!, frames: count) }
            } else {
                try part.map { $0 << (32 - bits) }.withUnsafeBufferPointer { try encoder.write($0.baseAddress!, frames: count) }
            }
        }
    }

    /// The samples as `flac -d` writes them raw: little-endian, (bits + 7) / 8 bytes each.
    static func raw(_ samples: [Int32], bits: Int) -> [UInt8] {
        samples.flatMap { sample in (0..<(bits + 7) / 8).map { UInt8(truncatingIfNeeded: sample >> (8 * $0)) } }
    }

    /// `flac -d`'s samples of `path`, raw.
    static func decoded(_ path: String) throws -> [UInt8] {
        let output = path + ".raw"
        let result = try run("flac", ["-d", "-s", "-f", "--force-raw-format", "--endian=little", "--sign=signed", "-o", output, path])
        #expect(result.status == 0, "flac -d: \(result.error)")
        return [UInt8](try Data(contentsOf: URL(fileURLWithPath: output)))
    }

    static func bytes(_ path: String) throws -> [UInt8] { [UInt8](try Data(contentsOf: URL(fileURLWithPath: path))) }

    /// Ten seconds of stereo (3.4 chunks: a partial chunk and a partial block at the end).
    static let stereoFrames = 441_000

    @Test func oneWorkerAndSeveralWriteTheSameBytesAsLibsndfile() throws {
        let folder = try TemporaryFolder()
        let input = Self.samples(frames: Self.stereoFrames, channels: 2, bits: 16)
        for (name, kind, slice) in [("one", FLACFormats(workerCount: 1), 1_000), ("two", FLACFormats(workerCount: 2), 4_096),
                                    ("three", FLACFormats(workerCount: 3), 777)] as [(String, any AudioFormatKind, Int)]
            + [("sndfile", LibSndfileFormats(), 1_000)] {
            try Self.encode(input, channels: 2, bits: 16, kind: kind, to: folder.file(name + ".flac"), slice: slice)
        }
        let one = try Self.bytes(folder.file("one.flac"))
        #expect(one.count > 100_000)
        #expect(try Self.bytes(folder.file("two.flac")) == one)
        #expect(try Self.bytes(folder.file("three.flac")) == one)
        #expect(try Self.bytes(folder.file("sndfile.flac")) == one)
    }

    @Test func flacTestsTheStreamAndDecodesTheInput() throws {
        let folder = try TemporaryFolder()
        let input = Self.samples(frames: Self.stereoFrames, channels: 2, bits: 16)
        let path = folder.file("x.flac")
        try Self.encode(input, channels: 2, bits: 16, kind: FLACFormats(workerCount: 2), to: path)
        let test = try run("flac", ["-t", "-s", "-w", path])
        #expect(test.status == 0, "flac -t: \(test.error)")
        #expect(try Self.decoded(path) == Self.raw(input, bits: 16))
    }

    @Test func streamInfoStatesTheWholeStreamAndFramesAreNumberedInOrder() throws {
        let folder = try TemporaryFolder()
        let input = Self.samples(frames: Self.stereoFrames, channels: 2, bits: 16)
        let path = folder.file("x.flac")
        try Self.encode(input, channels: 2, bits: 16, kind: FLACFormats(workerCount: 2), to: path)
        let stream = try FLACStreamReading(path: path)
        let frames = stream.frames
        // 107 full blocks of 4,096 and one of 2,528: frames numbered 0 to 107, over chunk boundaries.
        #expect(frames.count == 108)
        #expect(frames.map(\.number) == Array(0..<108))
        #expect(stream.metadataTypes == [0, 4])

        try Data(Self.raw(input, bits: 16)).write(to: URL(fileURLWithPath: folder.file("x.raw")))
        let md5sum = Process()
        md5sum.executableURL = URL(fileURLWithPath: "/usr/bin/md5sum")
        md5sum.arguments = [folder.file("x.raw")]
        let output = Pipe()
        md5sum.standardOutput = output
        try md5sum.run()
        let digest = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self).prefix(32)
        md5sum.waitUntilExit()

        let info = stream.streamInfo
        #expect(info == FLACStreamReading.StreamInfo(
            minimumBlockSize: 4_096, maximumBlockSize: 4_096, minimumFrameSize: frames.map(\.length).min()!,
            maximumFrameSize: frames.map(\.length).max()!, sampleRate: 44_100, channelCount: 2, bitsPerSample: 16,
            totalFrames: Self.stereoFrames, signature: info.signature))
        #expect(info.signature.map { String(format: "%02x", $0) }.joined() == digest)
    }

    /// The same compression as `flac -5`: the frames take within 0.5 % of its frames' bytes (its
    /// file adds a seek table and 8 KB of padding, which a file this short would feel).
    @Test func framesTakeWhatFlacFiveTakes() throws {
        let folder = try TemporaryFolder()
        let input = Self.samples(frames: Self.stereoFrames, channels: 2, bits: 16)
        try Self.encode(input, channels: 2, bits: 16, kind: FLACFormats(workerCount: 2), to: folder.file("ours.flac"))
        try WaveFile.write(WaveFile.bytes(channels: 2, sampleRate: 44_100, data: Self.raw(input, bits: 16)), to: folder.file("in.wav"))
        let reference = try run("flac", ["-5", "-s", "-f", "-o", folder.file("flac.flac"), folder.file("in.wav")])
        #expect(reference.status == 0, "flac -5: \(reference.error)")
        let ours = try FLACStreamReading(path: folder.file("ours.flac")), theirs = try FLACStreamReading(path: folder.file("flac.flac"))
        let ourFrames = Double(ours.bytes.count - ours.metadataLength), theirFrames = Double(theirs.bytes.count - theirs.metadataLength)
        #expect(abs(ourFrames / theirFrames - 1) < 0.005, "frames: \(ourFrames) bytes against flac -5's \(theirFrames)")
    }

    /// Bit depths, channel counts and rates as libsndfile wrote them: a short input (under one
    /// block), 24-bit at 96 kHz, 8-bit mono, and six channels.
    @Test(arguments: [(frames: 1_000, channels: 2, bits: 16, rate: 44_100), (frames: 300_000, channels: 2, bits: 24, rate: 96_000),
                      (frames: 20_000, channels: 1, bits: 8, rate: 8_000), (frames: 140_000, channels: 6, bits: 24, rate: 48_000)])
    func otherShapesDecodeAsTheyWereAndMatchLibsndfile(frames: Int, channels: Int, bits: Int, rate: Int) throws {
        let folder = try TemporaryFolder()
        let input = Self.samples(frames: frames, channels: channels, bits: bits)
        let path = folder.file("x.flac")
        try Self.encode(input, channels: channels, bits: bits, rate: rate, kind: FLACFormats(workerCount: 2), to: path)
        try Self.encode(input, channels: channels, bits: bits, rate: rate, kind: LibSndfileFormats(), to: folder.file("sndfile.flac"))
        let test = try run("flac", ["-t", "-s", "-w", path])
        #expect(test.status == 0, "flac -t: \(test.error)")
        #expect(try Self.decoded(path) == Self.raw(input, bits: bits))
        let stream = try FLACStreamReading(path: path)
        #expect(stream.streamInfo.totalFrames == frames)
        #expect(stream.streamInfo.bitsPerSample == bits)
        #expect(stream.streamInfo.sampleRate == rate)
        #expect(stream.frames.count == (frames + 4_095) / 4_096)
        #expect(try Self.bytes(path) == Self.bytes(folder.file("sndfile.flac")))
    }

    /// 16-bit samples given to a 24-bit stream are shifted up 8 bits, to an 8-bit stream down 8
    /// bits (truncated, as a right shift of a two's-complement value rounds toward −∞).
    @Test(arguments: [(bits: 24, expected: [0, 256, -256, 8_388_352, -8_388_608, 256 * 1_234]),
                      (bits: 8, expected: [0, 0, -1, 127, -128, 4])])
    func shortsFillStreamsOfOtherDepths(bits: Int, expected: [Int32]) throws {
        let folder = try TemporaryFolder()
        let path = folder.file("shorts.flac")
        let descriptor = open(path, O_RDWR | O_CREAT | O_TRUNC, 0o644)
        let encoder = try FLACFormats(workerCount: 2).makeEncoder(fileDescriptor: descriptor, path: path, container: .flac,
                                                                  encoding: bits == 8 ? .pcmS8 : .pcm24, sampleRate: 44_100,
                                                                  channelCount: 1, settings: EncoderSettings())
        let input: [Int16] = [0, 1, -1, 32_767, -32_768, 1_234]
        try input.withUnsafeBufferPointer { try encoder.write($0.baseAddress!, frames: input.count) }
        try encoder.finish()
        #expect(try Self.decoded(path) == Self.raw(expected, bits: bits))
    }

    /// Float samples, which aurender's writer never gives a FLAC encoder but the protocol takes,
    /// are rounded to the depth's steps and clipped to its range, NaN written as 0.
    @Test func floatSamplesAreRoundedAndClipped() throws {
        let folder = try TemporaryFolder()
        let path = folder.file("float.flac")
        let descriptor = open(path, O_RDWR | O_CREAT | O_TRUNC, 0o644)
        let encoder = try FLACFormats(workerCount: 2).makeEncoder(fileDescriptor: descriptor, path: path, container: .flac, encoding: .pcm16,
                                                                  sampleRate: 44_100, channelCount: 1, settings: EncoderSettings())
        let input: [Float] = [0, 0.5, -0.5, 0.25 + 1 / 32_768, 1, -1, 2, -2, .nan]
        try input.withUnsafeBufferPointer { try encoder.write($0.baseAddress!, frames: input.count) }
        try encoder.finish()
        #expect(try Self.decoded(path) == Self.raw([0, 16_384, -16_384, 8_193, 32_767, -32_768, 32_767, -32_768, 0], bits: 16))
    }

    /// A stream of no frames is still a FLAC file (libFLAC's starting sizes: 2²⁴ − 1 and 0).
    @Test func anEmptyStreamIsAFLACFile() throws {
        let folder = try TemporaryFolder()
        let path = folder.file("empty.flac")
        try Self.encode([], channels: 2, bits: 16, kind: FLACFormats(workerCount: 2), to: path)
        let test = try run("flac", ["-t", "-s", path])
        #expect(test.status == 0, "flac -t: \(test.error)")
        let info = try FLACStreamReading(path: path).streamInfo
        #expect(info.totalFrames == 0)
        #expect((info.minimumFrameSize, info.maximumFrameSize) == (0xFF_FFFF, 0))
    }

    /// Down a pipe STREAMINFO cannot be written again, so it says what libFLAC says before the
    /// frames (no length, no signature), and `flac -t` accepts the stream.
    @Test func aPipeGetsAStreamFlacAccepts() throws {
        let folder = try TemporaryFolder()
        let input = Self.samples(frames: 200_000, channels: 2, bits: 16)
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        let reading = FileHandle(fileDescriptor: ends[0], closeOnDealloc: true)
        let received = Mutex(Data()), done = DispatchSemaphore(value: 0)
        Thread {
            let read = reading.readDataToEndOfFile()
            received.withLock { $0 = read }
            done.signal()
        }.start()
        let encoder = try FLACFormats(workerCount: 2).makeEncoder(fileDescriptor: ends[1], path: "-", container: .flac, encoding: .pcm16,
                                                                  sampleRate: 44_100, channelCount: 2, settings: EncoderSettings())
        try Self.write(input, channels: 2, bits: 16, to: encoder, slice: 4_096)
        try encoder.finish()
        done.wait()
        let bytes = received.withLock { $0 }
        try bytes.write(to: URL(fileURLWithPath: folder.file("piped.flac")))
        let test = try run("flac", ["-t", "-s", folder.file("piped.flac")])
        #expect(test.status == 0, "flac -t: \(test.error)")
        #expect(try Self.decoded(folder.file("piped.flac")) == Self.raw(input, bits: 16))
        #expect(FLACStreamReading([UInt8](bytes)).streamInfo.totalFrames == 0)
    }

    /// Once each chunk of the ring has been used, the thread that writes allocates nothing, however long the input.
    @Test func theWritingThreadAllocatesNothing() throws {
        let folder = try TemporaryFolder()
        let descriptor = open(folder.file("x.flac"), O_RDWR | O_CREAT | O_TRUNC, 0o644)
        let encoder = try FLACFormats(workerCount: 2).makeEncoder(fileDescriptor: descriptor, path: "x.flac", container: .flac,
                                                                  encoding: .pcm16, sampleRate: 44_100, channelCount: 2, settings: EncoderSettings())
        let slice = [Int16](repeating: 0, count: 2 * 4_096).enumerated().map { Int16(truncatingIfNeeded: $0.offset &* 7_919) }
        try slice.withUnsafeBufferPointer { samples in
            for _ in 0..<(5 * 32) { try encoder.write(samples.baseAddress!, frames: 4_096) }
            let before = malloc_counter_thread_allocations()
            for _ in 0..<(10 * 32) { try encoder.write(samples.baseAddress!, frames: 4_096) }
            #expect(malloc_counter_thread_allocations() - before == 0)
        }
        try encoder.finish()
        #expect(try FLACStreamReading(path: folder.file("x.flac")).streamInfo.totalFrames == 15 * 32 * 4_096)
    }

    /// Frame numbers take 1 to 6 bytes; each renumbered frame's checksums are computed again.
    @Test func renumberingCodesEveryLengthWithRightChecksums() throws {
        // A frame as libFLAC writes one numbered 5: sync, 4,096 frames at 44.1 kHz, stereo, 16-bit, then a body.
        var frame: [UInt8] = [0xFF, 0xF8, 0xC9, 0x18, 0x05]
        frame.append(FLACStreamReading.crc8(frame[...]))
        frame += (0..<300).map { UInt8(truncatingIfNeeded: $0 &* 37) }
        let crc = FLACStreamReading.crc16(frame[...])
        frame += [UInt8(crc >> 8), UInt8(crc & 0xFF)]
        for number in [0, 127, 128, 2_047, 2_048, 65_535, 65_536, 0x1F_FFFF, 0x20_0000, 0x3FF_FFFF, 0x400_0000, 0x7FFF_FFFF] {
            var renumbered = [UInt8](repeating: 0, count: frame.count + FrameRenumbering.maximumGrowth)
            let length = frame.withUnsafeBytes { source in
                renumbered.withUnsafeMutableBytes { FrameRenumbering.renumber(source, as: number, into: $0.baseAddress!) }
            }
            let expectedLength = number < 0x80 ? 1 : number < 0x800 ? 2 : number < 0x1_0000 ? 3 : number < 0x20_0000 ? 4 : number < 0x400_0000 ? 5 : 6
            #expect(length == frame.count - 1 + expectedLength)
            let result = Array(renumbered.prefix(length))
            var decoded = expectedLength == 1 ? Int(result[4]) : Int(result[4]) & (0x7F >> expectedLength)
            for index in 1..<expectedLength { decoded = decoded << 6 | Int(result[4 + index] & 0x3F) }
            #expect(decoded == number)
            #expect(FLACStreamReading.crc8(result[0..<(4 + expectedLength)]) == result[4 + expectedLength], "number \(number)")
            #expect(FLACStreamReading.crc16(result[...]) == 0, "number \(number)")
            #expect(Array(result[(5 + expectedLength)..<(length - 2)]) == Array(frame[6..<(frame.count - 2)]))
        }
    }
}
