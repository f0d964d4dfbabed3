import Foundation
import SoundFile
import TestSupport
import Testing

@Suite struct RenderCommandTests {
    @Test(arguments: ["music.wav", "speech.wav", "music.flac", "speech.aiff"])
    func passThroughIsSampleExact(_ name: String) throws {
        let folder = try TemporaryFolder()
        let output = folder.file("out." + (name.split(separator: ".").last ?? "wav"))
        let result = try aurender([fixture(name), output])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardError.isEmpty)
        let (inFormat, inSamples) = try samples(of: fixture(name))
        let (outFormat, outSamples) = try samples(of: output)
        #expect(outFormat == inFormat)
        #expect(outSamples == inSamples)
        #expect(folder.contents() == [output.split(separator: "/").last.map(String.init)!])
    }

    @Test(arguments: ["24", "float"])
    func passThroughIsExactForDeeperEncodings(_ bits: String) throws {
        let folder = try TemporaryFolder()
        let deep = folder.file("deep.wav")
        #expect(try aurender([fixture("music.wav"), deep, "--bits", bits]).status == 0)
        #expect(try aurender([deep, folder.file("again.wav")]).status == 0)
        let (format, original) = try samples(of: deep)
        let (againFormat, again) = try samples(of: folder.file("again.wav"))
        #expect(format.encoding == (bits == "24" ? SoundFileEncoding.pcm24 : .float))
        #expect(againFormat == format)
        #expect(again == original)
        #expect(bytes(deep) == bytes(folder.file("again.wav")), "a 1:1 render of our own file is byte-identical")
    }

    @Test func sliceSizeDoesNotChangeTheOutput() throws {
        let folder = try TemporaryFolder()
        var outputs: [Data?] = []
        for size in ["1", "7", "4095", "4096"] {
            let path = folder.file("slices-\(size).flac")
            #expect(try aurender([fixture("speech.wav"), path, "--frames-per-slice", size]).status == 0)
            outputs.append(bytes(path))
        }
        #expect(outputs.allSatisfy { $0 != nil && $0 == outputs[0] })
    }

    @Test func containerAndEncodingFollowOptions() throws {
        let folder = try TemporaryFolder()
        #expect(try aurender([fixture("music.wav"), folder.file("a.flac"), "--bits", "24"]).status == 0)
        #expect(try samples(of: folder.file("a.flac")).format.encoding == .pcm24)
        #expect(try aurender([fixture("music.wav"), folder.file("noext"), "--type", "aiff"]).status == 0)
        #expect(try samples(of: folder.file("noext")).format.type == .aiff)
        #expect(try aurender([fixture("music.flac"), folder.file("b.ogg")]).status == 0)
        #expect(try samples(of: folder.file("b.ogg")).format.encoding == .vorbis)
        #expect(try aurender([fixture("music.wav"), folder.file("c.wav"), "--bits", "float"]).status == 0)
        #expect(try samples(of: folder.file("c.wav")).format.encoding == .float)
        #expect(try aurender([fixture("music.mp3"), folder.file("d.wav")]).status == 0)
        #expect(try samples(of: folder.file("d.wav")).format.encoding == .pcm16, "lossy input, lossless container: 16-bit PCM")
    }

    @Test(arguments: ["flac", "ogg", "opus", "mp3"])
    func rendersTwiceToTheSameBytes(_ container: String) throws {
        let folder = try TemporaryFolder()
        for name in ["one", "two"] {
            let result = try aurender([fixture("music.wav"), folder.file("\(name).\(container)"), "--rate", "48000", "--eq", "rock"])
            #expect(result.status == 0, "\(result.standardError)")
        }
        #expect(bytes(folder.file("one.\(container)")) == bytes(folder.file("two.\(container)")),
                "Ogg serial numbers are fixed, everything else is deterministic")
        let decoded = try samples(of: folder.file("one.\(container)"))
        #expect(decoded.format.rate == 48000)
        #expect(Signal.rms(decoded.samples) > 0.05, "the file decodes (libogg checks every page's CRC)")
    }

    @Test func standardInputAndOutput() throws {
        let folder = try TemporaryFolder()
        let input = try #require(bytes(fixture("music.wav")))
        let fromPipe = try aurender(["-", folder.file("piped.wav")], input: input)
        #expect(fromPipe.status == 0, "\(fromPipe.standardError)")
        #expect(try samples(of: folder.file("piped.wav")).samples == samples(of: fixture("music.wav")).samples)

        let toPipe = try aurender([fixture("speech.wav"), "-", "--type", "au"])
        #expect(toPipe.status == 0)
        let back = try aurender(["-", folder.file("back.wav")], input: toPipe.standardOutput)
        #expect(back.status == 0)
        #expect(try samples(of: folder.file("back.wav")).samples == samples(of: fixture("speech.wav")).samples)

        let wavToPipe = try aurender([fixture("speech.wav"), "-", "--type", "wav"])
        #expect(wavToPipe.status == 64)
        #expect(wavToPipe.standardError == "aurender: -: this file format does not support pipe write; for standard output use --type au or raw\n")
    }

    @Test func rawInputNeedsItsFormat() throws {
        let folder = try TemporaryFolder()
        let raw = try aurender([fixture("speech.wav"), "-", "--type", "raw"])
        #expect(raw.status == 0)
        try raw.standardOutput.write(to: URL(fileURLWithPath: folder.file("speech.raw")))
        let back = try aurender([folder.file("speech.raw"), folder.file("back.wav"), "--input-type", "raw",
                                 "--input-rate", "22050", "--input-channels", "1", "--input-bits", "16"])
        #expect(back.status == 0, "\(back.standardError)")
        let (format, values) = try samples(of: folder.file("back.wav"))
        #expect(format.rate == 22050)
        #expect(values == (try samples(of: fixture("speech.wav"))).samples)

        let incomplete = try aurender([folder.file("speech.raw"), folder.file("x.wav"), "--input-type", "raw"])
        #expect(incomplete.status == 64)
        #expect(incomplete.standardError.contains("--input-type raw needs --input-rate, --input-channels and --input-bits"))
    }

    @Test func anEmptyInputGivesAnEmptyOutput() throws {
        let folder = try TemporaryFolder()
        try WaveFile.write(WaveFile.bytes(channels: 2, sampleRate: 44100), to: folder.file("empty.wav"))
        let result = try aurender([folder.file("empty.wav"), folder.file("out.wav")])
        #expect(result.status == 0)
        let (format, values) = try samples(of: folder.file("out.wav"))
        #expect(values.isEmpty)
        #expect(format.channels == 2)
    }

    @Test func clippingIsCountedAndReported() throws {
        let folder = try TemporaryFolder()
        let loud = folder.file("loud.wav")
        let values: [Float] = [0.5, 1.5, -2, .nan, 0.25, 1]
        let descriptor = open(loud, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        let writer = try SoundFileWriter(fileDescriptor: descriptor, path: loud, type: .wav, encoding: .float,
                                         sampleRate: 8000, channelCount: 1)
        try values.withUnsafeBufferPointer { try writer.write($0.baseAddress!, frames: values.count) }
        try writer.finish()
        let result = try aurender([loud, folder.file("out.wav"), "--bits", "16", "--dither", "none"])
        #expect(result.status == 0)
        #expect(result.standardError == """
            aurender: \(folder.file("out.wav")): 3 samples clipped; try --gain -7
            aurender: \(folder.file("out.wav")): 1 NaN or infinite samples written as 0

            """)
        #expect(try samples(of: folder.file("out.wav")).samples == [0.5, 32767.0 / 32768, -1, 0, 0.25, 32767.0 / 32768])
    }

    /// `--bits 8` is unsigned in WAV, as WAV stores 8 bits, and signed in AIFF; either way the
    /// error is 8-bit quantization with TPDF dither: RMS half a step (-48 dBFS), but for the
    /// source's exact zeros (digital silence), which stay zeros.
    @Test(arguments: [("wav", SoundFileEncoding.pcmU8), ("aiff", .pcmS8)])
    func eightBitsAreStoredAsTheContainerStoresThem(container: String, encoding: SoundFileEncoding) throws {
        let folder = try TemporaryFolder()
        let output = folder.file("eight." + container)
        let result = try aurender([fixture("speech.wav"), output, "--bits", "8"])
        #expect(result.status == 0, "\(result.standardError)")
        let (format, written) = try samples(of: output)
        #expect(format.encoding == encoding)
        let source = try samples(of: fixture("speech.wav")).samples
        #expect(written.count == source.count)
        let sounding = zip(written, source).filter { $0.1 != 0 }
        #expect(zip(written, source).allSatisfy { $0.1 != 0 || $0.0 == 0 }, "silence gets no dither")
        let rms = (sounding.map { Double($0 - $1) * Double($0 - $1) }.reduce(0, +) / Double(sounding.count)).squareRoot()
        #expect(abs(20 * log10(rms) - (-48.2)) < 0.5, "RMS error \(20 * log10(rms)) dBFS")
    }

    /// A FLAC file cut short states more frames than it holds: an error naming both counts, and
    /// no output, never a short file passed off as whole.
    @Test func aTruncatedFileIsAnErrorNotAShortOutput() throws {
        let folder = try TemporaryFolder()
        let whole = try Data(contentsOf: URL(fileURLWithPath: fixture("music.flac")))
        try whole.prefix(4000).write(to: URL(fileURLWithPath: folder.file("cut.flac")))
        let result = try aurender([folder.file("cut.flac"), folder.file("out.wav")])
        #expect(result.status == 65)
        #expect(result.standardError.hasPrefix("aurender: \(folder.file("cut.flac")): the file states 132300 frames but holds only "))
        #expect(result.standardError.hasSuffix(" (truncated or damaged)\n"))
        #expect(folder.contents() == ["cut.flac"])
    }

    @Test func opusAndMP3RoundTrips() throws {
        let folder = try TemporaryFolder()
        let tone = (0..<96000).map { Int16((8000 * sin(2 * Double.pi * 440 * Double($0) / 48000)).rounded()) }
        try WaveFile.write(WaveFile.bytes(channels: 1, sampleRate: 48000, data: WaveFile.pcm16(tone)), to: folder.file("tone.wav"))
        let original = Signal.rms(try samples(of: folder.file("tone.wav")).samples)
        for name in ["tone.opus", "tone.mp3"] {
            let result = try aurender([folder.file("tone.wav"), folder.file(name)])
            #expect(result.status == 0, "\(result.standardError)")
            let (format, decoded) = try samples(of: folder.file(name))
            #expect(format.rate == 48000)
            #expect(abs(decoded.count - 96000) < 4000, "\(name): \(decoded.count) frames")
            #expect(abs(20 * log10(Signal.rms(decoded) / original)) < 0.5, "\(name) keeps the level")
        }
        let wrongRate = try aurender([fixture("music.wav"), folder.file("music.opus"), "--rate", "44100"])
        #expect(wrongRate.status == 64, "a rate given explicitly is kept, and refused")
        #expect(wrongRate.standardError == "aurender: \(folder.file("music.opus")): Opus only supports sample rates of 8000, 12000, 16000, 24000, and 48000; use --rate 48000\n")
        #expect(!folder.contents().contains("music.opus"))
        let mixed = try aurender(["mix", fixture("music.wav"), "--output", folder.file("mix.opus"), "--rate", "22050"])
        #expect(mixed.status == 64)
        #expect(mixed.standardError.hasSuffix("and 48000; use --rate 48000\n"), "\(mixed.standardError)")
        let resampled = try aurender([fixture("music.wav"), folder.file("music.opus"), "--rate", "48000"])
        #expect(resampled.status == 0, "\(resampled.standardError)")
        #expect(try samples(of: folder.file("music.opus")).format.rate == 48000)
    }
}
