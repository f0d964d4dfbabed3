import Foundation

/// The targets `Package.swift` declares and what each depends on, read from its text: the
/// module layer map, so that `ArchitectureTests` checks the map the build uses, not a copy.
///
/// It reads the manifest's own shapes: `.target(name: "X", dependencies: [...], ...)` (and
/// `.executableTarget`), dependencies as names, `.target(name:)` (a trait's condition aside) or
/// `.product(name:package:)`, and `.executable(name:targets:)` products.
struct PackageTargets {
    /// One target: its name, whether it is a library module of `Sources/` (a `.target` at its
    /// default path), and the names it depends on.
    struct Target {
        let name: String
        let isLibrary: Bool
        let dependencies: Set<String>
    }

    let targets: [Target]
    /// The targets the package's executable products build (the command).
    let executableProducts: [String]

    func dependencies(of name: String) -> Set<String> {
        targets.first { $0.name == name }?.dependencies ?? []
    }

    static func read(_ path: String) -> PackageTargets {
        let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        var targets: [Target] = []
        var consumed = text.startIndex
        for match in text.matches(of: /\.(target|executableTarget)\(/) where match.range.lowerBound >= consumed {
            let body = balanced(text, from: match.range.upperBound)
            consumed = body.upperBound
            let declaration = String(text[body])
            guard let name = declaration.firstMatch(of: /^\s*name: "(\w+)"/)?.output.1 else { continue }
            var dependencies: Set<String> = []
            let plain = declaration.replacing(/traits: \[[^\]]*\]/, with: "").replacing(/package: "[^"]*"/, with: "")
            if let list = plain.firstMatch(of: /dependencies: \[([^\]]*)\]/)?.output.1 {
                dependencies = Set(list.matches(of: /"(\w+)"/).map { String($0.output.1) })
            }
            targets.append(Target(name: String(name), isLibrary: match.output.1 == "target" && !declaration.contains("path:"),
                                  dependencies: dependencies))
        }
        let products = text.matches(of: /\.executable\(name: "[^"]*", targets: \[([^\]]*)\]/).flatMap { match in
            match.output.1.matches(of: /"(\w+)"/).map { String($0.output.1) }
        }
        return PackageTargets(targets: targets, executableProducts: products)
    }

    /// The text from `start` to the parenthesis that closes the one just before it.
    private static func balanced(_ text: String, from start: String.Index) -> Range<String.Index> {
        var depth = 1, index = start
        while index < text.endIndex {
            if text[index] == "(" { depth += 1 } else if text[index] == ")" { depth -= 1 }
            if depth == 0 { break }
            index = text.index(after: index)
        }
        return start..<index
    }
}
