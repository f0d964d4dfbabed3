#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The files `aurender loudness` levels: the files named, and the audio files of the folders
/// named (by extension; `recursive` descends into their subfolders), in name order.
public struct LibraryFiles: Sendable {
    /// The files to measure, each once, in the order found.
    public var files: [String] = []
    /// The files in named folders passed over because their extension is not an audio one (a
    /// cover, a cue sheet); said in the report, never skipped silently.
    public var passedOver: [String] = []
    /// The paths named that do not exist or cannot be listed.
    public var failures: [LevelingFailure] = []

    /// Extensions of the audio files a folder's listing takes.
    public static let audioExtensions: Set<String> = ["flac", "mp3", "m4a", "mp4", "aac", "ogg", "oga", "opus", "wav", "wave",
                                                     "aif", "aiff", "aifc", "wv", "ape", "wma", "mpc", "caf", "w64", "au", "spx"]

    /// The files of `paths`.
    public init(paths: [String], recursive: Bool) {
        var seen = Set<String>()
        for path in paths { add(path, named: true, recursive: recursive, seen: &seen) }
    }

    private mutating func add(_ path: String, named: Bool, recursive: Bool, seen: inout Set<String>) {
        var status = stat()
        guard stat(path, &status) == 0 else {
            failures.append(LevelingFailure(path: path, kind: .cannotOpen, reason: "cannot be opened: " + String(cString: strerror(errno))))
            return
        }
        if (status.st_mode & S_IFMT) == S_IFDIR {
            guard named || recursive else { return }
            guard let entries = Self.entries(of: path) else {
                failures.append(LevelingFailure(path: path, kind: .cannotOpen, reason: "the folder cannot be listed: " + String(cString: strerror(errno))))
                return
            }
            let folder = path.hasSuffix("/") ? String(path.dropLast()) : path
            for entry in entries { add(folder + "/" + entry, named: false, recursive: recursive, seen: &seen) }
            return
        }
        if !named {
            let name = path.split(separator: "/").last.map(String.init) ?? path
            guard !name.hasPrefix(".") else { return }
            guard let dot = name.lastIndex(of: "."), Self.audioExtensions.contains(name[name.index(after: dot)...].lowercased()) else {
                passedOver.append(path)
                return
            }
        }
        if seen.insert(path).inserted { files.append(path) }
    }

    /// The names in folder `path` but `.` and `..`, sorted by their bytes; nil when it cannot be read.
    private static func entries(of path: String) -> [String]? {
        guard let directory = opendir(path) else { return nil }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafePointer(to: entry.pointee.d_name) { $0.withMemoryRebound(to: CChar.self, capacity: 256) { String(cString: $0) } }
            if name != "." && name != ".." { names.append(name) }
        }
        return names.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
    }
}
