#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A mutex the thread holding it may take again, for lilv's world, whose lookups nest.
///
/// A pthread mutex of kind `PTHREAD_MUTEX_RECURSIVE`, so that the plugin host needs only
/// FoundationEssentials (Foundation's locks would load the whole of Foundation and ICU into
/// every run of the command).
// Safe to share: a pthread mutex is made for use from any thread, and the pointer to it never changes.
final class RecursiveLock: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>

    init() {
        mutex = .allocate(capacity: 1)
        var attributes = pthread_mutexattr_t()
        pthread_mutexattr_init(&attributes)
        pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_RECURSIVE))
        pthread_mutex_init(mutex, &attributes)
        pthread_mutexattr_destroy(&attributes)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Takes the lock, waiting for another thread to give it up.
    func lock() { pthread_mutex_lock(mutex) }

    /// Gives the lock up (once for each `lock()`).
    func unlock() { pthread_mutex_unlock(mutex) }
}
