import Foundation
import TestSupport
import Testing

/// Files other encoders made, each built here (`OtherEncodersFiles`) as the issue measured them
/// refused: every one decodes as its reference decoder (`mpg123 -e f32 -w`, FFmpeg) does.
@Suite struct OtherEncodersFileTests {
    /// A second of a stereo sine encoded by aurender (libsndfile's LAME, gapless Info frame).
    static func lameMP3(in folder: TemporaryFolder, bitrate: String? = nil) throws -> [UInt8] {
        let tone = Signal.sine(frequency: 440, sampleRate: 44_100, frames: 44_100)
        try writeFloats(zip(tone, tone.reversed()).flatMap { [$0, $1] }, channels: 2, rate: 44_100, to: folder.file("source.wav"))
        let result = try aurender([folder.file("source.wav"), folder.file("lame.mp3")] + (bitrate.map { ["--bitrate", $0] } ?? []))
        #expect(result.status == 0, "\(result.standardError)")
        return [UInt8](try Data(contentsOf: URL(fileURLWithPath: folder.file("lame.mp3"))))
    }

    /// Renders `input` to float and checks it equals mpg123's decode, sample for sample.
    static func expectMpg123sSamples(_ input: String, in folder: TemporaryFolder, frames: Int? = nil) throws {
        let reference = try MP3DecoderTests.reference(input, in: folder)
        if let frames { #expect(reference.count == 2 * frames) }
        let result = try aurender([input, folder.file("out.wav"), "--bits", "float"])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardError.isEmpty, "\(result.standardError)")
        #expect(try samples(of: folder.file("out.wav")).samples == reference)
    }

    /// FFmpeg's libmp3lame writes `Lavc…` where LAME writes `LAME3.100`: the tag's delay and
    /// padding still trim the decode (aurender refused every such file: "states 45,… frames").
    @Test func anMP3TaggedByFFmpegDecodesGaplessly() throws {
        let folder = try TemporaryFolder()
        let input = folder.file("lavc.mp3")
        try Data(OtherEncodersFiles.retagged(try Self.lameMP3(in: folder), encoder: "Lavc59.37")).write(to: URL(fileURLWithPath: input))
        let info = try aurender(["info", input])
        #expect(info.output.contains("Decoder     : mpg123\n"), "\(info.output)")
        #expect(info.output.contains("Frames      : 44100\n"), "\(info.output)")
        try Self.expectMpg123sSamples(input, in: folder, frames: 44_100)
        let forced = try aurender(["info", input, "--decoder", "ffmpeg"])
        #expect(forced.output.contains("Frames      : 44100\n"), "aurender's own header reading trims a sound Lavc tag too: \(forced.output)")
    }

    /// MP3 in a WAV (format tag 0x55) whose `fact` chunk counts more frames than decode, as
    /// FFmpeg's `-f wav` writes it: libmpg123 reads it, and the count is no reason to refuse.
    @Test func anMP3InsideAWAVDecodesAsMpg123Does() throws {
        let folder = try TemporaryFolder()
        let lame = try Self.lameMP3(in: folder, bitrate: "128k")
        let input = folder.file("mp3.wav")
        try OtherEncodersFiles.mp3InWAV(Array(lame.dropFirst(417)), rate: 44_100, channels: 2, factFrames: 52_000)
            .write(to: URL(fileURLWithPath: input))
        let info = try aurender(["info", input])
        #expect(info.status == 0, "\(info.standardError)")
        #expect(info.output.contains("Container   : MPEG audio in WAV\n") && info.output.contains("Decoder     : mpg123\n"), "\(info.output)")
        try Self.expectMpg123sSamples(input, in: folder)
    }

    @Test func anMP3BehindAnID3v22TagDecodesAsMpg123Does() throws {
        let folder = try TemporaryFolder()
        let input = folder.file("id3v22.mp3")
        try Data(OtherEncodersFiles.id3v22(title: "Hello") + (try Self.lameMP3(in: folder))).write(to: URL(fileURLWithPath: input))
        try Self.expectMpg123sSamples(input, in: folder, frames: 44_100)
    }

