import ArgumentParser
import FoundationEssentials

/// The options of a render of a graph file: `--allow-path`, the folders its paths may lead into
/// besides its own.
struct GraphFileOptions: ParsableArguments {
    @Option(name: .customLong("allow-path"), help: ArgumentHelp("""
        A folder a graph file's paths may also lead into (repeatable). By default a graph file reads and writes only \
        under its own folder: absolute paths, .. and symbolic links that leave it are refused.
        """, valueName: "dir"), completion: .directory)
    var allowedFolders: [String] = []

    /// Refuses `--allow-path` beside a render that is not of a graph file, and a folder that is not one.
    func validate(rendersAGraph: Bool) throws {
        guard let first = allowedFolders.first else { return }
        if !rendersAGraph { throw ValidationError("--allow-path \(first) applies to graph files, whose paths it allows") }
        for folder in allowedFolders {
            var isFolder = false
            guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), isFolder else {
                throw ValidationError("--allow-path \(folder): no such folder")
            }
        }
    }
}
