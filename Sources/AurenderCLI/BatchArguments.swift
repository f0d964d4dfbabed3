/// The arguments that make a batch the batch it is, as its report names them: what every share of
/// one batch is given alike, so `aurender report merge` can tell its shares from another batch's.
enum BatchArguments {
    /// Options whose value may differ between the shares of one batch without changing an output.
    static let perShareOptions: Set<String> = ["--shard", "--report", "--junit", "-j"]
    /// Flags that may differ between the shares without changing an output.
    static let perShareFlags: Set<String> = ["--json", "-q", "--quiet", "-v", "--verbose"]

    /// `arguments` (the command's, without the program's name) less the subcommand's name
    /// `render`, which may be left out, and the options and flags a share may give differently:
    /// `--shard`, `--report`, `--junit` and `-j` with their values (`--shard 2/4`, `--shard=2/4`), `--json`,
    /// `-q` and `-v`. Everything after `--` is kept as it is.
    static func identifying(_ arguments: [String]) -> [String] {
        var kept: [String] = [], remaining = arguments[...]
        if remaining.first == "render" { remaining = remaining.dropFirst() }
        while let argument = remaining.popFirst() {
            if argument == "--" {
                kept.append(argument)
                kept += remaining
                break
            }
            if perShareOptions.contains(argument) {
                remaining = remaining.dropFirst()
            } else if !perShareFlags.contains(argument), !perShareOptions.contains(where: { argument.hasPrefix($0 + "=") }) {
                kept.append(argument)
            }
        }
        return kept
    }
}
