import Foundation
import SoundFile
import TestSupport
import Testing

/// Inputs that hold fewer frames than their containers state — cut short, or with a header that
/// lies — fail by default (exit 65, one line naming the file and both counts, nothing written),
/// and `--salvage` renders what decodes and still reports the shortfall.
@Suite struct DamagedInputTests {
    /// A 44,100-frame stereo source written by aurender in `container`.
    static func source(_ container: String, in folder: TemporaryFolder) throws -> Data {
        let wav = folder.file("source.wav"), encoded = folder.file("source.\(container)")
        let tone = Signal.sine(frequency: 440, sampleRate: 44_100, frames: 44_100)
        try writeFloats(zip(tone, tone.reversed()).flatMap { [$0, $1] }, channels: 2, rate: 44_100, to: wav)
        if container != "wav" { #expect(try aurender([wav, encoded]).status == 0) }
        return try Data(contentsOf: URL(fileURLWithPath: container == "wav" ? wav : encoded))
    }

    /// The frames found that the one error line names (`… holds only 26460 …`, `… after 26460 frames …`).
    static func framesFound(_ message: String) -> Int? {
        if message.contains("holds none") || message.contains("before any frame") { return 0 }
        for marker in ["holds only ", "after "] {
            if let range = message.range(of: marker) {
                return Int(message[range.upperBound...].prefix { $0.isNumber })
            }
        }
        return nil
    }

    @Test(arguments: ["wav", "aiff", "flac", "ogg", "mp3", "au", "w64", "rf64"])
    func aCutFileFailsAndSalvageRendersWhatDecodes(container: String) throws {
        let folder = try TemporaryFolder()
        let whole = try Self.source(container, in: folder)
        for fraction in [0.3, 0.6, 0.9] {
            let cut = folder.file("cut\(Int(fraction * 10)).\(container)"), output = folder.file("out.wav")
            try whole.prefix(Int(Double(whole.count) * fraction)).write(to: URL(fileURLWithPath: cut))
            let failed = try aurender([cut, output])
            #expect(failed.status == 65, "\(container) cut at \(fraction): \(failed.standardError)")
            let lines = failed.standardError.split(separator: "\n")
            #expect(lines.count == 1 && lines[0].hasPrefix("aurender: \(cut): "), "\(failed.standardError)")
            #expect(!FileManager.default.fileExists(atPath: output), "nothing written")
            guard lines.first?.contains("(truncated or damaged)") == true else {
                // libsndfile refuses some cut Ogg files when it opens them: nothing to salvage.
                #expect(container == "ogg" && fraction < 0.5, "\(failed.standardError)")
                continue
            }
            if container != "ogg" {
                #expect(lines[0].contains("states 44100 frames but holds only "), "\(failed.standardError)")
            }
            let found = try #require(Self.framesFound(String(lines[0])), "\(failed.standardError)")
            #expect(found < 44_100)

            let report = folder.file("report.json")
            let salvaged = try aurender([cut, output, "--salvage", "--report", report])
            if found == 0 {
                #expect(salvaged.status == 65, "nothing decodes, so nothing is written: \(salvaged.standardError)")
                #expect(!FileManager.default.fileExists(atPath: output))
                continue
            }
            #expect(salvaged.status == 0, "\(salvaged.standardError)")
            #expect(salvaged.standardError == String(lines[0]) + "; rendered the \(found) frames that decode\n")
            #expect(try samples(of: output).samples.count == 2 * found, "the output holds what decoded")
            let json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: report))) as? [String: Any])
            let shortfalls = try #require(json["shortfalls"] as? [[String: Any]])
            #expect(shortfalls.count == 1 && shortfalls[0]["input"] as? String == cut)
            #expect(shortfalls.first?["foundFrames"] as? Int == found)
            #expect(shortfalls.first?["statedFrames"] as? Int == (container == "ogg" ? nil : 44_100))
            try FileManager.default.removeItem(atPath: output)
        }
    }

    /// Headers that state more frames than the file holds, each patched in place.
    @Test(arguments: ["wav", "aiff", "flac", "mp3"])
    func aHeaderThatLiesIsAnError(container: String) throws {
        let folder = try TemporaryFolder()
        var bytes = [UInt8](try Self.source(container, in: folder))
        func put(_ value: UInt64, at offset: Int, bytes count: Int, bigEndian: Bool) {
            for index in 0..<count {
                let shift = 8 * (bigEndian ? count - 1 - index : index)
                bytes[offset + index] = UInt8(truncatingIfNeeded: value >> UInt64(shift))
            }
        }
        func find(_ text: String) throws -> Int {
            let pattern = Array(text.utf8)
            return try #require((0...(bytes.count - pattern.count)).first { Array(bytes[$0..<($0 + pattern.count)]) == pattern })
        }
        let stated: Int
        switch container {
        case "wav":
            put(88_200 * 8, at: try find("data") + 4, bytes: 4, bigEndian: false)
            stated = 88_200
        case "aiff":
            put(88_200, at: try find("COMM") + 10, bytes: 4, bigEndian: true)
            stated = 88_200
        case "flac":
            // STREAMINFO's 36-bit total sample count, and the audio frames cut off: it holds none.
            let total: UInt64 = 6_000_000
            bytes[8 + 13] = (bytes[8 + 13] & 0xF0) | UInt8(total >> 32)
            put(total & 0xFFFF_FFFF, at: 8 + 14, bytes: 4, bigEndian: true)
            bytes = Array(bytes.prefix(8 + 34))
            stated = 6_000_000
        default:
            // The Xing header's frame count and stream size doubled: as many frames again of 1152
            // samples, in bytes past the file's end (a frame count alone is no evidence of a cut).
            let count = try find("Xing") + 8
            let frames = bytes[count..<(count + 4)].reduce(0) { $0 << 8 | Int($1) }
            let size = bytes[(count + 4)..<(count + 8)].reduce(0) { $0 << 8 | Int($1) }
            put(UInt64(2 * frames), at: count, bytes: 4, bigEndian: true)
            put(UInt64(2 * size), at: count + 4, bytes: 4, bigEndian: true)
            stated = 44_100 + frames * 1152
        }
        let lying = folder.file("lying.\(container)"), output = folder.file("out.wav")
        try Data(bytes).write(to: URL(fileURLWithPath: lying))
        let info = try aurender(["info", lying])
        #expect(info.status == 0)
        #expect(info.output.contains("Frames      : \(stated)\n"), "\(info.output)")
        let failed = try aurender([lying, output])
        #expect(failed.status == 65)
        let line = try #require(failed.standardError.split(separator: "\n").first.map(String.init))
        #expect(failed.standardError == line + "\n", "one line")
        #expect(line.hasPrefix("aurender: \(lying): the file states "), "\(line)")
        #expect(line.hasPrefix("aurender: \(lying): the file states \(stated) frames but holds "), "\(line)")
        #expect(!FileManager.default.fileExists(atPath: output))
        let found = try #require(Self.framesFound(line))
        // An MP3 decoder trims the encoder's padding only at the stated end, so it gives a little more.
        #expect(container == "mp3" ? (44_100..<(44_100 + 2304)).contains(found) : found == (container == "flac" ? 0 : 44_100), "\(line)")
        if container == "flac" {
            #expect(line.hasSuffix("holds none that decode (truncated or damaged)"))
            let salvaged = try aurender([lying, output, "--salvage"])
            #expect(salvaged.status == 65, "no render exits 0 with an empty output from an input that claims audio")
            #expect(!FileManager.default.fileExists(atPath: output))
        }
    }

    @Test func infoMarksEstimatesAndExactCounts() throws {
        let estimated = try aurender(["info", fixture("music.mp3")])
        #expect(estimated.output.contains("Frames      : ~133996 (estimated)\nDuration    : ~3.0 s (estimated)\n"), "\(estimated.output)")
        let counted = try aurender(["info", "--exact", "--json", fixture("music.mp3")])
        let parsed = try #require(try JSONSerialization.jsonObject(with: counted.standardOutput) as? [[String: Any]])
        #expect(parsed.first?["frames"] as? Int == 133_632, "mpg123 decodes 133632 frames")
        #expect(parsed.first?["length"] as? String == "exact")
        let json = try aurender(["info", "--json", fixture("music.mp3")])
        let header = try #require(try JSONSerialization.jsonObject(with: json.standardOutput) as? [[String: Any]])
        #expect(header.first?["length"] as? String == "estimated")
        let refused = try aurender(["info", "--exact", "--loudness", "-"], input: Data())
        #expect(refused.status == 64)
    }

    /// `frames` of a tone in `channels` channels at `rate`, written by libsndfile as a WAV (or
    /// `type`) in the block-coded `encoding`.
    static func codedWave(_ encoding: SoundFileEncoding, frames: Int, channels: Int, rate: Int, type: SoundFileType = .wav,
                          to path: String) throws {
        let tone = Signal.sine(frequency: 440, sampleRate: Double(rate), frames: frames, amplitude: 0.3)
        let interleaved = channels == 1 ? tone : zip(tone, tone.reversed()).flatMap { [$0, $1] }
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        let writer = try SoundFileWriter(fileDescriptor: descriptor, path: path, type: type, encoding: encoding,
                                         sampleRate: rate, channelCount: channels)
        try interleaved.withUnsafeBufferPointer { try writer.write($0.baseAddress!, frames: frames) }
        try writer.finish()
    }

    /// IMA ADPCM, Microsoft ADPCM and GSM 6.10 pad their last block; the `fact` chunk states the
    /// frames written, which aurender holds the decode to — except libsndfile's stereo IMA ADPCM,
    /// whose count (its frames over its channels) ends before the last block, so the data's
    /// whole blocks count (2041 frames each). A cut file, whose data chunk runs past its end,
    /// fails as a PCM one does; a `fact` count that overcounts a whole file is the codec's, no
    /// evidence of a cut (SoX and FFmpeg decode such files whole), so the data's whole blocks
    /// render, as they do for a Sony Wave64's 64-bit count (libsndfile writes 2^63 − 10001 there
    /// for Microsoft ADPCM).
    @Test(arguments: [("wav", "ms-adpcm", 0x13, 1, 8000, 8002, 8002, 8500), ("wav", "ms-adpcm", 0x13, 2, 44_100, 44_100, 44_100, 44_792),
                      ("wav", "gsm610", 0x20, 1, 8000, 8002, 8002, 8320), ("wav", "ima-adpcm", 0x12, 1, 8000, 8002, 8080, 8080),
                      ("wav", "ima-adpcm", 0x12, 2, 44_100, 44_100, 44_902, 44_902), ("w64", "ms-adpcm", 0x13, 1, 8000, 8002, 8500, 8500),
                      ("w64", "gsm610", 0x20, 1, 8000, 8002, 8002, 8320), ("w64", "ima-adpcm", 0x12, 2, 44_100, 44_100, 44_902, 44_902)])
    func aCodedWaveIsHeldToItsFactCount(container: String, name: String, encoding: Int32, channels: Int, rate: Int, written: Int,
                                        stated: Int, decoded: Int) throws {
        let folder = try TemporaryFolder()
        let input = folder.file("\(name).\(container)"), output = folder.file("out.wav")
        try Self.codedWave(SoundFileEncoding(rawValue: encoding), frames: written, channels: channels, rate: rate,
                           type: container == "wav" ? .wav : .w64, to: input)
        let libsndfile = try samples(of: input).samples
        #expect(libsndfile.count == channels * decoded, "libsndfile decodes whole blocks")
        let info = try aurender(["info", input])
        #expect(info.output.contains("Frames      : \(stated)\n"), "\(info.output)")
        let whole = try aurender([input, output, "--bits", "float"])
        #expect(whole.status == 0, "\(whole.standardError)")
        #expect(try samples(of: output).samples == Array(libsndfile.prefix(channels * stated)), "libsndfile's samples, up to the stated end")
        try FileManager.default.removeItem(atPath: output)

        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: input)))
        let cut = folder.file("cut.\(container)")
        try Data(bytes.prefix(bytes.count * 6 / 10)).write(to: URL(fileURLWithPath: cut))
        let failed = try aurender([cut, output])
        #expect(failed.status == 65)
        let line = try #require(failed.standardError.split(separator: "\n").first.map(String.init))
        #expect(failed.standardError == line + "\n", "one line")
        #expect(line.hasPrefix("aurender: \(cut): the file states \(stated) frames but holds only "), "\(line)")
        #expect(!FileManager.default.fileExists(atPath: output))
        let found = try #require(Self.framesFound(line))
        #expect(found > stated / 2 && found < stated)
        let salvaged = try aurender([cut, output, "--salvage", "--bits", "float"])
        #expect(salvaged.status == 0, "\(salvaged.standardError)")
        // libsndfile decodes a block cut short too, so the last frames are its guess at them.
        let salvagedSamples = try samples(of: output).samples
        #expect(salvagedSamples.count == channels * found)
        #expect(salvagedSamples == (try samples(of: cut).samples), "what libsndfile decodes of the cut file")
        try FileManager.default.removeItem(atPath: output)

        guard let fact = (0...(bytes.count - 8)).first(where: { Array(bytes[$0..<($0 + 4)]) == Array("fact".utf8) }) else {
            Issue.record("libsndfile writes a fact chunk in \(name)")
            return
        }
        let lie = UInt64(2 * decoded), count = container == "wav" ? fact + 8 : fact + 24
        bytes[count..<(count + (container == "wav" ? 4 : 8))] = ArraySlice(withUnsafeBytes(of: lie.littleEndian) { Array($0.prefix(container == "wav" ? 4 : 8)) })
        let lying = folder.file("lying.\(container)")
        try Data(bytes).write(to: URL(fileURLWithPath: lying))
        let overcounted = try aurender([lying, output])
        #expect(overcounted.status == 0, "\(overcounted.standardError)")
        #expect(try samples(of: output).samples.count == channels * decoded, "the data's whole blocks")
    }

    /// An MP3's Xing/LAME header read where it lies, past a 100 KB ID3v2 tag (cover art): a cut
    /// file fails as one without the tag does. On a pipe nothing past the first 4 KB is read
    /// twice: a Xing or LAME header beyond them leaves the length an estimate, never an untrimmed
    /// count, and the tag is emptied on its way to libsndfile, which refuses such an MP3 otherwise.
    @Test func anMP3BehindALargeTagIsHeldToItsXingHeader() throws {
        let folder = try TemporaryFolder()
        let lame = try Self.source("mp3", in: folder)
        let tagged = MP3DecoderTests.id3v2(size: 100_000) + lame
        let cut = folder.file("cut.mp3"), output = folder.file("out.wav")
        try tagged.prefix(tagged.count - lame.count * 4 / 10).write(to: URL(fileURLWithPath: cut))
        let failed = try aurender([cut, output])
        #expect(failed.status == 65)
        #expect(failed.standardError.hasPrefix("aurender: \(cut): the file states 44100 frames but holds only "), "\(failed.standardError)")
        #expect(!FileManager.default.fileExists(atPath: output))

        // A 4000-byte tag puts the Info header inside the first 4 KB and its LAME tag past them.
        let piped = MP3DecoderTests.id3v2(size: 4000) + lame
        let info = try aurender(["info", "-"], input: piped)
        #expect(info.output.contains("Frames      : ~44100 (estimated)\n"), "\(info.output)")
        let rendered = try aurender(["-", output], input: piped)
        #expect(rendered.status == 0, "\(rendered.standardError)")
        #expect(try samples(of: output).samples.count == 2 * 44_100)

        let whole = folder.file("tagged.mp3")
        try tagged.write(to: URL(fileURLWithPath: whole))
        let streamed = try aurender(["-", output, "--bits", "float"], input: tagged)
        #expect(streamed.status == 0, "\(streamed.standardError)")
        #expect(try samples(of: output).samples == (try MP3DecoderTests.reference(whole, in: folder)), "mpg123's samples")
        let streamedInfo = try aurender(["info", "-"], input: tagged)
        #expect(streamedInfo.output.contains("Frames      : ~44100 (estimated)\n"), "\(streamedInfo.output)")
    }

    /// AIFC's IMA ADPCM (`ima4`) counts 64-frame packets in its common chunk, not frames; a file
    /// libsndfile writes renders whole (it was cut to its packet count, 126 frames of 8064), and
    /// a cut one fails. libsndfile's stereo count is half its packets: the sound data rules.
    @Test(arguments: [(1, 8002, 8064), (2, 44_100, 44_160)])
    func anAIFCInIMAADPCMCountsItsPackets(channels: Int, written: Int, stated: Int) throws {
        let folder = try TemporaryFolder()
        let input = folder.file("ima4.aiff"), output = folder.file("out.wav")
        try Self.codedWave(SoundFileEncoding(rawValue: 0x12), frames: written, channels: channels, rate: 8000, type: .aiff, to: input)
        let libsndfile = try samples(of: input).samples
        #expect(libsndfile.count == channels * stated)
        let info = try aurender(["info", input])
        #expect(info.output.contains("Frames      : \(stated)\n"), "\(info.output)")
        let whole = try aurender([input, output, "--bits", "float"])
        #expect(whole.status == 0, "\(whole.standardError)")
        #expect(try samples(of: output).samples == libsndfile)

        let bytes = try Data(contentsOf: URL(fileURLWithPath: input))
        let cut = folder.file("cut.aiff")
        try bytes.prefix(bytes.count / 2).write(to: URL(fileURLWithPath: cut))
        let failed = try aurender([cut, folder.file("cut.wav")])
        #expect(failed.status == 65)
        #expect(failed.standardError.hasPrefix("aurender: \(cut): the file states \(stated) frames but holds only "), "\(failed.standardError)")
        #expect(!FileManager.default.fileExists(atPath: folder.file("cut.wav")))
    }

    /// Coded WAVs on standard input (GSM 6.10, IMA and Microsoft ADPCM) decode as the files do. GSM 6.10 failed there with
    /// libsndfile's "Unspecified internal error": its decoder seeks back to the data's start,
    /// which a relay pipe cannot; it is read from a stream that gives its first bytes back.
    @Test(arguments: [(0x20, 8_002), (0x12, 8_080), (0x13, 8_002)])
    func aCodedWaveOnAPipeDecodesAsTheFile(encoding: Int32, frames: Int) throws {
        let folder = try TemporaryFolder()
        try Self.codedWave(SoundFileEncoding(rawValue: encoding), frames: 8_002, channels: 1, rate: 8_000, to: folder.file("in.wav"))
        #expect(try aurender([folder.file("in.wav"), folder.file("file.wav"), "--bits", "float"]).status == 0)
        let piped = try aurender(["-", folder.file("piped.wav"), "--bits", "float"], input: try Data(contentsOf: URL(fileURLWithPath: folder.file("in.wav"))))
        #expect(piped.status == 0, "\(piped.standardError)")
        let file = try samples(of: folder.file("file.wav")).samples
        #expect(file.count == frames, "the fact count (libsndfile's IMA ADPCM counts its padded block)")
        #expect(try samples(of: folder.file("piped.wav")).samples == file)
    }

    /// libsndfile refuses a CAF whose data chunk runs past the file's end when it opens it; the
    /// registry hands it to FFmpeg, which reads it held to the length its data chunk states: a
    /// cut is said with both counts, and `--salvage` keeps what decodes.
    @Test func aCutCAFIsHandedToFFmpegAndSalvaged() throws {
        let folder = try TemporaryFolder()
        let whole = try Self.source("caf", in: folder)
        let cut = folder.file("cut.caf"), output = folder.file("out.wav")
        try whole.prefix(whole.count * 6 / 10).write(to: URL(fileURLWithPath: cut))
        let failed = try aurender([cut, output])
        #expect(failed.status == 65)
        #expect(failed.standardError.hasPrefix("aurender: \(cut): the file states 44100 frames but holds only "), "\(failed.standardError)")
        #expect(!FileManager.default.fileExists(atPath: output))
        let found = try #require(Self.framesFound(failed.standardError))
        let forced = try aurender([cut, output, "--decoder", "sndfile"])
        #expect(forced.status == 65)
        #expect(forced.standardError == "aurender: \(cut): it is truncated or damaged: libsndfile finds its header malformed "
                + "and cannot read any of it\n")
        let salvaged = try aurender([cut, output, "--salvage"])
        #expect(salvaged.status == 0, "\(salvaged.standardError)")
        #expect(try samples(of: output).samples.count == 2 * found)
    }
}
