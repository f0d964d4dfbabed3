import Foundation
import TestSupport
import Testing

/// The completion scripts the binary prints: the default subcommand's options at the top level,
/// and the values of the options that take names.
@Suite struct CompletionTests {
    /// What the script for `shell` offers, by the name each shell writes options under.
    static let options = ["eq", "src-quality", "type", "bits", "decoder", "resampler", "shard", "gain", "volume"]
    static let presets = ["Bass Booster", "Increase Bass", "R&B", "Spoken Word"]
    static let words = ["fastest", "zoh", "flac", "rf64", "float", "24", "sndfile", "ffmpeg", "soxr", "libsamplerate"]

    @Test(arguments: ["bash", "zsh", "fish"])
    func scriptsNameTheOptionsAndTheirValues(shell: String) throws {
        let result = try aurender(["--generate-completion-script", shell])
        #expect(result.status == 0, "\(result.standardError)")
        for option in Self.options {
            #expect(result.output.contains(shell == "fish" ? "-l '\(option)'" : "--\(option)"), "the \(shell) script lacks \(option)")
        }
        for preset in Self.presets {
            // Fish tokenizes a list's text: a name with a space or an ampersand is quoted inside it.
            #expect(result.output.contains(shell == "fish" ? "\"\(preset)\"" : "'\(preset)'"), "the \(shell) script lacks \(preset), quoted")
        }
        for word in Self.words {
            let listed = shell == "fish" ? [" \(word) ", "'\(word) ", " \(word)'"].contains { result.output.contains($0) } : result.output.contains("'\(word)'")
            #expect(listed, "the \(shell) script does not offer \(word)")
        }
        #expect(result.output.contains("# No subcommand named: the words are the default subcommand's."),
                "the \(shell) script completes the default subcommand's options without its name")
        let equals = try aurender(["--generate-completion-script=\(shell)"])
        #expect(equals.output == result.output)
    }

    /// What bash's completion function offers for `line` (the word under the cursor is its
    /// last, empty when it ends in a space), run as bash runs it on a TAB.
    func bashCompletions(_ line: String) throws -> [String] {
        let folder = try TemporaryFolder()
        try aurender(["--generate-completion-script", "bash"]).standardOutput.write(to: URL(fileURLWithPath: folder.file("aurender.bash")))
        let driver = """
            source "$1"
            COMP_LINE="$2"; COMP_POINT=${#COMP_LINE}
            read -ra COMP_WORDS <<< "$COMP_LINE"
            [[ "$COMP_LINE" == *" " ]] && COMP_WORDS+=("")
            COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
            COMPREPLY=()
            _aurender aurender "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
            printf '%s\\n' "${COMPREPLY[@]}"
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["-c", driver, "bash", folder.file("aurender.bash"), line]
        process.currentDirectoryURL = URL(fileURLWithPath: folder.path)
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let complaints = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0 && complaints.isEmpty, "bash: \(complaints)")
        return printed.split(separator: "\n").map(String.init)
    }

    @Test func bashCompletesTheDefaultSubcommandsOptionsAtTheTop() throws {
        let top = try bashCompletions("aurender --")
        for option in ["--eq", "--src-quality", "--shard", "--gain", "--output-folder", "--version", "--help"] {
            #expect(top.contains(option), "aurender --<TAB> lacks \(option): \(top)")
        }
        #expect(try bashCompletions("aurender in.wav --ty") == ["--type"])
        #expect(try bashCompletions("aurender render --sh") == ["--shard"])
        let mix = try bashCompletions("aurender mix --")
        #expect(mix.contains("--volume") && !mix.contains("--shard") && !mix.contains("--eq"), "mix's own options: \(mix)")
    }

    @Test func bashCompletesOptionValues() throws {
        #expect(try bashCompletions("aurender --eq B") == ["Bass Booster", "Bass Reducer"])
        #expect(try bashCompletions("aurender in.wav out.wav --eq Inc") == ["Increase Bass", "Increase Treble", "Increase Vocals"])
        #expect(try bashCompletions("aurender --src-quality ") == ["best", "high", "medium", "fastest", "zoh", "linear"])
        #expect(try bashCompletions("aurender mix --src-quality f") == ["fastest"])
        #expect(try bashCompletions("aurender --type fl") == ["flac"])
        #expect(try bashCompletions("aurender --bits ") == ["8", "16", "24", "32", "float", "double"])
        #expect(try bashCompletions("aurender --resampler ") == ["soxr", "libsamplerate"])
        #expect(try bashCompletions("aurender info --decoder ") == ["vorbisfile", "opus", "sndfile", "mpg123", "ffmpeg"])
        #expect(try bashCompletions("aurender presets R") == ["Reduce Bass", "R&B", "Rock", "Reduce Treble"])
    }

    @Test func bashOffersSubcommandsAndFilesFirst() throws {
        let first = try bashCompletions("aurender ")
        for word in ["render", "mix", "info", "formats", "presets", "diff", "aurender.bash"] {
            #expect(first.contains(word), "aurender <TAB> lacks \(word): \(first)")
        }
        #expect(try bashCompletions("aurender pr") == ["presets"])
        #expect(try bashCompletions("aurender --eq Pop aur") == ["aurender.bash"], "the default subcommand's files")
    }
}
