import Foundation
import Synchronization
import TestSupport
import Testing

/// The manual page (`make man`) and the help text: rendered without warnings, tables kept as
/// tables, no line run on past the width, defaults shown.
@Suite struct ManualAndHelpTests {
    /// Runs `executable` with `arguments`, feeding `input`; its status, output and errors.
    func run(_ executable: String, _ arguments: [String], input: Data = Data(),
             environment: [String: String]? = nil) throws -> (status: Int32, output: String, errors: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if let environment { process.environment = environment }
        let stdin = Pipe(), stdout = Pipe(), stderr = Pipe()
        (process.standardInput, process.standardOutput, process.standardError) = (stdin, stdout, stderr)
        try process.run()
        let writer = Thread {
            try? stdin.fileHandleForWriting.write(contentsOf: input)
            try? stdin.fileHandleForWriting.close()
        }
        writer.start()
        let errors = Mutex(Data()), errorsRead = DispatchSemaphore(value: 0)
        Thread {
            let read = stderr.fileHandleForReading.readDataToEndOfFile()
            errors.withLock { $0 = read }
            errorsRead.signal()
        }.start()
        let output = stdout.fileHandleForReading.readDataToEndOfFile()
        errorsRead.wait()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: output, as: UTF8.self), String(decoding: errors.withLock { $0 }, as: UTF8.self))
    }

    /// The page `make man` writes, made the same way.
    func manualPage() throws -> String {
        let description = try aurender(["--experimental-dump-help"])
        #expect(description.status == 0)
        let generator = URL(fileURLWithPath: aurenderPath).deletingLastPathComponent().appendingPathComponent("ManualPage").path
        let page = try run(generator, ["November 23, 2026"], input: description.standardOutput)
        #expect(page.status == 0 && page.errors.isEmpty, "\(page.errors)")
        return page.output
    }

    /// groff, which `make deps` installs: the test fails, never passes, without it.
    func groff() throws -> String {
        let found = ["/usr/bin/groff", "/usr/local/bin/groff", "/opt/homebrew/bin/groff"].first { FileManager.default.isExecutableFile(atPath: $0) }
        return try #require(found, "groff is missing: run make deps")
    }

    @Test func theManualPageRendersWithoutWarnings() throws {
        let page = try manualPage()
        #expect(page.hasPrefix(".Dd November 23, 2026\n.Dt AURENDER 1\n"))
        let checked = try run(try groff(), ["-man", "-ww", "-z"], input: Data(page.utf8))
        #expect(checked.status == 0)
        #expect(checked.errors == "", "groff warns: \(checked.errors)")
        #expect(!page.contains("\n\n"), "no empty input lines")
    }

    @Test func theManualPageKeepsTablesAndShowsDefaults() throws {
        let rendered = try run(try groff(), ["-man", "-Tascii", "-P-cbou", "-rLL=80n"], input: Data(try manualPage().utf8),
                               environment: ["PATH": "/usr/bin:/bin:/usr/local/bin"])
        #expect(rendered.status == 0, "\(rendered.errors)")
        let lines = rendered.output.split(separator: "\n").map(String.init)
        #expect(lines.allSatisfy { $0.count <= 80 }, "\(lines.filter { $0.count > 80 })")
        let rows = lines.map { $0.split(separator: " ").joined(separator: " ") }
        // Each row of a table starts a line of its own.
        for row in ["0 success", "1 aurender diff:", "64 usage error:", "130, 143 interrupted by SIGINT", "gain=DB gain in dB (default 0)",
                    "mute pull the input", "-h, --help"] {
            #expect(rows.contains { $0.hasPrefix(row) }, "no line of the page starts with \(row)")
        }
        let text = rows.joined(separator: " ")
        for text in ["--src-quality quality", "Default: best.", "Default: soxr.", "Default: warn.", "--shard K/N", "AURENDER RENDER", "AURENDER MIX", "AURENDER REPORT MERGE"] {
            #expect(rows.joined(separator: " ").contains(text), "the page lacks \(text)")
        }
        #expect(!text.contains("\\e") && !text.contains("\\&"), "no roff escapes left over")
    }

    static let commands = [[], ["render"], ["mix"], ["info"], ["formats"], ["presets"], ["diff"], ["report", "merge"]]

    @Test(arguments: commands)
    func helpIsWrappedWithoutRunOnLines(command: [String]) throws {
        let help = try run(aurenderPath, command + ["--help"], environment: ["COLUMNS": "80"])
        #expect(help.status == 0)
        let lines = help.output.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.allSatisfy { $0.count <= 100 }, "\(lines.filter { $0.count > 100 })")
        // Unwrapped, the discussion shows its lines as written: a line wider than the help is
        // only fine as a paragraph of its own, which the parser fills; within a table or a
        // paragraph of set lines, it would break mid-row.
        let wide = try run(aurenderPath, command + ["--help"], environment: ["COLUMNS": "1000"]).output
        let discussion = wide.split(separator: "\n", omittingEmptySubsequences: false).dropFirst(2).prefix { !$0.hasPrefix("USAGE:") }
        for (line, next) in zip(discussion, discussion.dropFirst()) where line.count > 80 {
            #expect(next.isEmpty, "\(command): a set line wider than 80 columns breaks mid-row: \(line)")
        }
    }

    @Test func helpShowsDefaults() throws {
        let help = try run(aurenderPath, ["render", "--help"], environment: ["COLUMNS": "80"]).output
        let text = help.split(whereSeparator: { $0 == " " || $0 == "\n" }).joined(separator: " ")
        for shown in ["--src-quality <quality>", "default: best)", "(default: soxr)", "default: warn)", "--shard <K/N>"] {
            #expect(text.contains(shown), "render --help lacks \(shown)")
        }
    }
}
