import AudioFormats
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The unfinished file of an `OutputFile` whose destination is a regular file: unnamed in the
/// destination's folder where the file system allows it, else a hidden named temporary there.
///
/// Everything happens relative to the folder opened once, so the file is linked or renamed into
/// the folder it was created in, and that same folder is flushed for a durable output.
final class PendingFile {
    /// The file, kept open until it is in place: an unnamed file lives only as long as a descriptor.
    let descriptor: Int32
    /// The destination's folder.
    let folder: Int32
    /// Whether `folder` can be flushed: false for a folder the process may write in but not read.
    let folderCanBeFlushed: Bool
    /// The destination as the user named it, for messages.
    private let path: String
    /// The destination's folder as named (ending in `/`, or empty for the current folder).
    private let folderPath: String
    /// The destination's name in its folder.
    private let name: String
    /// The hidden name the file has in the folder, while it has one: a named temporary, or an
    /// unnamed file linked beside an existing destination just before the rename over it.
    private var temporaryName: String?
    /// The `InterruptCleanup` slot that removes `temporaryName` on SIGINT or SIGTERM.
    private var cleanupSlot: Int?
    private var released = false

    /// Creates the file for `path` (`unnamed: false` skips `O_TMPFILE`), giving it an existing
    /// destination's permission bits, owner and group (as far as the process may).
    init(path: String, unnamed: Bool) throws(AudioFormatError) {
        self.path = path
        var status = stat()
        let existing = stat(path, &status) == 0 ? status : nil
        if let existing, (existing.st_mode & S_IFMT) == S_IFDIR { throw OutputFile.cannotCreate(path, "is a directory") }
        let slash = path.lastIndex(of: "/")
        folderPath = slash.map { String(path[...$0]) } ?? ""
        name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        (folder, folderCanBeFlushed) = Self.openFolder(folderPath.isEmpty ? "." : folderPath)
        guard folder >= 0 else { throw OutputFile.cannotCreate(path, String(cString: strerror(errno))) }
        do throws(AudioFormatError) {
            if unnamed, let file = try Self.openUnnamed(in: folder, path: path) {
                descriptor = file
            } else {
                // Read and write: the Ogg serial-number fix reads the pages back.
                let (folder, folderPath, name) = (folder, folderPath, name)
                var created: Int32 = -1
                guard let hidden = Self.claimHiddenName(folderPath: folderPath, name: name, { hidden in
                    created = openat(folder, hidden, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
                    return created >= 0
                }) else { throw OutputFile.cannotCreate(path, String(cString: strerror(errno))) }
                descriptor = created
                temporaryName = hidden.name
                cleanupSlot = hidden.slot
            }
        } catch {
            close(folder)
            throw error
        }
        if let existing {
            do { try keepOwnerAndPermissions(of: existing) } catch {
                discard()
                throw error
            }
        }
    }

    deinit { discard() }

    /// Opens the folder to create, link and rename in, and to flush. A folder the process may
    /// write in but not list opens for the first three only (`O_PATH`), as writing there did before.
    private static func openFolder(_ path: String) -> (descriptor: Int32, canBeFlushed: Bool) {
        let folder = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard folder < 0, errno == EACCES else { return (folder, true) }
        return (open(path, pathOnlyFlag | O_DIRECTORY | O_CLOEXEC), false)
    }

    /// Opens an unnamed file in `folder`; nil when its file system has none, or when `/proc`,
    /// through which an unprivileged process links one, is missing.
    private static func openUnnamed(in folder: Int32, path: String) throws(AudioFormatError) -> Int32? {
        let descriptor = openat(folder, ".", unnamedFileFlag | O_RDWR | O_CLOEXEC, 0o666)
        guard descriptor >= 0 else {
            // EISDIR: a kernel without O_TMPFILE; EOPNOTSUPP, EINVAL: a file system without it.
            if [EOPNOTSUPP, EISDIR, EINVAL].contains(errno) { return nil }
            throw OutputFile.cannotCreate(path, String(cString: strerror(errno)))
        }
        guard access(procPath(descriptor), F_OK) == 0 else {
            close(descriptor)
            return nil
        }
        return descriptor
    }

    /// Linux's `O_TMPFILE` (`__O_TMPFILE | O_DIRECTORY`, as on x86-64 and ARM), which Swift does
    /// not import from the C macro.
    private static let unnamedFileFlag: Int32 = 0o20000000 | O_DIRECTORY

    /// Linux's `O_PATH`, which Swift does not import either.
    private static let pathOnlyFlag: Int32 = 0o10000000

    /// The name under `/proc` that `linkat` follows to the file open on `descriptor`.
    private static func procPath(_ descriptor: Int32) -> String { "/proc/self/fd/\(descriptor)" }

    /// Gives the file `existing`'s owner and group (each as far as the process may set it), then
    /// its permission bits (after, since a change of owner clears set-user-ID and set-group-ID).
    private func keepOwnerAndPermissions(of existing: stat) throws(AudioFormatError) {
        if fchown(descriptor, existing.st_uid, existing.st_gid) != 0 {
            guard errno == EPERM else { throw OutputFile.cannotCreate(path, String(cString: strerror(errno))) }
            if fchown(descriptor, uid_t.max, existing.st_gid) != 0, errno != EPERM {
                throw OutputFile.cannotCreate(path, String(cString: strerror(errno)))
            }
        }
        guard fchmod(descriptor, existing.st_mode & 0o7777) == 0 else { throw OutputFile.cannotCreate(path, String(cString: strerror(errno))) }
    }

    /// Puts the finished file under the destination's name. An unnamed file is linked there when
    /// the name is free; over an existing file it is linked to a hidden name and renamed over it,
    /// as `linkat` never replaces a name. A named temporary is renamed over the destination.
    func putInPlace() throws(AudioFormatError) {
        if temporaryName == nil {
            if link(as: name) { return }
            guard errno == EEXIST,
                  let hidden = Self.claimHiddenName(folderPath: folderPath, name: name, { link(as: $0) }) else {
                throw OutputFile.cannotCreate(path, String(cString: strerror(errno)))
            }
            temporaryName = hidden.name
            cleanupSlot = hidden.slot
        }
        guard renameat(folder, temporaryName, folder, name) == 0 else { throw OutputFile.cannotCreate(path, String(cString: strerror(errno))) }
        temporaryName = nil
        InterruptCleanup.unregister(cleanupSlot)
        cleanupSlot = nil
    }

    /// Links the unnamed file as `linkName` in the folder; false with `errno` set when it cannot.
    private func link(as linkName: String) -> Bool {
        linkat(AT_FDCWD, Self.procPath(descriptor), folder, linkName, AT_SYMLINK_FOLLOW) == 0
    }

    /// Calls `create` with fresh hidden names beside the destination (`.NAME.aurender-XXXX`),
    /// each registered for removal on SIGINT or SIGTERM before it exists, until one is free;
    /// returns the name and its cleanup slot, or nil with `errno` set.
    private static func claimHiddenName(folderPath: String, name: String, _ create: (String) -> Bool) -> (name: String, slot: Int?)? {
        for _ in 0..<100 {
            let hidden = ".\(name).aurender-\(String(UInt64.random(in: 0...UInt64.max), radix: 36))"
            let slot = InterruptCleanup.register(folderPath + hidden)
            if create(hidden) { return (hidden, slot) }
            let code = errno
            InterruptCleanup.unregister(slot)
            errno = code
            if code != EEXIST { return nil }
        }
        return nil
    }

    /// Closes the file (an unnamed one is gone with it) and removes any name it still has.
    func discard() {
        guard !released else { return }
        released = true
        close(descriptor)
        if let temporaryName { unlinkat(folder, temporaryName, 0) }
        InterruptCleanup.unregister(cleanupSlot)
        close(folder)
    }
}
