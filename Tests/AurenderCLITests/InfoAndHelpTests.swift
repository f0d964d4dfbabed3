import Foundation
import TestSupport
import Testing

@Suite struct InfoAndHelpTests {
    @Test func infoDescribesFiles() throws {
        let result = try aurender(["info", fixture("music.wav"), fixture("speech.flac")])
        #expect(result.status == 0)
        #expect(result.output == """
            File        : \(fixture("music.wav"))
            Container   : WAV (Microsoft)
            Encoding    : Signed 16 bit PCM
            Decoder     : libsndfile
            Channels    : 2
            Sample rate : 44100 Hz
            Frames      : 132300
            Duration    : 00:00:03.000

            File        : \(fixture("speech.flac"))
            Container   : FLAC (Free Lossless Audio Codec)
            Encoding    : Signed 16 bit PCM
            Decoder     : libsndfile
            Channels    : 1
            Sample rate : 22050 Hz
            Frames      : 117884
            Duration    : 00:00:05.346

            """)
    }

    @Test func infoPrintsJSON() throws {
        let result = try aurender(["info", "--json", fixture("music.ogg"), "/missing.wav"])
        #expect(result.status == 66)
        #expect(result.standardError == "aurender: /missing.wav: No such file or directory\n")
        let parsed = try #require(try JSONSerialization.jsonObject(with: result.standardOutput) as? [[String: Any]])
        #expect(parsed.count == 1)
        #expect(parsed[0]["path"] as? String == fixture("music.ogg"))
        #expect(parsed[0]["encoding"] as? String == "Vorbis")
        #expect(parsed[0]["decoder"] as? String == "vorbisfile")
        #expect(parsed[0]["channels"] as? Int == 2)
        #expect(parsed[0]["sampleRate"] as? Double == 44100)
        #expect(parsed[0]["length"] as? String == "exact", "an Ogg file's last page states its length")
        #expect(Set(parsed[0].keys) == ["path", "container", "encoding", "decoder", "channels", "sampleRate", "frames", "durationSeconds", "length", "tags", "pictures", "markers"], "broadcastExtension and ixml only for a file with them")
    }

    @Test func infoNamesTheDecoderAndCanForceOne() throws {
        let chosen = try aurender(["info", fixture("ffmpeg/aac.m4a")])
        #expect(chosen.status == 0)
        #expect(chosen.output.contains("Encoding    : AAC (Advanced Audio Coding)\nDecoder     : FFmpeg\n"))
        #expect(chosen.output.contains("Frames      : 44100\n"))
        let forced = try aurender(["info", "--decoder", "ffmpeg", fixture("music.wav")])
        #expect(forced.status == 0)
        #expect(forced.output.contains("Decoder     : FFmpeg\n"))
        #expect(forced.output.contains("Frames      : 132300\n"))
    }

    @Test func helpAndVersion() throws {
        let help = try aurender(["--help"])
        #expect(help.status == 0)
        for text in ["USAGE: aurender <subcommand>", "render (default)", "info", "EXIT STATUS", "73  the output cannot be created"] {
            #expect(help.output.contains(text), "help lacks \(text)")
        }
        let renderHelp = try aurender(["render", "--help"])
        for text in ["--type <type>", "--bits <bits>", "--input-rate <hz>", "temporary file", "--frames-per-slice", "--output-folder <folder>"] {
            #expect(renderHelp.output.contains(text), "render help lacks \(text)")
        }
        let version = try aurender(["--version"])
        #expect(version.status == 0)
        #expect(version.output.split(separator: ".").count == 3)
    }

    @Test(arguments: ["bash", "zsh", "fish"])
    func completionScriptsKnowTheSubcommandsAndOptions(shell: String) throws {
        let result = try aurender(["--generate-completion-script", shell])
        #expect(result.status == 0)
        let options = ["normalize", "true-peak", "over-ceiling", "quiet", "loudness"]
        // Fish names long options without their dashes (`-l true-peak`).
        for word in ["render", "mix", "info", "diff", "presets"] + options.map({ shell == "fish" ? $0 : "--" + $0 }) {
            #expect(result.output.contains(word), "the \(shell) script lacks \(word)")
        }
    }

    @Test func renderHelpDescribesLoudnessAndMessages() throws {
        let help = try aurender(["render", "--help"])
        for text in ["--normalize <LUFS>", "--true-peak <dBTP>", "--over-ceiling <policy>", "-q, --quiet", "-v, --verbose",
                     "--report <file.json|file.html>", "--junit <file.xml>"] {
            #expect(help.output.contains(text), "render help lacks \(text)")
        }
    }

    @Test func bareAurenderPrintsTheOverviewAndIsAUsageError() throws {
        let result = try aurender([])
        #expect(result.status == 64)
        #expect(result.standardOutput.isEmpty)
        let help = try aurender(["--help"]).output
        let overview = result.standardError
        #expect(overview.hasPrefix("OVERVIEW: Render audio files through an offline audio graph"))
        #expect(help.hasPrefix(overview.components(separatedBy: "\n\n").prefix(2).joined(separator: "\n\n")),
                "it begins as --help begins: \(overview)")
        for shown in ["With no subcommand, renders INPUT to OUTPUT", "USAGE: aurender <subcommand>", "SUBCOMMANDS:", "render (default)",
                      "mix", "See 'aurender help <subcommand>'"] {
            #expect(overview.contains(shown), "the overview lacks \(shown)")
        }
        #expect(!overview.contains("EXIT STATUS"), "the longer discussion stays in --help")
        #expect(overview.split(separator: "\n").count < 40)
    }

    @Test func renderWithNoInputIsAUsageError() throws {
        let result = try aurender(["render"])
        #expect(result.status == 64)
        #expect(result.standardError.contains("Missing expected argument '<input>'"))
        let lines = result.standardError.split(separator: "\n")
        #expect(lines.count == 3 && lines[0] == "Error: Missing expected argument '<input>'"
                && lines[1].hasPrefix("Usage: aurender render ") && lines[2] == "  See 'aurender render --help' for more information.",
                "one line naming what is missing, then the short usage, not the help: \(result.standardError)")
        #expect(result.standardOutput.isEmpty)
    }

    /// Argument lists with an unknown option followed by what looks like its value; IN and OUT
    /// stand for a real input and an output that must not be written.
    static let unknownOptionCases: [[String]] = [
        ["IN", "OUT", "--frobnicate", "3"],
        ["--frobnicate", "3", "IN", "OUT"],
        ["--frobnicate", "3"],
        ["--frobnicate"],
        ["render", "IN", "OUT", "--frobnicate", "3"],
        ["-o", "OUT", "IN", "--frobnicate", "3"],
        ["mix", "--frobnicate", "3", "IN", "-o", "OUT"],
        ["info", "--frobnicate", "x"],
        ["presets", "--frobnicate", "3"],
    ]

    @Test(arguments: unknownOptionCases)
    func anUnknownOptionIsNamedEvenWhenAValueFollows(arguments: [String]) throws {
        let folder = try TemporaryFolder()
        let result = try aurender(arguments.map { $0 == "IN" ? fixture("music.wav") : ($0 == "OUT" ? folder.file("out.wav") : $0) })
        #expect(result.status == 64)
        let lines = result.standardError.split(separator: "\n")
        #expect(lines.first == "Error: Unknown option '--frobnicate'", "\(result.standardError)")
        #expect(lines.dropFirst().first?.hasPrefix("Usage: aurender ") == true, "\(result.standardError)")
        #expect(folder.contents().isEmpty, "nothing written")
    }
}
