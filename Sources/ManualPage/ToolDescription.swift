/// The part of the argument parser's `--experimental-dump-help` JSON a manual page needs.
struct ToolDescription: Decodable {
    var command: Command

    /// A command or subcommand.
    struct Command: Decodable {
        var commandName: String
        var abstract: String?
        var discussion: String?
        var defaultSubcommand: String?
        var shouldDisplay: Bool?
        var subcommands: [Command]?
        var arguments: [Argument]?
    }

    /// A flag, option or positional argument.
    struct Argument: Decodable {
        var kind: String
        var names: [Name]?
        var valueName: String?
        var abstract: String?
        var discussion: String?
        var defaultValue: String?
        var isRepeating: Bool?
        var shouldDisplay: Bool?
        var sectionTitle: String?
    }

    /// One spelling of an argument: `-o` is short, `--output` long.
    struct Name: Decodable {
        var kind: String
        var name: String
    }
}
