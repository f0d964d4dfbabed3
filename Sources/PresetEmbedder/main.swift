// Writes a Swift source file holding the text of each preset table, so the built library
// carries its presets wherever it is installed. Usage: PresetEmbedder OUTPUT.swift TABLE.tsv...
import Foundation

let arguments = CommandLine.arguments.dropFirst()
guard let output = arguments.first else {
    FileHandle.standardError.write(Data("usage: PresetEmbedder OUTPUT.swift TABLE.tsv...\n".utf8))
    exit(64)
}
var source = """
    // Generated at build time by PresetEmbedder from the package's presets/ folder. Do not edit.

    /// The preset tables of `presets/`, as (file name, text) pairs.
    let embeddedPresetTables: [(file: String, text: String)] = [

    """
for path in arguments.dropFirst() {
    let text = try String(contentsOfFile: path, encoding: .utf8)
    let name = URL(fileURLWithPath: path).lastPathComponent
    var fence = "#"
    while text.contains("\"" + fence) { fence += "#" }
    source += "    (\(String(reflecting: name)), \(fence)\"\"\"\n\(text)\n\"\"\"\(fence)),\n"
}
source += "]\n"
try source.write(toFile: output, atomically: true, encoding: .utf8)
