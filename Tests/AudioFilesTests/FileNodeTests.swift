import AudioDSP
import AudioFiles
import AudioFormats
import AudioGraph
import Foundation
import MallocCounter
import SoundFile
import TestSupport
import Testing

@Suite struct FileNodeTests {
    /// Writes `channels` channels of `frames` frames of noise to a 16-bit WAV.
    func makeFile(_ path: String, frames: Int, channels: Int) throws -> [Float] {
        let shorts = Signal.noise(frames: frames * channels, amplitude: 0.9).map { Int16(($0 * 32768).rounded()) }
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        let writer = try SoundFileWriter(fileDescriptor: descriptor, path: path, type: .wav, encoding: .pcm16,
                                         sampleRate: 44100, channelCount: channels)
        try shorts.withUnsafeBufferPointer { try writer.write($0.baseAddress!, frames: frames) }
        try writer.finish()
        return shorts.map { Float($0) / 32768 }
    }

    @Test(arguments: [1, 2, 3])
    func readerFillsSlicesAndMarksTheEnd(channels: Int) throws {
        let folder = try TemporaryFolder()
        let values = try makeFile(folder.file("in.wav"), frames: 1000, channels: channels)
        let reader = AudioFileReader(file: try FormatRegistry.standard.openDecoder(path: folder.file("in.wav")), scratchFrames: 300)
        #expect(reader.format == .canonical(sampleRate: 44100, channelCount: channels))
        let storage = AudioBufferStorage(channelCount: channels, capacity: 700)
        var flags: RenderActionFlags = []
        let first = try reader.render(&flags, RenderRequest(timeStamp: .init(sampleTime: 0), bus: 0, frameCount: 700), storage.list)
        #expect(first == 700)
        #expect(flags.isEmpty)
        #expect(storage.list[channels - 1][699] == values[699 * channels + channels - 1])
        let second = try reader.render(&flags, RenderRequest(timeStamp: .init(sampleTime: 700), bus: 0, frameCount: 700), storage.list)
        #expect(second == 300)
        #expect(flags == .endOfStream)
        #expect(storage.list[0][299] == values[299 * channels + 700 * channels])
        #expect(storage.list[0][300] == 0 && storage.list[0][699] == 0, "the rest of the slice is zeroed")
        flags = []
        let third = try reader.render(&flags, RenderRequest(timeStamp: .init(sampleTime: 1000), bus: 0, frameCount: 10), storage.list)
        #expect(third == 0)
        #expect(flags == [.endOfStream, .outputIsSilence])
        #expect(reader.framesRead == 1000)
    }

    @Test func writerQuantizesAndCounts() throws {
        let folder = try TemporaryFolder()
        let path = folder.file("out.wav")
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        let writer = AudioFileWriter(file: try FormatRegistry.standard.makeEncoder(fileDescriptor: descriptor, path: path, container: .wav,
                                                               encoding: .pcm24, sampleRate: 48000, channelCount: 2),
                                     maximumFrames: 4)
        let storage = AudioBufferStorage(channelCount: 2, capacity: 4)
        storage.list[0].update(from: [0.25, 2, -0.5, .nan], count: 4)
        storage.list[1].update(from: [-0.25, -3, 0.5, 0.125], count: 4)
        try writer.write(storage.list, frames: 4)
        try writer.write(storage.list, frames: 2)
        try writer.finish()
        #expect(writer.framesWritten == 6)
        #expect(writer.clipCount == ClipCount(overs: 4, nonFinite: 1, peak: 3))
        let reader = try SoundFileReader(path: path)
        #expect(reader.encoding == .pcm24)
        var back = [Float](repeating: 0, count: 12)
        #expect(try back.withUnsafeMutableBufferPointer { try reader.read(into: $0.baseAddress!, frames: 6) } == 6)
        let top = Float(8_388_607) / 8_388_608
        #expect(back == [0.25, -0.25, top, -1, -0.5, 0.5, 0, 0.125, 0.25, -0.25, top, -1])
    }

    /// The whole offline engine, file to file, allocates nothing once it runs.
    @Test func fileToFileRenderAllocatesNothing() throws {
        let folder = try TemporaryFolder()
        _ = try makeFile(folder.file("in.wav"), frames: 200_000, channels: 2)
        // A first full render instantiates the runtime's type metadata for every path.
        _ = try renderCountingAllocations(folder.file("in.wav"), to: folder.file("warm-up.wav"))
        let (allocations, writer) = try renderCountingAllocations(folder.file("in.wav"), to: folder.file("out.wav"))
        #expect(writer.framesWritten == 200_000)
        #expect(allocations == 0)
    }

    /// Renders `input` to `output` through reader → generic output → writer, counting the
    /// allocations of everything after the first slice.
    func renderCountingAllocations(_ input: String, to output: String) throws -> (Int, AudioFileWriter) {
        let reader = AudioFileReader(file: try FormatRegistry.standard.openDecoder(path: input))
        let graph = Graph()
        let generic = GenericOutput()
        try graph.addNode(generic)
        try reader.attach(to: generic, in: graph)
        try graph.initialize()
        let descriptor = open(output, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        let writer = AudioFileWriter(file: try FormatRegistry.standard.makeEncoder(fileDescriptor: descriptor, path: output,
                                                               container: .wav, encoding: .pcm16, sampleRate: 44100, channelCount: 2))
        guard case .rendered(let first) = try graph.renderSlice(frameCount: 4096) else { return (-1, writer) }
        try writer.write(generic.buffers, frames: first)
        let before = malloc_counter_thread_allocations()
        while case .rendered(let frames) = try graph.renderSlice(frameCount: 4096) {
            try writer.write(generic.buffers, frames: frames)
        }
        let allocations = malloc_counter_thread_allocations() - before
        try writer.finish()
        return (allocations, writer)
    }
}