    /// A Xing frame count that says more than the file holds, its byte count true: mpg123
    /// decodes the file whole without a word, so aurender does too (a count is no evidence).
    @Test func aXingFrameCountAloneIsNoEvidenceOfACut() throws {
        let folder = try TemporaryFolder()
        var bytes = try Self.lameMP3(in: folder)
        let count = try #require((0..<(bytes.count - 4)).first { ["Info", "Xing"].contains(String(decoding: bytes[$0..<($0 + 4)], as: UTF8.self)) }) + 8
        bytes[count + 3] &+= 10
        let input = folder.file("counted.mp3")
        try Data(bytes).write(to: URL(fileURLWithPath: input))
        try Self.expectMpg123sSamples(input, in: folder)
    }

    /// libsndfile implements no 64-bit integer PCM: it refuses the file, and FFmpeg, next in
    /// line, reads it.
    @Test func aSixtyFourBitWAVIsHandedToFFmpeg() throws {
        let folder = try TemporaryFolder()
        let tone = Signal.sine(frequency: 1_000, sampleRate: 48_000, frames: 4_800)
        let input = folder.file("pcm64.wav")
        try OtherEncodersFiles.pcm64WAV(tone, channels: 1, rate: 48_000).write(to: URL(fileURLWithPath: input))
        let info = try aurender(["info", input])
        #expect(info.output.contains("Decoder     : FFmpeg\n") && info.output.contains("Frames      : 4800\n"), "\(info.output)")
        let result = try aurender([input, folder.file("out.wav"), "--bits", "float"])
        #expect(result.status == 0, "\(result.standardError)")
        let decoded = try samples(of: folder.file("out.wav")).samples
        #expect(decoded.count == 4_800)
        #expect(zip(decoded, tone).map { abs($0 - $1) }.max() ?? 1 < 1e-6)
    }

    /// An Ogg file whose first stream is Theora video: libsndfile refuses it ("unimplemented
    /// format"), FFmpeg reads its Vorbis stream, to the frames FFmpeg's own command line gives
    /// (`ffmpeg -i theora-vorbis.ogg -vn -c:a pcm_f32le`: 10,897 of the 11,025 encoded; its
    /// granule count of 11,025 is the codec's, no evidence of a cut).
    @Test func anOggWithVideoIsReadByFFmpeg() throws {
        let folder = try TemporaryFolder()
        let input = fixture("ffmpeg/theora-vorbis.ogg")
        let info = try aurender(["info", input])
        #expect(info.output.contains("Decoder     : FFmpeg\n"), "\(info.output)")
        let result = try aurender([input, folder.file("out.wav"), "--bits", "float"])
        #expect(result.status == 0, "\(result.standardError)")
        let decoded = try samples(of: folder.file("out.wav")).samples
        #expect(decoded.count == 10_897)
        let rms = (decoded.map { Double($0 * $0) }.reduce(0, +) / Double(decoded.count)).squareRoot()
        #expect(abs(rms - 0.5 / 2.0.squareRoot()) < 0.02, "the half-scale sine: \(rms)")
        let forced = try aurender([input, folder.file("sndfile.wav"), "--decoder", "sndfile"])
        #expect(forced.standardError == "aurender: \(input): it holds audio in an encoding libsndfile does not implement\n")
    }

    /// Forcing libmpg123 on PCM would decode noise it resyncs to: it is refused.
    @Test func aWAVForcedThroughMpg123IsRefused() throws {
        let folder = try TemporaryFolder()
        let result = try aurender([fixture("music.wav"), folder.file("out.wav"), "--decoder", "mpg123"])
        #expect(result.status == 65)
        #expect(result.standardError == "aurender: \(fixture("music.wav")): not MPEG audio (MP3, MP2 or MP1), which is all libmpg123 decodes\n")
        #expect(!FileManager.default.fileExists(atPath: folder.file("out.wav")))
    }

