import AudioFiles
import AudioFormats
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `aurender diff APPROVED/ RENDERED/ --approve`: the renders that failed or are new copied over
/// the approved folder, each put in place whole (`OutputFile`: written beside, then renamed), and,
/// only when pruning, the approved files that have no render removed. Pairs that passed are not
/// touched, so their files keep their bytes and times.
///
/// A render that cannot be read is not approved: approving it would make the next run fail on
/// the approved side. An approved file that cannot be read is replaced by its readable render.
public enum FolderApproval {
    /// What was done to one approved file.
    public enum Change: Sendable, Equatable, CustomStringConvertible {
        /// A failing pair's approved file now holds its render.
        case replaced(String)
        /// A new render was copied into the approved folder.
        case added(String)
        /// An approved file with no render was removed (pruning).
        case removed(String)
        /// Left as it was: it has no render, and pruning was not asked for.
        case notPruned(String)
        /// Left as it was: its render cannot be read.
        case renderUnreadable(String)

        public var description: String {
            switch self {
            case .replaced(let path): "replaced \(path)"
            case .added(let path): "added \(path)"
            case .removed(let path): "removed \(path)"
            case .notPruned(let path): "kept \(path): it has no render"
            case .renderUnreadable(let path): "kept \(path): its render cannot be read"
            }
        }
    }

    /// Approves `pairs`, as `comparison` found them; the changes in the pairs' order, and the
    /// one-line errors of files that could not be copied or removed.
    public static func approve(_ pairs: [FolderComparison.Pair], of comparison: FolderComparison,
                               pruning: Bool) -> (changes: [Change], errors: [String]) {
        var changes: [Change] = [], errors: [String] = []
        for pair in pairs where !pair.passed {
            let files = comparison.files(of: pair.path)
            switch pair.status {
            case .passed: continue
            case .missing:
                guard pruning else {
                    changes.append(.notPruned(pair.path))
                    continue
                }
                if unlink(files.approved) == 0 {
                    changes.append(.removed(pair.path))
                } else {
                    errors.append("\(files.approved): cannot remove: \(String(cString: strerror(errno)))")
                }
            case .unreadable where pair.unreadableFile == files.rendered:
                changes.append(.renderUnreadable(pair.path))
            case .failed, .extra, .unreadable:
                do {
                    try copy(files.rendered, over: files.approved)
                    changes.append(pair.status == .extra ? .added(pair.path) : .replaced(pair.path))
                } catch {
                    errors.append(error.description)
                }
            }
        }
        return (changes, errors)
    }

    /// Copies `source` to `destination` through an unfinished file put in place on success,
    /// making the destination's folders as needed.
    static func copy(_ source: String, over destination: String) throws(AudioFormatError) {
        if let slash = destination.lastIndex(of: "/") {
            try? FileManager.default.createDirectory(atPath: String(destination[..<slash]), withIntermediateDirectories: true)
        }
        let input = open(source, O_RDONLY)
        guard input >= 0 else { throw AudioFormatError(path: source, kind: .cannotOpen, reason: String(cString: strerror(errno))) }
        defer { close(input) }
        let output = try OutputFile(path: destination)
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let got = buffer.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
            if got == 0 { break }
            var written = 0
            while got > 0, written < got {
                let count = buffer.withUnsafeBytes { write(output.fileDescriptor, $0.baseAddress! + written, got - written) }
                guard count > 0 else { break }
                written += count
            }
            guard got > 0, written == got else {
                let reason = String(cString: strerror(errno))
                close(output.fileDescriptor)
                output.discard()
                throw got < 0 ? AudioFormatError(path: source, kind: .readFailed, reason: reason)
                    : AudioFormatError(path: destination, kind: .writeFailed, reason: "cannot write: \(reason)")
            }
        }
        close(output.fileDescriptor)
        try output.commit()
    }
}
