import ArgumentParser

/// `aurender report`: what can be done with the JSON reports renders write.
struct ReportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Work with the JSON reports of renders (--report).",
        subcommands: [ReportMergeCommand.self]
    )
}