    /// A valid file of no frames renders an empty output, exit 0, and says so on one line.
    @Test func aFileWithNoAudioSaysSo() throws {
        let folder = try TemporaryFolder()
        let input = folder.file("empty.wav")
        try writeFloats([], channels: 2, rate: 44_100, to: input)
        let result = try aurender([input, folder.file("out.wav"), "--quiet"])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardError == "aurender: \(input): the input holds no audio; \(folder.file("out.wav")) is empty\n")
        #expect(try samples(of: folder.file("out.wav")).samples.isEmpty)
        #expect(try aurender(["info", input]).output.contains("Frames      : 0\n"))
    }

    /// A mix names the input that held no audio; the others fill the output.
    @Test func aMixNamesItsEmptyInput() throws {
        let folder = try TemporaryFolder()
        let empty = folder.file("empty.wav"), output = folder.file("mix.wav")
        try writeFloats([], channels: 2, rate: 44_100, to: empty)
        let result = try aurender(["mix", empty, fixture("music.wav"), "--output", output, "--quiet"])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardError == "aurender: \(empty): the input holds no audio\n")
        #expect(try samples(of: output).samples.count == 2 * 132_300)
    }

    /// An empty FLAC output is a FLAC file (libsndfile writes its header with the first frame,
    /// so it used to be 0 bytes, which flac -t rejects), and reads back as no audio.
    @Test func anEmptyFLACOutputIsAFLACFile() throws {
        let folder = try TemporaryFolder()
        let input = folder.file("empty.wav"), flac = folder.file("empty.flac")
        try writeFloats([], channels: 2, rate: 44_100, to: input)
        #expect(try aurender([input, flac, "--quiet"]).status == 0)
        try ReferenceDecoderTests.run("flac", ["-t", "-s", flac])
        let again = try aurender([flac, folder.file("again.wav"), "--quiet"])
        #expect(again.standardError == "aurender: \(flac): the input holds no audio; \(folder.file("again.wav")) is empty\n")
        #expect(try samples(of: folder.file("again.wav")).samples.isEmpty)
    }

    /// LMMS's samples put their first audio packets on the setup header's page, against the
    /// Vorbis specification: oggdec (libvorbisfile) drops them and trims by the next page's
    /// granule. aurender gives oggdec's samples and shows the granule count as an estimate;
    /// libsndfile gave 1,024 frames more, at the start.
    @Test func anOggVorbisWithAudioOnTheSetupPageDecodesAsOggdecDoes() throws {
        let folder = try TemporaryFolder()
        let original = [UInt8](try Data(contentsOf: URL(fileURLWithPath: fixture("music.ogg"))))
        let lmms = OggPage.audioOnTheSetupPage(original)
        #expect(OggPage.pages(of: lmms).count == OggPage.pages(of: original).count - 1)
        let input = folder.file("lmms.ogg")
        try Data(lmms).write(to: URL(fileURLWithPath: input))
        try ReferenceDecoderTests.run("oggdec", ["-Q", "-o", folder.file("oggdec.wav"), input])
        let reference = try samples(of: folder.file("oggdec.wav")).samples
        let result = try aurender([input, folder.file("out.wav"), "--bits", "16", "--dither", "none"])
        #expect(result.status == 0, "\(result.standardError)")
        let ours = try samples(of: folder.file("out.wav")).samples
        #expect(ours.count < 2 * 132_300, "the packets on the setup page are not decoded")
        #expect(ours == reference)
        let info = try aurender(["info", "--json", input])
        let parsed = try #require(try JSONSerialization.jsonObject(with: info.standardOutput) as? [[String: Any]])
        #expect(parsed.first?["length"] as? String == "estimated")
    }

    /// An Ogg Vorbis file whose last page does not end its stream was cut, though every page
    /// in it is whole; bytes after the last page (a tag some program appended) cut nothing.
    @Test func anOggIsCutWhenItsLastPageDoesNotEndTheStream() throws {
        let folder = try TemporaryFolder()
        let original = [UInt8](try Data(contentsOf: URL(fileURLWithPath: fixture("music.ogg"))))
        let pages = OggPage.pages(of: original)
        let cut = folder.file("cut.ogg"), tagged = folder.file("tagged.ogg")
        try Data(pages.dropLast().flatMap(\.bytes)).write(to: URL(fileURLWithPath: cut))
        try Data(original + Array("TAG".utf8) + [UInt8](repeating: 0x20, count: 125)).write(to: URL(fileURLWithPath: tagged))
        let failed = try aurender([cut, folder.file("cut.wav")])
        #expect(failed.status == 65)
        #expect(failed.standardError == "aurender: \(cut): the file ends early, without the end of its stream, after \(pages[pages.count - 2].granule) frames (truncated or damaged)\n")
        #expect(!FileManager.default.fileExists(atPath: folder.file("cut.wav")))
        let whole = try aurender([tagged, folder.file("tagged.wav")])
        #expect(whole.status == 0, "\(whole.standardError)")
        #expect(try samples(of: folder.file("tagged.wav")).samples.count == 2 * 132_300)
    }
}
