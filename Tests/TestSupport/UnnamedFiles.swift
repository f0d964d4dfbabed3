import Foundation

/// How many distinct unnamed files (`O_TMPFILE`) process `pid` holds open in `folder`: how an
/// output under way shows itself, since it has no name in the folder to list.
///
/// Linux names such a descriptor's target `FOLDER/#INODE (deleted)` under `/proc/PID/fd`.
public func unnamedFiles(openBy pid: Int32, in folder: String) -> Int {
    let descriptors = "/proc/\(pid)/fd"
    let entries = (try? FileManager.default.contentsOfDirectory(atPath: descriptors)) ?? []
    let targets = entries.compactMap { try? FileManager.default.destinationOfSymbolicLink(atPath: descriptors + "/" + $0) }
    return Set(targets.filter { $0.hasPrefix(folder + "/#") && $0.hasSuffix(" (deleted)") }).count
}
