import AudioMetadata
import Foundation
import TestSupport
import Testing

@Suite struct MetadataFileTests {
    /// Writes `metadata` into the file at `path` as `format`, through a descriptor as a render does.
    func write(_ metadata: FileMetadata, to path: String, as format: TagFormat) throws -> MetadataLoss {
        let descriptor = open(path, O_RDWR)
        try #require(descriptor >= 0)
        defer { close(descriptor) }
        return try MetadataFile.write(metadata, toDescriptor: descriptor, as: format, path: path)
    }

    static let metadata = FileMetadata(
        tags: Tags([("TITLE", "Song"), ("ARTIST", "First"), ("ARTIST", "Second"), ("ALBUM", "Record"), ("DATE", "2021-04-05"),
                    ("TRACKNUMBER", "3"), ("TRACKTOTAL", "12"), ("GENRE", "Jazz"), ("MUSICBRAINZ_TRACKID", "0b1d4b4e-3c1c-4e8e-9d2e-1f1b1f1b1f1b"),
                    ("REPLAYGAIN_TRACK_GAIN", "-6.50 dB"), ("MOOD", "Calm")]),
        pictures: [Picture(kind: .frontCover, mimeType: "image/png", description: "Cover", data: Data(TaggedFiles.png)),
                   Picture(kind: Picture.Kind(4), mimeType: "image/png", description: "Back", data: Data(TaggedFiles.png.reversed()))])

