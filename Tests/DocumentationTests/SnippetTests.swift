import Testing

/// Every snippet the documentation shows is a region of compiled, tested code, verbatim.
@Suite struct SnippetTests {
    @Test(arguments: Snippets.documentFiles)
    func everySnippetOfADocumentIsCompiled(file: String) throws {
        let compiled = Set(try Snippets.compiled().values)
        let blocks = try Snippets.documented(in: file)
        let showsCode = file == "README.md" || file.hasPrefix("docs/library") || file.contains(".docc/") && !file.hasSuffix("/Aurender.md")
        #expect(!blocks.isEmpty || !showsCode, "\(file) shows no swift snippet")
        for block in blocks where !compiled.contains(block) {
            Issue.record("\(file): this snippet is not in Tests/DocumentationTests (copy it there between snippet markers, or fix it):\n\(block)")
        }
    }

    @Test func everyCompiledSnippetIsShown() throws {
        let shown = Set(try Snippets.documentFiles.flatMap { try Snippets.documented(in: $0) })
        let compiled = try Snippets.compiled()
        #expect(compiled.count >= 8)
        for (name, snippet) in compiled.sorted(by: { $0.key < $1.key }) where !shown.contains(snippet) {
            Issue.record("snippet '\(name)' is shown in no document; show it or remove its markers")
        }
    }

    /// A library user's first graph needs no force-unwrap: lookups throw typed errors instead.
    @Test(arguments: Snippets.documentFiles)
    func noSnippetForceUnwraps(file: String) throws {
        for block in try Snippets.documented(in: file) {
            for line in block.split(separator: "\n") where line.contains(/[\w)\]}]!(?!=)/) {
                Issue.record("\(file): a snippet force-unwraps: \(line)")
            }
        }
    }

    @Test func regionsAreFoundAndDedented() {
        #expect(Snippets.dedented(["        let a = 1", "", "        if a {  ", "            b()", "        }"])
                == "let a = 1\n\nif a {\n    b()\n}")
    }
}
