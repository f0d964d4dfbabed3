import Foundation
import TestSupport

/// The code snippets of the documentation, and the compiled code they must match.
///
/// A compiled snippet is a region of a Swift file in this folder between `// snippet: NAME` and
/// `// snippet end`; regions of the same name, in file order, are joined by a blank line (so a
/// snippet can start with an `import` at the top of its file). Each region loses the
/// indentation its lines share. A documented snippet is a fenced ```swift block in README.md, a
/// page of the guide in docs/ or an article of Sources/Aurender/Docs.docc.
enum Snippets {
    /// Where the snippets are documented, relative to the package root.
    static var documentFiles: [String] {
        ["README.md"] + markdownFiles(in: "docs") + markdownFiles(in: "Sources/Aurender/Docs.docc")
    }

    /// The Markdown files of `folder` (relative to the package root), sorted, with its path.
    static func markdownFiles(in folder: String) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: packageRoot + "/" + folder)) ?? []
        return names.filter { $0.hasSuffix(".md") }.sorted().map { folder + "/" + $0 }
    }

    /// Every ```swift block of `file` (relative to the package root).
    static func documented(in file: String) throws -> [String] {
        let lines = try String(contentsOfFile: packageRoot + "/" + file, encoding: .utf8).components(separatedBy: "\n")
        var blocks: [String] = []
        var current: [String]?
        for line in lines {
            if current == nil, line.trimmingCharacters(in: .whitespaces) == "```swift" {
                current = []
            } else if let block = current, line.trimmingCharacters(in: .whitespaces) == "```" {
                blocks.append(dedented(block))
                current = nil
            } else {
                current?.append(line)
            }
        }
        return blocks
    }

    /// The compiled snippets by name, from the Swift files of this folder.
    static func compiled() throws -> [String: String] {
        let folder = packageRoot + "/Tests/DocumentationTests"
        var parts: [String: [String]] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: folder).sorted() where name.hasSuffix(".swift") {
            var open: (name: String, lines: [String])?
            for line in try String(contentsOfFile: folder + "/" + name, encoding: .utf8).components(separatedBy: "\n") {
                let trimmed = line.trimmingCharacters(in: .whitespaces)
                if let region = open {
                    if trimmed == "// snippet end" {
                        parts[region.name, default: []].append(dedented(region.lines))
                        open = nil
                    } else {
                        open?.lines.append(line)
                    }
                } else if trimmed.hasPrefix("// snippet: ") {
                    open = (String(trimmed.dropFirst("// snippet: ".count)), [])
                }
            }
        }
        return parts.mapValues { $0.joined(separator: "\n\n") }
    }

    /// `lines` without the indentation they share and without trailing spaces, as one text.
    static func dedented(_ lines: [String]) -> String {
        let trimmed = lines.map { line in String(line.reversed().drop(while: { $0 == " " }).reversed()) }
        let indent = trimmed.filter { !$0.isEmpty }.map { $0.prefix(while: { $0 == " " }).count }.min() ?? 0
        return trimmed.map { String($0.dropFirst(min(indent, $0.count))) }.joined(separator: "\n")
    }
}