    @Test func aWAVKeepsEveryTagValueAndPictureWrittenThroughADescriptor() throws {
        let folder = try TemporaryFolder()
        let path = folder.file("tone.wav")
        try TaggedFiles.toneWAV(at: path)
        let audio = try Data(contentsOf: URL(fileURLWithPath: path)).prefix(44)
        let loss = try write(Self.metadata, to: path, as: .wav)
        #expect(loss.isEmpty, "\(loss)")
        let read = try MetadataFile.read(path: path)
        #expect(read.tags["ARTIST"] == ["First", "Second"])
        #expect(read.tags["TRACKNUMBER"] == ["3/12"])
        #expect(read.tags["MOOD"] == ["Calm"])
        #expect(read.tags["MUSICBRAINZ_TRACKID"] == ["0b1d4b4e-3c1c-4e8e-9d2e-1f1b1f1b1f1b"])
        #expect(read.pictures == Self.metadata.pictures)
        // The header and samples are untouched: the tags are chunks after them.
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)).prefix(12).suffix(4) == audio.prefix(12).suffix(4))
    }

    @Test func aFileOfNoTagFormatReadsAsEmptyAndADamagedOneIsAnError() throws {
        let folder = try TemporaryFolder()
        let au = folder.file("tone.au")
        try Data([0x2E, 0x73, 0x6E, 0x64] + [UInt8](repeating: 0, count: 40)).write(to: URL(fileURLWithPath: au))
        #expect(try MetadataFile.read(path: au).isEmpty)
        let flac = folder.file("broken.flac")
        try Data(Array("fLaC".utf8) + [0x80, 0xFF, 0xFF, 0xFF, 1, 2, 3]).write(to: URL(fileURLWithPath: flac))
        #expect(throws: MetadataError.self) { try MetadataFile.read(path: flac) }
        #expect(throws: MetadataError(path: folder.file("missing.flac"), kind: .cannotOpen, reason: "tags not read: the file cannot be opened")) {
            try MetadataFile.read(path: folder.file("missing.flac"))
        }
    }

    @Test func metaflacsTagsAndPictureReadAsItWroteThem() throws {
        let folder = try TemporaryFolder()
        guard let flac = try TaggedFiles.flac(tags: [("TITLE", "Song"), ("ARTIST", "First"), ("ARTIST", "Second"), ("TRACKNUMBER", "3")],
                                              picture: "Cover", in: folder) else { return }
        let read = try MetadataFile.read(path: flac)
        // TagLib's property map orders keys alphabetically; a key's values keep the file's order.
        #expect(read.tags.keys == ["ARTIST", "TITLE", "TRACKNUMBER"])
        #expect(read.tags["ARTIST"] == ["First", "Second"])
        #expect(read.pictures == [Picture(kind: .frontCover, mimeType: "image/png", description: "Cover", data: Data(TaggedFiles.png),
                                          dimensions: Picture.Dimensions(width: 1, height: 1, colourDepth: 24))])
    }

    @Test func aPictureTooLargeForAFLACBlockIsNamedWithTheReason() throws {
        let folder = try TemporaryFolder()
        guard let flac = try TaggedFiles.flac(tags: [("TITLE", "Song")], in: folder) else { return }
        let large = Picture(kind: .frontCover, mimeType: "image/png", description: "", data: Data(TaggedFiles.png + [UInt8](repeating: 7, count: 1 << 24)))
        let small = Picture(kind: .frontCover, mimeType: "image/png", description: "", data: Data(TaggedFiles.png))
        let loss = try write(FileMetadata(tags: Tags([("TITLE", "Song")]), pictures: [large]), to: flac, as: .flac)
        #expect(loss.pictures == 1)
        #expect(loss.description == "\(flac): cover art not kept: 1 picture (a FLAC picture block holds at most 16 MiB)")
        // The file is whole: metaflac, which checks every block's length, still reads its tags.
        #expect(try TaggedFiles.metaflacTags(flac).map { $0.map { $0.0 + "=" + $0.1 } } == ["TITLE=Song"])
        #expect(try write(FileMetadata(tags: Tags([("TITLE", "Song")]), pictures: [small]), to: flac, as: .flac).isEmpty)
    }

    @Test func aWAVsINFOChunkHoldsEveryValueOfAKeyJoined() throws {
        let folder = try TemporaryFolder()
        let path = folder.file("tone.wav")
        try TaggedFiles.toneWAV(at: path)
        #expect(try write(Self.metadata, to: path, as: .wav).isEmpty)
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        let field = Array("IART".utf8) + [14, 0, 0, 0] + Array("First; Second".utf8) + [0]
        #expect(bytes.indices.contains { bytes[$0...].starts(with: field) }, "IART holds both artists")
    }

    @Test func aDSFsTagsAreNamedAsNotReadRatherThanDroppedInSilence() throws {
        let folder = try TemporaryFolder()
        let path = folder.file("tagged.dsf")
        var header = Array("DSD ".utf8) + [28, 0, 0, 0, 0, 0, 0, 0] + [UInt8](repeating: 0, count: 8)
        header += [92, 0, 0, 0, 0, 0, 0, 0]
        try Data(header + Array("fmt ".utf8) + [UInt8](repeating: 0, count: 60) + Array("ID3".utf8) + [4, 0, 0, 0, 0, 0, 0])
            .write(to: URL(fileURLWithPath: path))
        #expect(throws: MetadataError(path: path, kind: .unsupported, reason: "tags not read: TagLib reads no tags in DSF files")) {
            try MetadataFile.read(path: path)
        }
        header.replaceSubrange(20..<28, with: [UInt8](repeating: 0, count: 8))
        try Data(header + Array("fmt ".utf8)).write(to: URL(fileURLWithPath: path))
        #expect(try MetadataFile.read(path: path).isEmpty, "a DSF whose header points at no tag holds none")
    }

    /// A tenth of a second of silence, stereo 16-bit at 44.1 kHz, as an AIFF: `COMM` (its rate an
    /// 80-bit extended float) and `SSND`.
    static let silentAIFF: [UInt8] = {
        func big(_ value: Int, _ count: Int) -> [UInt8] { (0..<count).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }
        let frames = 4_410
        let comm = big(2, 2) + big(frames, 4) + big(16, 2) + [0x40, 0x0E, 0xAC, 0x44, 0, 0, 0, 0, 0, 0]
        let ssnd = big(0, 8) + [UInt8](repeating: 0, count: frames * 4)
        let body = Array("AIFF".utf8) + Array("COMM".utf8) + big(comm.count, 4) + comm + Array("SSND".utf8) + big(ssnd.count, 4) + ssnd
        return Array("FORM".utf8) + big(body.count, 4) + body
    }()

    @Test(arguments: [TagFormat.wav, .aiff])
    func picturesGoLastInTheID3v2ChunkAndAWriteAgainReplacesIt(format: TagFormat) throws {
        let folder = try TemporaryFolder()
        let path = folder.file(format == .wav ? "tone.wav" : "tone.aiff")
        if format == .wav { try TaggedFiles.toneWAV(at: path) } else { try Data(Self.silentAIFF).write(to: URL(fileURLWithPath: path)) }
        let isAudio = { (chunk: BroadcastWaveFiles.Chunk) in chunk.id == "data" || chunk.id == "SSND" }
        let audio = try #require(try BroadcastWaveFiles.chunks(of: path).first(where: isAudio))
        for _ in 0..<2 { #expect(try write(Self.metadata, to: path, as: format).isEmpty) }
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        let stated = bytes[4..<8].reduce(0) { $0 << 8 | Int($1) }
        #expect((format == .aiff ? stated : Int(UInt32(stated).byteSwapped)) == bytes.count - 8, "the header states the file's size")
        let chunks = try BroadcastWaveFiles.chunks(of: path)
        #expect(chunks.filter { $0.id.uppercased() == "ID3 " }.count == 1 && chunks.last?.id == "ID3 ", "\(chunks.map(\.id))")
        #expect(chunks.first(where: isAudio) == audio, "the audio is untouched")
        let read = try MetadataFile.read(path: path)
        #expect(read.pictures == Self.metadata.pictures)
        #expect(read.tags["ARTIST"] == ["First", "Second"] && read.tags["MOOD"] == ["Calm"])
    }
}
