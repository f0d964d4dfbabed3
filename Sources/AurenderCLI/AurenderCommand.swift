import ArgumentParser
import Aurender
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The `aurender` command: renders audio files through an audio graph, offline.
@main
struct AurenderCommand: ParsableCommand {
    /// Installs the interrupt cleanup, then parses, checks the positional arguments of, and runs the command.
    static func main() {
        InterruptCleanup.install()
        if let shell = requestedCompletionShell() {
            return print(CompletionScripts.script(for: shell))
        }
        if CommandLine.arguments.count == 1 {
            writeToStandardError(shortOverview())
            exit(withError: ExitCode(ExitStatus.usage.rawValue))
        }
        do {
            var command = try parseAsRoot(EffectsOptions.expandingBareVoiceFlags(Array(CommandLine.arguments.dropFirst())))
            if let counted = command as? PositionalArgumentsValidating {
                do {
                    try counted.validatePositionalArguments()
                } catch let error as ValidationError {
                    throw usageError(error.message, in: type(of: counted))
                }
            }
            try command.run()
        } catch {
            exit(withError: error)
        }
    }

    /// The shell whose completion script the arguments ask for, if that is all they ask; other
    /// uses of the flag are left to the parser, which explains them.
    private static func requestedCompletionShell() -> CompletionShell? {
        let arguments = CommandLine.arguments.dropFirst()
        let flag = "--generate-completion-script"
        if arguments.count == 2, arguments.first == flag { return CompletionShell(rawValue: arguments.last!) }
        if arguments.count == 1, let only = arguments.first, only.hasPrefix(flag + "=") {
            return CompletionShell(rawValue: String(only.dropFirst(flag.count + 1)))
        }
        return nil
    }

    /// What bare `aurender` prints, as SoX and git print a short usage: the start of `--help` (what
    /// the command is and does with no subcommand) and its usage and subcommands, without the
    /// longer discussion.
    static func shortOverview() -> String {
        let help = helpMessage(columns: 80)
        let sections = help.components(separatedBy: "\n\n")
        let usage = sections.firstIndex { $0.hasPrefix("USAGE:") } ?? sections.endIndex
        return (sections.prefix(2) + sections[usage...]).joined(separator: "\n\n")
    }

    /// Prints a usage error as the parser prints its own (the message, `subcommand`'s short usage
    /// and where its help is) and returns the status it ends the command with.
    private static func usageError(_ message: String, in subcommand: ParsableCommand.Type) -> ExitCode {
        let name = subcommand.configuration.commandName ?? ""
        writeToStandardError("Error: \(message)\nUsage: \(usageString(for: subcommand))\n  See 'aurender \(name) --help' for more information.\n")
        return ExitCode(ExitStatus.usage.rawValue)
    }

    static let configuration = CommandConfiguration(
        commandName: "aurender",
        abstract: "Render audio files through an offline audio graph, as fast as the disk allows.",
        discussion: """
            With no subcommand, renders INPUT to OUTPUT (see 'aurender render --help').

            Standard error carries only errors and warnings, plus a progress line when it is a \
            terminal (none with --quiet); reports and plans go to standard output or files. \
            Shell completions: aurender --generate-completion-script bash|zsh|fish.

            EXIT STATUS
              0   success
              1   aurender diff: the files differ beyond the tolerance
              3   the output would clip and --on-clip fail was given, or --normalize
                  would put the true peak over the ceiling (nothing written)
              64  usage error: bad option, unknown preset or container, output is an input
              65  the input is not usable audio (unrecognised, damaged, no channels, bad
                  rate), too quiet or short to normalize, or without a stored
                  gain for --replaygain
              66  the input cannot be opened (missing, unreadable, a directory)
              70  internal error (a bug: please report it)
              73  the output cannot be created (missing folder, no permission)
              74  reading or writing failed midway (disk full, I/O error)
              130, 143  interrupted by SIGINT or SIGTERM (the temporary output is removed)
            With -o FOLDER, the status is that of the first file that failed.
            """,
        version: AurenderVersion.string,
        subcommands: [RenderCommand.self, MixCommand.self, InfoCommand.self, FormatsCommand.self, PresetsCommand.self, DiffCommand.self,
                      BatchCommand.self, LoudnessCommand.self, PluginsCommand.self, NodesCommand.self, ReportCommand.self],
        defaultSubcommand: RenderCommand.self
    )
}

/// A subcommand whose positional arguments are checked once parsing is over, not in `validate()`.
///
/// The parser takes the value after an unknown option (the `3` of `--frobnicate 3`) for a
/// positional argument, and calls `validate()` before it reports unknown options: counting the
/// positional arguments there would blame their number instead of naming the unknown option.
protocol PositionalArgumentsValidating: ParsableCommand {
    /// Throws a `ValidationError` when the positional arguments do not fit together.
    func validatePositionalArguments() throws
}

/// The version `--version` prints.
enum AurenderVersion {
    static let string = "0.1.0"
}
