import Dispatch

/// A second thread that runs one job each time the caller runs its own beside it: how the
/// format converter keeps both cores busy without starting a thread per block.
///
/// The thread is made once; each `runAlongside` wakes it, runs the caller's work here and
/// returns when both have finished, so rendering allocates nothing and the two never overlap
/// the next step.
final class PairedWorker {
    private let go = DispatchSemaphore(value: 0)
    private let done = DispatchSemaphore(value: 0)
    private let state = State()
    private var thread: BackgroundThread?

    /// Whether the worker is to stop, read after each wake-up.
    private final class State { var stopping = false }

    /// Starts the thread that runs `job` each time it is woken.
    init(_ job: @escaping () -> Void) {
        let (go, done, state) = (go, done, state)
        thread = BackgroundThread {
            while true {
                go.wait()
                if state.stopping { return }
                job()
                done.signal()
            }
        }
    }

    deinit {
        state.stopping = true
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
