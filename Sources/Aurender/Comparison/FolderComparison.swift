import AudioFormats
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch
import FoundationEssentials
import Synchronization

/// A folder of approved renders compared with a folder of new ones (`aurender diff APPROVED/
/// RENDERED/`): the audio files of both, found recursively, are paired by their exact relative
/// path, each pair judged by a `RenderComparison`; a file on one side only is a failure.
///
/// Why exact paths: a render that changed container (`take.wav` to `take.flac`) is a change a
/// CI check should show, as a missing and an extra file. Hidden files and files whose names do
/// not say they hold audio are not looked at.
public struct FolderComparison: Sendable {
    /// One relative path and what became of it.
    public struct Pair: Sendable {
        /// How the pair came out.
        public enum Status: String, Sendable {
            /// Every tolerance holds.
            case passed
            /// A tolerance does not hold.
            case failed
            /// Approved, but no render has its path.
            case missing
            /// Rendered, but not approved.
            case extra
            /// A file of the pair cannot be read; `error` says which and why.
            case unreadable
        }

        /// The path relative to both folders.
        public var path: String
        public var status: Status
        /// The comparison, when both files were read.
        public var outcome: RenderComparison.Outcome?
        /// The one-line error of an unreadable file.
        public var error: String?
        /// The file that could not be read, as its folder and relative path name it.
        public var unreadableFile: String?
        /// The seconds the comparison took.
        public var seconds: Double

        public var passed: Bool { status == .passed }
    }

    public let approved: String
    public let rendered: String
    public let comparison: RenderComparison
    public let jobs: Int

    /// Compares `approved` with `rendered` (both folders), `jobs` pairs at a time; sketches the
    /// failing pairs when `sketching`.
    public init(approved: String, rendered: String, tolerances: ComparisonTolerances, jobs: Int = 1, sketching: Bool = false) {
        self.approved = approved
        self.rendered = rendered
        comparison = RenderComparison(tolerances: tolerances, sketching: sketching)
        self.jobs = max(1, jobs)
    }

    /// Whether `path` is a folder.
    public static func isFolder(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }

    /// The relative paths of the audio files under `folder`, sorted.
    public static func audioFiles(in folder: String, prefix: String = "") -> [String] {
        let here = prefix.isEmpty ? folder : folder + "/" + prefix
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: here) else { return [] }
        var found: [String] = []
        for name in names.sorted() where !name.hasPrefix(".") {
            let relative = prefix.isEmpty ? name : prefix + "/" + name
            if isFolder(folder + "/" + relative) {
                found += audioFiles(in: folder, prefix: relative)
            } else if FormatSniffer.isAudioFileName(name) {
                found.append(relative)
            }
        }
        return found
    }

    /// Every pair, in the order of their relative paths (byte order), whatever `jobs`.
    public func run() -> [Pair] {
        let approvedFiles = Set(Self.audioFiles(in: approved)), renderedFiles = Set(Self.audioFiles(in: rendered))
        let paths = approvedFiles.union(renderedFiles).sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        // One slot a path, each written by the one worker that took its index and read after the
        // group's wait: no lock to contend (a contended Mutex hands over in the kernel, where
        // ThreadSanitizer cannot see it, and reported a race that was none).
        let next = Atomic(0)
        nonisolated(unsafe) let results = UnsafeMutableBufferPointer<Pair?>.allocate(capacity: paths.count)
        results.initialize(repeating: nil)
        defer {
            _ = results.deinitialize()
            results.deallocate()
        }
        let group = DispatchGroup()
        let queue = DispatchQueue(label: "aurender.diff", attributes: .concurrent)
        for _ in 0..<min(jobs, paths.count) {
            queue.async(group: group) {
                while case let index = next.wrappingAdd(1, ordering: .relaxed).oldValue, index < paths.count {
                    let path = paths[index]
                    results[index] = pair(path, approved: approvedFiles.contains(path), rendered: renderedFiles.contains(path))
                }
            }
        }
        group.wait()
        return results.map { $0! }
    }

    /// The path of `relative` in the approved folder and in the rendered one.
    public func files(of relative: String) -> (approved: String, rendered: String) {
        (Self.joined(approved, relative), Self.joined(rendered, relative))
    }

    static func joined(_ folder: String, _ relative: String) -> String {
        (folder.hasSuffix("/") ? folder : folder + "/") + relative
    }

    private func pair(_ path: String, approved isApproved: Bool, rendered isRendered: Bool) -> Pair {
        guard isApproved, isRendered else { return Pair(path: path, status: isApproved ? .missing : .extra, seconds: 0) }
        let started = DispatchTime.now().uptimeNanoseconds
        let files = files(of: path)
        var pair = Pair(path: path, status: .failed, seconds: 0)
        do {
            var outcome = try comparison.compare(approved: files.approved, rendered: files.rendered)
            if outcome.passed { outcome.figures.sketches = nil }
            pair.status = outcome.passed ? .passed : .failed
            pair.outcome = outcome
        } catch {
            pair.status = .unreadable
            pair.error = error.description
            pair.unreadableFile = error.path
        }
        pair.seconds = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
        return pair
    }
}
