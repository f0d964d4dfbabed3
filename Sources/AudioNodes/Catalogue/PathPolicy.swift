#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where the files a description names may be: relative paths are in `folder`, and a confined
/// policy refuses any path that leads outside its folders.
///
/// A graph file is data that may come from someone else (a pull request, a download), so by
/// default it reads and writes only under its own folder, as FFmpeg's concat demuxer does with
/// its `safe` option: absolute paths, `..` and symbolic links that leave are refused. Each path
/// is judged where it really leads (symbolic links followed, as `realpath` does), so a link inside
/// the folder to a file inside it is allowed and one to a file outside is not. Files a user names
/// directly (on a command line, in Swift) are under `anywhere`, which only resolves.
public struct PathPolicy: Equatable, Sendable {
    /// The folder relative paths are resolved against.
    public let folder: String
    /// The folders paths must lead into, as given; nil: anywhere.
    public let allowedFolders: [String]?

    /// Paths resolved against `folder`, and allowed to lead anywhere.
    public static func anywhere(relativeTo folder: String = ".") -> PathPolicy {
        PathPolicy(folder: folder, allowedFolders: nil)
    }

    /// Paths resolved against `folder`, and allowed only where they lead into it or into one of
    /// `others` (the output folder the user gave, the folders the user allowed).
    public static func confined(to folder: String, allowing others: [String] = []) -> PathPolicy {
        PathPolicy(folder: folder, allowedFolders: [folder] + others)
    }

    /// `path` as it is opened: relative paths are in `folder`; `-` (a standard stream) is as given.
    public func located(_ path: String) -> String {
        path.hasPrefix("/") || path == "-" ? path : folder + "/" + path
    }

    /// `path` as it is opened, after judging where it leads; `field` names it in the refusal.
    public func resolve(_ path: String, field: String) throws(PathRefusal) -> String {
        let located = located(path)
        guard let allowedFolders, path != "-" else { return located }
        let target = Self.realPath(located)
        let roots = allowedFolders.map(Self.realPath)
        guard roots.contains(where: { root in root == "/" || target == root || target.hasPrefix(root + "/") }) else {
            throw PathRefusal(field: field, path: path, target: target, folders: roots)
        }
        return located
    }

    /// Where `path` really leads: its symbolic links followed and its `.` and `..` resolved, as
    /// far as it exists; the parts that do not exist yet (an output's name) are appended as written.
    static func realPath(_ path: String) -> String {
        let absolute = path.hasPrefix("/") ? path : currentFolder() + "/" + path
        if let real = realpath(absolute, nil) {
            defer { free(real) }
            return String(cString: real)
        }
        let parts = absolute.split(separator: "/", omittingEmptySubsequences: true)
        guard let last = parts.last else { return "/" }
        let parent = realPath("/" + parts.dropLast().joined(separator: "/"))
        switch last {
        case ".": return parent
        case "..":
            let up = parent[..<(parent.lastIndex(of: "/") ?? parent.startIndex)]
            return up.isEmpty ? "/" : String(up)
        default: return parent == "/" ? "/" + last : parent + "/" + last
        }
    }

    private static func currentFolder() -> String {
        guard let folder = getcwd(nil, 0) else { return "." }
        defer { free(folder) }
        return String(cString: folder)
    }
}

/// A path a confined `PathPolicy` refused: where it leads and the folders it may lead into.
public struct PathRefusal: Error, Equatable, CustomStringConvertible {
    /// The node whose setting named the path, once the catalogue knows it.
    public var node: String?
    /// The node's kind, with `node`.
    public var kind: String?
    /// The setting that named it (`path`, `impulse`, `preset`).
    public let field: String
    /// The path as written.
    public let path: String
    /// Where it really leads.
    public let target: String
    /// The folders it may lead into, as they really are.
    public let folders: [String]

    public init(node: String? = nil, kind: String? = nil, field: String, path: String, target: String, folders: [String]) {
        self.node = node
        self.kind = kind
        self.field = field
        self.path = path
        self.target = target
        self.folders = folders
    }

    /// This refusal, naming the node of `kind` whose setting named the path.
    public func naming(_ node: String, kind: String) -> PathRefusal {
        var named = self
        (named.node, named.kind) = (node, kind)
        return named
    }

    public var description: String {
        let subject = node.map { "node '\($0)'" + (kind.map { " (\($0))" } ?? "") + ": " } ?? ""
        let leads = target == path ? "" : " leads to \(target), which"
        return "\(subject)field '\(field)': '\(path)'\(leads) is outside the folders a graph may use (\(folders.joined(separator: ", ")))"
    }
}
