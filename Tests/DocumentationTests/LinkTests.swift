import Foundation
import TestSupport
import Testing

/// Every relative link of the Markdown documents (the README, ARCHITECTURE.md and the guide in
/// docs/) points at a file of the package, so a moved page cannot leave a link behind.
@Suite struct LinkTests {
    /// The documents checked, relative to the package root.
    static var documents: [String] {
        ["README.md", "ARCHITECTURE.md"] + Snippets.markdownFiles(in: "docs")
    }

    @Test(arguments: documents)
    func everyRelativeLinkResolves(document: String) throws {
        let text = try String(contentsOfFile: packageRoot + "/" + document, encoding: .utf8)
        let folder = document.split(separator: "/").dropLast().joined(separator: "/")
        for link in Self.relativeLinks(in: text) {
            let path = String(link.prefix { $0 != "#" })
            guard !path.isEmpty else { continue }
            let resolved = URL(fileURLWithPath: packageRoot + "/" + folder).appendingPathComponent(path).standardized.path
            #expect(FileManager.default.fileExists(atPath: resolved), "\(document): the link '\(link)' points at no file")
        }
    }

    @Test func theGuideHasPages() {
        #expect(Self.documents.count > 10)
    }

    /// The targets of the links and images in `text` that name no scheme (`https:`, `mailto:`),
    /// outside code blocks and code spans.
    static func relativeLinks(in text: String) -> [String] {
        var targets: [String] = []
        var inBlock = false
        for line in text.components(separatedBy: "\n") {
            if line.trimmingCharacters(in: .whitespaces).hasPrefix("```") {
                inBlock.toggle()
                continue
            }
            guard !inBlock else { continue }
            let prose = line.replacing(/`[^`]*`/, with: "")
            for match in prose.matches(of: /\]\(([^)\s]+)\)/) {
                let target = String(match.output.1)
                if !target.contains(":") { targets.append(target) }
            }
        }
        return targets
    }

    @Test func linksAreFoundOutsideCodeAndWithoutSchemes() {
        let text = """
            See [the guide](docs/README.md#synopsis), ![a plot](presets/a.svg) and [a site](https://example.org).
            `[not](a-link.md)` and [the top](#top).
            ```
            [also not](in-a-block.md)
            ```
            """
        #expect(Self.relativeLinks(in: text) == ["docs/README.md#synopsis", "presets/a.svg", "#top"])
    }
}
