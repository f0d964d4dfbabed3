import AudioDSP
@testable import AudioFiles
import AudioFormats
import AudioGraph
import Foundation
import MallocCounter
import SoundFile
import TestSupport
import Testing

@Suite struct ThreadedFileTests {
    func writeNoise(_ path: String, frames: Int, channels: Int) throws {
        let shorts = Signal.noise(frames: frames * channels, amplitude: 0.8, seed: 21).map { Int16(($0 * 32768).rounded()) }
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        let writer = try SoundFileWriter(fileDescriptor: descriptor, path: path, type: .wav, encoding: .pcm16,
                                         sampleRate: 44100, channelCount: channels)
        try shorts.withUnsafeBufferPointer { try writer.write($0.baseAddress!, frames: frames) }
        try writer.finish()
    }

    /// Renders a file through either reader into either writer, in slices of `sliceSize`.
    func copy(_ input: String, to output: String, threaded: Bool, sliceSize: Int) throws -> ClipCount {
        let file = try FormatRegistry.standard.openDecoder(path: input)
        let descriptor = open(output, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        let outFile = try FormatRegistry.standard.makeEncoder(fileDescriptor: descriptor, path: output, container: .flac, encoding: .pcm16,
                                          sampleRate: 44100, channelCount: file.format.channelCount)
        let storage = AudioBufferStorage(channelCount: file.format.channelCount, capacity: sliceSize)
        let source: FileSource
        let write: (AudioBufferList, Int) throws -> Void
        let finish: () throws -> ClipCount
        if threaded {
            source = ThreadedFileReader(file: file, slotFrames: 1000, slotCount: 3)
            let writer = ThreadedFileWriter(file: outFile, slotFrames: 777, slotCount: 2)
            (write, finish) = ({ try writer.write($0, frames: $1) }, { try writer.finish(); return writer.clipCount })
        } else {
            source = AudioFileReader(file: file, scratchFrames: sliceSize)
            let writer = AudioFileWriter(file: outFile, maximumFrames: sliceSize)
            (write, finish) = ({ try writer.write($0, frames: $1) }, { try writer.finish(); return writer.clipCount })
        }
        var time: Int64 = 0
        while true {
            var flags: RenderActionFlags = []
            let frames = try source.render(&flags, RenderRequest(timeStamp: .init(sampleTime: time), bus: 0, frameCount: sliceSize), storage.list)
            try write(storage.list, frames)
            time += Int64(frames)
            if frames < sliceSize { break }
        }
        return try finish()
    }

    @Test(arguments: [1, 2, 3])
    func threadedCopiesAreIdenticalToDirectOnes(channels: Int) throws {
        let folder = try TemporaryFolder()
        try writeNoise(folder.file("in.wav"), frames: 10_007, channels: channels)
        for slice in [1, 64, 999, 4096] {
            let direct = try copy(folder.file("in.wav"), to: folder.file("direct.flac"), threaded: false, sliceSize: slice)
            let threaded = try copy(folder.file("in.wav"), to: folder.file("threaded.flac"), threaded: true, sliceSize: slice)
            #expect(FileManager.default.contents(atPath: folder.file("direct.flac")) == FileManager.default.contents(atPath: folder.file("threaded.flac")))
            #expect(direct == threaded)
        }
    }

    @Test func abandoningAReaderStopsItsThread() throws {
        let folder = try TemporaryFolder()
        try writeNoise(folder.file("in.wav"), frames: 100_000, channels: 2)
        for _ in 0..<20 {
            let reader = ThreadedFileReader(file: try FormatRegistry.standard.openDecoder(path: folder.file("in.wav")), slotFrames: 512, slotCount: 2)
            let storage = AudioBufferStorage(channelCount: 2, capacity: 100)
            var flags: RenderActionFlags = []
            #expect(try reader.render(&flags, RenderRequest(timeStamp: .init(sampleTime: 0), bus: 0, frameCount: 100), storage.list) == 100)
            reader.stop()
        }
    }

    @Test func writeFailuresReachTheCaller() throws {
        let descriptor = open("/dev/full", O_WRONLY)
        let writer = ThreadedFileWriter(file: try FormatRegistry.standard.makeEncoder(fileDescriptor: descriptor, path: "/dev/full", container: .raw,
                                                                  encoding: .pcm16, sampleRate: 8000, channelCount: 1),
                                        slotFrames: 256, slotCount: 2)
        let storage = AudioBufferStorage(channelCount: 1, capacity: 256)
        var failure: (any Error)?
        do {
            for _ in 0..<100 { try writer.write(storage.list, frames: 256) }
            try writer.finish()
        } catch {
            failure = error
        }
        #expect((failure as? SoundFileError)?.kind == .writeFailed)
        #expect((failure as? SoundFileError)?.reason.contains("No space left on device") == true)
    }

    @Test func theRenderThreadAllocatesNothing() throws {
        let folder = try TemporaryFolder()
        try writeNoise(folder.file("in.wav"), frames: 300_000, channels: 2)
        // A first full render instantiates the runtime's type metadata for every path.
        _ = try copy(folder.file("in.wav"), to: folder.file("warm-up.flac"), threaded: true, sliceSize: 4096)
        let reader = ThreadedFileReader(file: try FormatRegistry.standard.openDecoder(path: folder.file("in.wav")))
        let descriptor = open(folder.file("out.wav"), O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        let writer = ThreadedFileWriter(file: try FormatRegistry.standard.makeEncoder(fileDescriptor: descriptor, path: folder.file("out.wav"),
                                                                  container: .wav, encoding: .pcm16, sampleRate: 44100, channelCount: 2))
        let storage = AudioBufferStorage(channelCount: 2, capacity: 4096)
        var flags: RenderActionFlags = []
        var time: Int64 = 0
        var frames = try reader.render(&flags, RenderRequest(timeStamp: .init(sampleTime: 0), bus: 0, frameCount: 4096), storage.list)
        try writer.write(storage.list, frames: frames)
        let before = malloc_counter_thread_allocations()
        while frames == 4096 {
            time += 4096
            frames = try reader.render(&flags, RenderRequest(timeStamp: .init(sampleTime: time), bus: 0, frameCount: 4096), storage.list)
            try writer.write(storage.list, frames: frames)
        }
        let allocations = malloc_counter_thread_allocations() - before
        try writer.finish()
        #expect(writer.framesWritten == 300_000)
        #expect(allocations == 0)
    }

    /// The graph rendering straight into the writer's blocks makes the same file, allocating nothing.
    @Test func renderingIntoWriterBlocks() throws {
        let folder = try TemporaryFolder()
        try writeNoise(folder.file("in.wav"), frames: 200_003, channels: 2)
        func render(to name: String) throws -> Int {
            let reader = ThreadedFileReader(file: try FormatRegistry.standard.openDecoder(path: folder.file("in.wav")))
            let graph = Graph()
            let output = GenericOutput()
            try graph.addNode(output)
            try reader.attach(to: output, in: graph)
            try graph.initialize()
            let descriptor = open(folder.file(name), O_WRONLY | O_CREAT | O_TRUNC, 0o644)
            let writer = ThreadedFileWriter(file: try FormatRegistry.standard.makeEncoder(fileDescriptor: descriptor, path: folder.file(name), container: .flac,
                                                                      encoding: .pcm16, sampleRate: 44100, channelCount: 2),
                                            slotFrames: 10_000, slotCount: 3)
            var allocations = -1
            var before = 0
            var slices = 0
            while true {
                if slices == 1 { before = malloc_counter_thread_allocations() }
                let frames = try writer.render(upTo: 4096) { block in
                    guard case .rendered(let frames) = try output.renderSlice(frameCount: block.capacity, into: block) else { return 0 }
                    return frames
                }
                slices += 1
                if frames == 0 { break }
            }
            allocations = malloc_counter_thread_allocations() - before
            try writer.finish()
            #expect(writer.framesWritten == 200_003)
            return allocations
        }
        _ = try render(to: "warm-up.flac")
        #expect(try render(to: "blocks.flac") == 0)
        _ = try copy(folder.file("in.wav"), to: folder.file("copied.flac"), threaded: false, sliceSize: 4096)
        #expect(FileManager.default.contents(atPath: folder.file("blocks.flac")) == FileManager.default.contents(atPath: folder.file("copied.flac")))
    }

    /// A WAV written with its start offset given (its first block cut so that the later ones
    /// begin on page boundaries) is byte for byte the one written without.
    @Test(arguments: [1, 2, 3])
    func liningTheBlocksUpWithPagesLeavesTheFileAsItWas(channels: Int) throws {
        let folder = try TemporaryFolder()
        try writeNoise(folder.file("in.wav"), frames: 100_003, channels: channels)
        func write(_ name: String, aligned: Bool) throws -> Int64 {
            let reader = AudioFileReader(file: try FormatRegistry.standard.openDecoder(path: folder.file("in.wav")), scratchFrames: 4096)
            let descriptor = open(folder.file(name), O_WRONLY | O_CREAT | O_TRUNC, 0o644)
            let encoder = try FormatRegistry.standard.makeEncoder(fileDescriptor: descriptor, path: folder.file(name), container: .wav,
                                                                  encoding: .pcm16, sampleRate: 44100, channelCount: channels)
            let start = Int64(lseek(descriptor, 0, SEEK_CUR))
            let writer = ThreadedFileWriter(file: encoder, slotFrames: 10_000, slotCount: 2, startOffset: aligned ? start : nil)
            while try writer.render(upTo: 3000, { block in
                var flags: RenderActionFlags = []
                let request = RenderRequest(timeStamp: .init(sampleTime: reader.framesRead), bus: 0, frameCount: block.capacity)
                return try reader.render(&flags, request, block)
            }) > 0 {}
            try writer.finish()
            return start
        }
        let start = try write("aligned.wav", aligned: true)
        _ = try write("plain.wav", aligned: false)
        #expect(FileManager.default.contents(atPath: folder.file("aligned.wav")) == FileManager.default.contents(atPath: folder.file("plain.wav")))
        let first = ThreadedFileWriter.firstBlockFrames(startOffset: start, encoding: .pcm16, channelCount: channels, capacity: 10_000)
        #expect(first < 10_000 && (start + Int64(first * 2 * channels)) % Int64(sysconf(Int32(_SC_PAGESIZE))) == 0)
    }

    @Test func theFirstBlockIsCutOnlyForPCMAndOnlyWhenAPageBoundaryCanBeReached() {
        let page = Int64(sysconf(Int32(_SC_PAGESIZE)))
        let stereo = ThreadedFileWriter.firstBlockFrames(startOffset: 44, encoding: .pcm16, channelCount: 2, capacity: 65536)
        #expect((44 + Int64(stereo) * 4) % page == 0 && stereo <= 65536 && stereo > 65536 - Int(page) / 4)
        let floats = ThreadedFileWriter.firstBlockFrames(startOffset: 80, encoding: .float, channelCount: 6, capacity: 65536)
        #expect((80 + Int64(floats) * 24) % page == 0 && floats <= 65536)
        #expect(ThreadedFileWriter.firstBlockFrames(startOffset: 45, encoding: .pcm16, channelCount: 2, capacity: 65536) == 65536,
                "no number of 4-byte frames reaches a page boundary from an odd byte")
        #expect(ThreadedFileWriter.firstBlockFrames(startOffset: 44, encoding: .mp3, channelCount: 2, capacity: 65536) == 65536)
        #expect(ThreadedFileWriter.firstBlockFrames(startOffset: nil, encoding: .pcm16, channelCount: 2, capacity: 65536) == 65536)
    }
}
