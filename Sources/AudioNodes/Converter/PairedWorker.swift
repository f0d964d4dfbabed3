import AudioFormats
import Dispatch
import Synchronization

/// A second thread that runs one job each time the caller runs its own beside it: how the
/// format converter keeps both cores busy without starting a thread per block.
///
/// The thread is made once; each `runAlongside` wakes it, runs the caller's work here and
/// returns when both have finished, so rendering allocates nothing and the two never overlap
/// the next step.
final class PairedWorker {
    private let go = DispatchSemaphore(value: 0)
    private let done = DispatchSemaphore(value: 0)
    /// Whether the worker is to stop, read after each wake-up.
    private let stopping = Stopping()
    private var thread: BackgroundThread?

    /// The stop request, shared with the thread.
    private final class Stopping: Sendable {
        let requested = Atomic<Bool>(false)
    }

    /// Starts the thread that runs `job` each time it is woken.
    init(_ job: @escaping @Sendable () -> Void) {
        let (go, done, stopping) = (go, done, stopping)
        thread = BackgroundThread {
            while true {
                go.wait()
                if stopping.requested.load(ordering: .acquiring) { return }
                job()
                done.signal()
            }
        }
    }

    deinit {
        stopping.requested.store(true, ordering: .releasing)
        go.signal()
        thread?.join()
    }

    /// Runs the worker's job while `local` runs on this thread; returns when both are done.
    func runAlongside(_ local: () throws -> Void) rethrows {
        go.signal()
        defer { done.wait() }
        try local()
    }
}
