import Foundation
import TestSupport
import Testing

/// `aurender formats`: what this build reads and writes, per decoder and encoder.
@Suite struct FormatsCommandTests {
    @Test func theTextNamesTheDecoderOfEachContainer() throws {
        let result = try aurender(["formats"])
        #expect(result.status == 0, "\(result.standardError)")
        let lines = result.output.split(separator: "\n").map(String.init)
        let reads = Array(lines.prefix { !$0.hasPrefix("Writes") })
        #expect(reads.contains("  wav        libsndfile  WAV (Microsoft)"))
        #expect(reads.contains("  flac       libsndfile  FLAC (Free Lossless Audio Codec)"))
        #expect(reads.contains("  mp4        FFmpeg      MPEG-4 audio; MPEG-4 audio (AAC); MPEG-4 audio (ALAC)"))
        #expect(reads.contains("  adts       FFmpeg      ADTS AAC audio"))
        #expect(reads.contains("  other inputs are tried by libsndfile, then FFmpeg"))
        let writes = lines.drop { !$0.hasPrefix("Writes") }
        #expect(writes.contains { $0.hasPrefix("  flac       libFLAC     FLAC (Free Lossless Audio Codec) (.flac): pcm8, pcm16, pcm24") },
                "\(result.output)")
        #expect(writes.contains { $0.hasPrefix("  ogg        libsndfile  ") && $0.hasSuffix(": vorbis, opus") }, "\(result.output)")
        #expect(writes.filter { $0.contains("FFmpeg") } == ["  mp4        FFmpeg      MPEG-4 audio (M4A) (.m4a): aac, alac, alac24"],
                "FFmpeg writes .m4a only")
    }

    @Test func theJSONHasEveryDecoder() throws {
        let result = try aurender(["formats", "--json"])
        #expect(result.status == 0, "\(result.standardError)")
        let parsed = try #require(try JSONSerialization.jsonObject(with: result.standardOutput) as? [String: Any])
        #expect(parsed["decoders"] as? [String] == ["vorbisfile", "libopus", "libsndfile", "mpg123", "FFmpeg"])
        let reads = try #require(parsed["reads"] as? [[String: Any]])
        func decoder(of container: String) -> String? {
            reads.first { $0["container"] as? String == container }?["decoder"] as? String
        }
        #expect(decoder(of: "wav") == "libsndfile")
        #expect(decoder(of: "mp4") == "FFmpeg")
        #expect(decoder(of: "mp3") == "mpg123")
        #expect(decoder(of: "wav-mpeg") == "mpg123")
        #expect(decoder(of: "wavpack") == "FFmpeg")
        let writes = try #require(parsed["writes"] as? [[String: Any]])
        let wav = try #require(writes.first { $0["container"] as? String == "wav" })
        #expect(wav["encoder"] as? String == "libsndfile")
        #expect((wav["encodings"] as? [String])?.contains("pcm16") == true)
        #expect((wav["extensions"] as? [String]) == ["wav", "wave"])
    }

    @Test func formatsIsASubcommandNotAFileName() throws {
        let help = try aurender(["--help"])
        #expect(help.output.contains("formats"), "\(help.output)")
        #expect(try aurender(["formats", "--help"]).output.contains("--json"))
    }
}
