#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A thread that runs one closure, joined explicitly: the worker behind the threaded file
/// reader and writer and the decoders' segment workers. A thin wrapper over pthreads, so the
/// library needs no Foundation.
public final class BackgroundThread {
    private var thread: pthread_t?

    /// Starts `body` on a new thread. `body` is `sending`: what it captures either is
    /// `Sendable` or is handed to the thread, which alone uses it from then on.
    public init(_ body: sending @escaping () -> Void) {
        let context = Unmanaged.passRetained(Box(body)).toOpaque()
        var handle = pthread_t()
        let status = pthread_create(&handle, nil, { raw in
            guard let raw else { return nil }
            let box = Unmanaged<Box>.fromOpaque(raw).takeRetainedValue()
            box.body()
            return nil
        }, context)
        if status == 0 {
            thread = handle
        } else {
            // No thread could be made: run the work here, so nothing is lost.
            Unmanaged<Box>.fromOpaque(context).takeRetainedValue().body()
        }
    }

    /// Waits for the closure to finish.
    public func join() {
        if let thread { pthread_join(thread, nil) }
        thread = nil
    }

    private final class Box {
        let body: () -> Void
        init(_ body: @escaping () -> Void) { self.body = body }
    }
}
