import ArgumentParser
import Aurender

/// `aurender nodes [KIND]`: the node kinds graph files and `--chain` stages name, and a kind's
/// fields with what each takes, printed from the catalogue's descriptions, so the listing shows
/// every registered kind and cannot drift from what the kinds check.
struct NodesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "nodes",
        abstract: "List the node kinds of graph files and --chain stages, or one kind's fields with their ranges and defaults.",
        discussion: """
            A kind's settings are fixed when its node is made; its parameters are fields too, and a graph file's events \
            change them while rendering (a bus's or a band's by index: gain[N]).
            """
    )

    @Argument(help: ArgumentHelp("The kind whose fields to list.", valueName: "kind"))
    var kind: String?

    func run() throws {
        guard let name = kind else {
            print(Self.kindsText(NodeCatalogue.kinds), terminator: "")
            return
        }
        guard let kind = NodeCatalogue.kind(named: name) else {
            throw fail("no node kind '\(name)' (there are \(NodeCatalogue.kindNames.joined(separator: ", ")))", .usage)
        }
        print(Self.fieldsText(kind), terminator: "")
    }

    /// Every kind's name and summary, one a line.
    static func kindsText(_ kinds: [NodeKind]) -> String {
        let width = (kinds.map(\.name.count).max() ?? 0) + 2
        return kinds.map { "\($0.name.padded(to: width))\($0.summary)\n" }.joined() + "See 'aurender nodes KIND' for a kind's fields.\n"
    }

    /// A kind's summary, then its settings and its parameters, each with what it takes.
    static func fieldsText(_ kind: NodeKind) -> String {
        var lines = ["\(kind.name): \(kind.summary)"]
        if !kind.settings.isEmpty {
            lines.append("Settings:")
            lines += settingLines(kind.settings, indent: "  ")
        }
        if !kind.parameters.isEmpty {
            lines.append("Parameters (fields too; events change them while rendering):")
            let width = (kind.parameters.map(\.name.count).max() ?? 0) + 2
            lines += kind.parameters.map { "  \($0.name.padded(to: width))\(taken(by: $0, of: kind))" }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private static func settingLines(_ settings: [SettingDescription], indent: String) -> [String] {
        let width = (settings.map(\.name.count).max() ?? 0) + 2
        return settings.flatMap { setting -> [String] in
            let required = setting.isRequired ? " (required)" : ""
            let line = "\(indent)\(setting.name.padded(to: width))\(taken(by: setting.type))\(required): \(setting.summary)"
            guard case .list(let fields) = setting.type else { return [line] }
            return [line + "; each with:"] + settingLines(fields, indent: indent + "  ")
        }
    }

    /// What a setting takes, in words.
    private static func taken(by type: SettingDescription.ValueType) -> String {
        switch type {
        case .number(let unit, let range): KindRanges.text(range, unit: unit.symbol)
        case .integer(let range): "a whole number, " + KindRanges.text(Double(range.lowerBound)...Double(range.upperBound))
        case .text: "a text"
        case .choice(let names): alternatives(names)
        case .flag: "true or false"
        case .time: "a time"
        case .list: "a list of objects"
        }
    }

    /// What a parameter of `kind` takes and where it starts.
    private static func taken(by parameter: ParameterDescription, of kind: NodeKind) -> String {
        switch parameter.unit {
        case .boolean: "true or false (default \(parameter.defaultValue != 0))"
        case .indexed(let choices) where choices.isEmpty: "one of the choices the node is made with"
        case .indexed(let choices): "\(alternatives(choices)) (default \(parameter.describe(parameter.defaultValue)))"
        default: "\(KindRanges.text(kind, parameter.name, unit: parameter.unit.symbol)) (default \(parameter.describe(parameter.defaultValue)))"
        }
    }

    private static func alternatives(_ names: [String]) -> String {
        names.count < 2 ? names.joined() : names.dropLast().joined(separator: ", ") + " or " + names.last!
    }
}
