import AudioFiles
import AudioFormats
import Foundation
import SoundFile
import Testing
import TestSupport

/// The registry chooses decoders by content and refuses formats no tenant reads by name.
@Suite struct RegistryTests {
    let registry = FormatRegistry.standard

    @Test(arguments: [("music.wav", AudioContainer.wav), ("music.flac", .flac), ("music.aiff", .aiff), ("music.ogg", .ogg)])
    func sniffingChoosesTheDecoderByContent(name: String, container: AudioContainer) throws {
        let folder = try TemporaryFolder()
        let misnamed = folder.file("input.dat")
        try FileManager.default.copyItem(atPath: fixture(name), toPath: misnamed)
        let decoder = try registry.openDecoder(path: misnamed)
        #expect(decoder.container == container)
        #expect(String(describing: type(of: decoder)) == (container == .ogg ? "VorbisFileDecoder" : "SndfileDecoder"))
        #expect(decoder.format.sampleRate == 44100 && decoder.format.channelCount == 2)
    }

    @Test(arguments: [
        ([0, 0, 0, 0x20] + Array("ftypM4A ".utf8) + [0, 0, 0, 0] + Array("moov....stsd....mp4a".utf8), "MPEG-4 audio (AAC)"),
        ([0xFF, 0xF1, 0x50, 0x80, 0x02, 0x1F, 0xFC], "ADTS AAC audio"),
        (Array("MAC ".utf8) + [0x96, 0x0F, 0, 0], "Monkey's Audio (APE)"),
        (Array("wvpk".utf8) + [0x20, 0, 0, 0, 0x10, 0x04], "WavPack audio"),
    ] as [([UInt8], String)])
    func refusesUnsupportedFormatsByName(head: [UInt8], description: String) throws {
        let folder = try TemporaryFolder()
        let path = folder.file("in.m4a")
        try WaveFile.write(head + [UInt8](repeating: 0, count: 200), to: path)
        let withoutFFmpeg = FormatRegistry(kinds: [LibSndfileFormats()])
        #expect(throws: AudioFormatError(path: path, kind: .unsupportedInput, reason: "\(description) is not supported by this build")) {
            try withoutFFmpeg.openDecoder(path: path)
        }
        let failure = #expect(throws: AudioFormatError.self) { try registry.openDecoder(path: path) }
        #expect(failure?.reason.hasPrefix("\(description) that FFmpeg cannot read") == true)
    }

    @Test func anEmptyFileIsNamedAsEmpty() throws {
        let folder = try TemporaryFolder()
        let path = folder.file("empty.wav")
        try WaveFile.write([], to: path)
        #expect(throws: AudioFormatError(path: path, kind: .invalidFile, reason: "the file is empty")) {
            try registry.openDecoder(path: path)
        }
    }

    @Test func randomBytesAreNamedAsUndecodable() throws {
        let folder = try TemporaryFolder()
        let path = folder.file("noise.bin")
        try WaveFile.write((0..<5000).map { UInt8(truncatingIfNeeded: ($0 &* 2654435761) >> 7) | 1 }, to: path)
        #expect(throws: AudioFormatError(path: path, kind: .invalidFile, reason: "not audio libsndfile can decode (unrecognised or damaged)")) {
            try registry.openDecoder(path: path)
        }
    }

    @Test func sniffingSeesThroughAnID3TagAndTellsOggCodecs() throws {
        let flacAfterTag = Array("ID3".utf8) + [4, 0, 0, 0, 0, 0, 2] + [UInt8](repeating: 0, count: 2) + Array("fLaC".utf8)
        #expect(FormatSniffer.sniff(flacAfterTag) == .container(.flac, nil))
        let opusPage = Array("OggS".utf8) + [UInt8](repeating: 0, count: 22) + [1, 19] + Array("OpusHead".utf8)
        #expect(FormatSniffer.sniff(opusPage) == .container(.ogg, .opus))
        let speexPage = Array("OggS".utf8) + [UInt8](repeating: 0, count: 22) + [1, 80] + Array("Speex   ".utf8)
        #expect(FormatSniffer.sniff(speexPage) == .container(AudioContainer(identifier: "ogg-speex", name: "Ogg Speex audio"), nil))
    }
}

/// A decoder that refuses an input when opening it hands it to the next kind that claims it or
/// tries unrecognised inputs; when none opens it, the first refusal is the one said.
@Suite struct RegistryHandOnTests {
    /// A kind that claims WAV and refuses everything, or tries everything and refuses it, with `reason`.
    struct Refusing: AudioFormatKind {
        var name: String
        var decodedContainers: Set<AudioContainer>
        var triesUnrecognisedInputs: Bool
        var reason: String
        var kind: AudioFormatError.Kind = .invalidFile
        func makeDecoder(for input: AudioInput, raw: RawFormat?) throws(AudioFormatError) -> any AudioDecoder {
            throw AudioFormatError(path: input.path, kind: kind, reason: reason)
        }
        var writtenFormats: [(container: AudioContainer, encodings: [AudioEncoding])] { [] }
        func canWrite(container: AudioContainer, encoding: AudioEncoding, sampleRate: Int, channelCount: Int) -> Bool { false }
        func makeEncoder(fileDescriptor: Int32, path: String, container: AudioContainer, encoding: AudioEncoding,
                         sampleRate: Int, channelCount: Int, settings: EncoderSettings) throws(AudioFormatError) -> any AudioEncoder {
            throw AudioFormatError(path: path, kind: .unsupportedFormat, reason: "none")
        }
    }

    @Test func aRefusedFileGoesToTheNextKindThatTries() throws {
        let refusing = Refusing(name: "first", decodedContainers: [.wav], triesUnrecognisedInputs: false, reason: "unimplemented")
        let registry = FormatRegistry(kinds: [refusing, LibSndfileFormats()])
        let decoder = try registry.openDecoder(path: fixture("music.wav"))
        #expect(decoder.decoderName == "libsndfile")
        #expect(decoder.format.channelCount == 2)
    }

    @Test func whenNoneOpensItTheFirstRefusalIsSaid() throws {
        let first = Refusing(name: "first", decodedContainers: [.wav], triesUnrecognisedInputs: false, reason: "the claimant's words")
        let second = Refusing(name: "second", decodedContainers: [], triesUnrecognisedInputs: true, reason: "a trier's words")
        let path = fixture("music.wav")
        #expect(throws: AudioFormatError(path: path, kind: .invalidFile, reason: "the claimant's words")) {
            try FormatRegistry(kinds: [first, second]).openDecoder(path: path)
        }
    }

    @Test func aFileThatCannotBeOpenedIsNotHandedOn() throws {
        let first = Refusing(name: "first", decodedContainers: [.wav], triesUnrecognisedInputs: false, reason: "Permission denied", kind: .cannotOpen)
        let registry = FormatRegistry(kinds: [first, LibSndfileFormats()])
        #expect(throws: AudioFormatError(path: fixture("music.wav"), kind: .cannotOpen, reason: "Permission denied")) {
            try registry.openDecoder(path: fixture("music.wav"))
        }
    }
}
