/// A command's manual page in mdoc, from its description.
struct ManualPage {
    let root: ToolDescription.Command
    let date: String

    init(_ root: ToolDescription.Command, date: String) {
        self.root = root
        self.date = date
    }

    /// The page's source.
    var text: String {
        var lines = [".Dd \(date)", ".Dt \(root.commandName.uppercased()) 1", ".Os", ".Sh NAME", ".Nm \(root.commandName)",
                     ".Nd " + Self.escaped(root.abstract ?? "")]
        lines += [".Sh SYNOPSIS", ".Nm", ".Op Ar subcommand", ".Op Ar options", ".Op Ar arguments"]
        lines += [".Sh DESCRIPTION"] + Self.prose(root.discussion ?? "")
        lines += options(of: root)
        for command in root.subcommands ?? [] { lines += section(of: command, under: root, named: [root.commandName]) }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The section of `command`, a subcommand of `parent` (whose names, from the root's, are
    /// `path`), followed by those of its own subcommands (`AURENDER REPORT MERGE`).
    private func section(of command: ToolDescription.Command, under parent: ToolDescription.Command, named path: [String]) -> [String] {
        guard command.shouldDisplay ?? true, !(command.arguments ?? []).isEmpty else { return [] }
        let names = path + [command.commandName]
        let isDefault = command.commandName == parent.defaultSubcommand
        var lines = [".Sh " + names.joined(separator: " ").uppercased()]
        lines += Self.prose((command.abstract ?? "") + (isDefault ? " Its name may be left out." : ""))
        if let discussion = command.discussion, !discussion.isEmpty { lines += [".Pp"] + Self.prose(discussion) }
        lines += options(of: command)
        for subcommand in command.subcommands ?? [] { lines += section(of: subcommand, under: command, named: names) }
        return lines
    }

    /// The arguments of `command`, a tagged list for each section of its help.
    private func options(of command: ToolDescription.Command) -> [String] {
        let shown = (command.arguments ?? []).filter { $0.shouldDisplay ?? true }
        var lines: [String] = [], section: String?? = .none
        for argument in shown {
            if section != .some(argument.sectionTitle) {
                if section != .none { lines.append(".El") }
                section = .some(argument.sectionTitle)
                if let title = argument.sectionTitle { lines += [".Pp", ".Sy " + Self.escaped(title)] }
                lines.append(".Bl -tag -width Ds")
            }
            lines.append(".It " + Self.synopsis(of: argument))
            var help = argument.abstract ?? ""
            if let value = argument.defaultValue, !value.isEmpty { help += " Default: \(value)." }
            lines += Self.prose(help)
            if let discussion = argument.discussion, !discussion.isEmpty { lines += [".Pp"] + Self.prose(discussion) }
        }
        if section != .none { lines.append(".El") }
        return lines
    }

    /// `Fl o , Fl -output Ar file` for an option, `Ar files ...` for a repeating positional.
    private static func synopsis(of argument: ToolDescription.Argument) -> String {
        let value = argument.valueName.map { "Ar " + macroArgument($0) }
        guard argument.kind != "positional" else { return (value ?? "Ar value") + (argument.isRepeating == true ? " ..." : "") }
        let names = (argument.names ?? []).map { name in
            "Fl " + (name.kind == "long" ? "-" : "") + macroArgument(name.name)
        }
        let joined = names.joined(separator: " , ")
        return argument.kind == "option" ? joined + " " + (value ?? "Ar value") : joined
    }

    /// Text as mdoc: blank lines part paragraphs, a line in capitals is a subsection heading,
    /// other lines are filled; a run of indented lines is a table, kept as a tagged list when
    /// each row is a tag and its text two spaces apart (deeper lines continuing a row), else
    /// line for line in a literal display.
    static func prose(_ text: String) -> [String] {
        var lines: [String] = [], block: [String] = [], paragraphDue = false
        func flush() {
            guard !block.isEmpty else { return }
            lines += table(block)
            block = []
        }
        for line in text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if line.allSatisfy({ $0 == " " }) {
                flush()
                paragraphDue = !lines.isEmpty
                continue
            }
            if line.hasPrefix(" ") {
                if block.isEmpty, paragraphDue { lines.append(".Pp") }
                paragraphDue = false
                block.append(line)
                continue
            }
            if !block.isEmpty { paragraphDue = true }
            flush()
            let isHeading = line.count > 1 && line.allSatisfy { $0.isUppercase || $0 == " " }
            if paragraphDue, !isHeading { lines.append(".Pp") }
            paragraphDue = false
            lines.append(isHeading ? ".Ss " + escaped(line) : escaped(line))
        }
        flush()
        return lines
    }

    /// Indented lines as a tagged list or, when a row has no tag, a literal display.
    private static func table(_ block: [String]) -> [String] {
        let indent = block.map { $0.prefix { $0 == " " }.count }.min() ?? 0
        var rows: [(tag: String, text: String)] = []
        for line in block {
            let body = String(line.dropFirst(indent))
            if body.hasPrefix(" "), !rows.isEmpty {
                rows[rows.count - 1].text += " " + body.drop { $0 == " " }
            } else if let gap = body.firstRange(of: "  ") {
                rows.append((String(body[..<gap.lowerBound]), String(body[gap.upperBound...].drop { $0 == " " })))
            } else {
                return [".Bd -literal"] + block.map { escaped(String($0.dropFirst(indent))) } + [".Ed"]
            }
        }
        let width = rows.map(\.tag.count).max() ?? 0
        return [".Bl -tag -width \(String(repeating: "x", count: width + 1)) -compact"]
            + rows.flatMap { [".It " + macroArgument($0.tag), escaped($0.text)] } + [".El"]
    }

    /// Text safe as a roff text line: backslashes written `\e`, a leading dot or quote guarded.
    static func escaped(_ text: String) -> String {
        let line = text.replacing("\\", with: "\\e")
        return line.hasPrefix(".") || line.hasPrefix("'") ? "\\&" + line : line
    }

    /// A word safe as an mdoc macro argument: quoted when it holds spaces.
    private static func macroArgument(_ word: String) -> String {
        let safe = escaped(word).replacing("\"", with: "\\(dq")
        return safe.contains(" ") ? "\"\(safe)\"" : safe
    }
}
