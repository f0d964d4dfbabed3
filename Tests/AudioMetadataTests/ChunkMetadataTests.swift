import AudioMetadata
import Foundation
import TestSupport
import Testing

/// `bext`, iXML and markers read from files the test writes chunk by chunk, appended to finished
/// files, and moved by a `Retiming`.
@Suite struct ChunkMetadataTests {
    typealias Files = BroadcastWaveFiles
    static let bext = Files.bext(description: "Take", originator: "Desk", reference: "R1", date: "2026-01-02", time: "03:04:05",
                                 timeReference: 1_000, umid: [], loudness: [Int16.max, 500, Int16.max, -1500, -1600], codingHistory: "")

    @Test func theFieldsOfBextAreReadAndAnUnknownLoudnessIsNil() throws {
        let extensionChunk = try #require(BroadcastExtension(bytes: Self.bext))
        #expect(extensionChunk.description == "Take")
        #expect(extensionChunk.originationDate == "2026-01-02")
        #expect(extensionChunk.originationTime == "03:04:05")
        #expect(extensionChunk.timeReference == 1_000)
        #expect(extensionChunk.umid == "")
        #expect(extensionChunk.loudness == BroadcastExtension.Loudness(integrated: nil, range: 5, maximumTruePeak: nil,
                                                                        maximumMomentary: -15, maximumShortTerm: -16))
        #expect(BroadcastExtension(bytes: Array(Self.bext.prefix(601))) == nil)
    }

    @Test func chunksAppendedToAWAVReadBackTheSame() throws {
        let folder = try TemporaryFolder()
        let path = folder.file("a.wav")
        try WaveFile.write(Files.wave(samples: [1, 2, 3], sampleRate: 8_000), to: path)
        let written = ChunkMetadata(broadcastExtension: BroadcastExtension(bytes: Self.bext), ixml: Array("<x/>".utf8),
                                    markers: [Marker(frame: 1, label: "odd"), Marker(frame: 2, length: 1, label: "region", note: "n")])
        let descriptor = open(path, O_RDWR)
        try #require(descriptor >= 0)
        let loss = try written.write(toDescriptor: descriptor, path: path, formatName: "WAV")
        close(descriptor)
        #expect(loss == nil)
        let read = ChunkMetadata.read(path: path)
        #expect(read.damage == nil)
        #expect(read.metadata == written)
        let chunks = try Files.chunks(of: path)
        #expect(chunks.map(\.id) == ["fmt ", "data", "bext", "iXML", "cue ", "LIST"])
        let size = try Data(contentsOf: URL(fileURLWithPath: path)).count
        #expect([UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))[4..<8] == ArraySlice(Files.little(UInt32(size - 8))), "RIFF's size counts the new chunks")
    }

    @Test func aChunkRunningPastTheEndIsNamedAndAWave64SizeOfAllOnesIsRefused() throws {
        let folder = try TemporaryFolder()
        let path = folder.file("cut.wav")
        var bytes = Files.wave(samples: [1, 2], sampleRate: 8_000, after: [Files.Chunk("bext", Self.bext)])
        bytes.removeLast(100)
        try WaveFile.write(bytes, to: path)
        let read = ChunkMetadata.read(path: path)
        #expect(read.metadata.broadcastExtension == nil)
        #expect(read.damage?.description == "\(path): markers and Broadcast WAV chunks not all read: the bext chunk runs past the file's end")
        let wave64 = folder.file("huge.w64")
        let riff: [UInt8] = [0x72, 0x69, 0x66, 0x66, 0x2E, 0x91, 0xCF, 0x11, 0xA5, 0xD6, 0x28, 0xDB, 0x04, 0xC1, 0x00, 0x00]
        let suffix: [UInt8] = [0xF3, 0xAC, 0xD3, 0x11, 0x8C, 0xD1, 0x00, 0xC0, 0x4F, 0x8E, 0xDB, 0x8A]
        for size in [UInt64.max, UInt64(1) << 63] {
            try WaveFile.write(riff + Files.little(UInt64(64)) + Array("wave".utf8) + suffix + Array("bext".utf8) + suffix + Files.little(size), to: wave64)
            let huge = ChunkMetadata.read(path: wave64)
            #expect(huge.metadata.isEmpty)
            #expect(huge.damage?.reason == "markers and Broadcast WAV chunks not all read: the bext chunk runs past the file's end")
        }
    }

    @Test func aRetimingMovesTheTimeReferenceByTheCutAndScalesIt() {
        let retiming = Retiming(inputRate: 44_100, outputRate: 48_000, cutFrames: 44_100)
        #expect(retiming.timeReference(158_760_000) == 172_848_000)
        let stretched = Retiming(inputRate: 44_100, outputRate: 44_100, cutFrames: 0, stretch: 0.8)
        #expect(stretched.timeReference(1_000) == 1_000, "a stretch leaves the first frame's time")
    }

    @Test func aRetimingDropsMarkersOutsideTheOutputAndClipsRegions() {
        let retiming = Retiming(inputRate: 1_000, outputRate: 2_000, cutFrames: 1_000, stretch: 0.5)
        let markers = [Marker(frame: 500, label: "before"), Marker(frame: 500, length: 1_000, label: "across the start"),
                       Marker(frame: 2_000, label: "inside"), Marker(frame: 4_000, length: 2_000, label: "across the end"),
                       Marker(frame: 9_000, label: "after")]
        let moved = retiming.markers(markers, outputFrames: 4_000)
        #expect(moved == [Marker(frame: 0, length: 500, label: "across the start"), Marker(frame: 1_000, label: "inside"),
                          Marker(frame: 3_000, length: 1_000, label: "across the end")])
    }
}
