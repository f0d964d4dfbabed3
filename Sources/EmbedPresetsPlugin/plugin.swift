import Foundation
import PackagePlugin

/// Embeds the preset tables of the package's `presets/` folder into the target that uses it,
/// so the data files stay the one source of truth and an installed binary needs no files.
@main
struct EmbedPresetsPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let folder = context.package.directoryURL.appending(path: "presets")
        let tables = try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "tsv" }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
        let output = context.pluginWorkDirectoryURL.appending(path: "EmbeddedPresetTables.swift")
        return [.buildCommand(displayName: "Embedding presets from \(folder.path)",
                              executable: try context.tool(named: "PresetEmbedder").url,
                              arguments: [output.path] + tables.map(\.path),
                              inputFiles: tables, outputFiles: [output])]
    }
}
