import Dispatch
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Removes the named temporary output files of a render cut short by SIGINT or SIGTERM, then
/// exits with 128 + the signal's number (130, 143), as shells expect.
///
/// Unnamed outputs (`O_TMPFILE`) need nothing: they vanish with the process, even on SIGKILL.
/// Named ones exist where the file system has no unnamed files, and for the moment an unnamed
/// file is linked beside an existing output before the rename over it. A signal handler may only
/// do async-signal-safe work, so those paths live in a fixed table of C strings, set and cleared
/// by `PendingFile`, and the handler only unlinks and exits.
public enum InterruptCleanup {
    private static let capacity = 64
    // Safe: its slots change only under `tableLock`; the signal handler only reads them, as it must.
    nonisolated(unsafe) private static let paths: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?> = {
        let table = UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>.allocate(capacity: capacity)
        table.initialize(repeating: nil, count: capacity)
        return table
    }()

    /// Installs the handlers for SIGINT and SIGTERM; call once, at startup.
    public static func install() {
        _ = paths
        let handler: @convention(c) (Int32) -> Void = { signal in
            for index in 0..<InterruptCleanup.capacity {
                if let path = InterruptCleanup.paths[index] { unlink(path) }
            }
            _exit(128 + signal)
        }
        signal(SIGINT, handler)
        signal(SIGTERM, handler)
        // A parent may have started us with these signals blocked; they must reach us.
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, SIGINT)
        sigaddset(&signals, SIGTERM)
        pthread_sigmask(SIG_UNBLOCK, &signals, nil)
    }

    /// Serialises `register` and `unregister`, which batch renders call from several threads.
    private static let tableLock = DispatchSemaphore(value: 1)

    /// Records a temporary file to remove on interruption; returns its slot, or nil when full.
    static func register(_ path: String) -> Int? {
        tableLock.wait()
        defer { tableLock.signal() }
        for index in 0..<capacity where paths[index] == nil {
            paths[index] = strdup(path)
            return index
        }
        return nil
    }

    /// Forgets a temporary file that was renamed or removed.
    static func unregister(_ slot: Int?) {
        tableLock.wait()
        defer { tableLock.signal() }
        guard let slot, let path = paths[slot] else { return }
        paths[slot] = nil
        free(path)
    }
}
