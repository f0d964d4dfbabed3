import Dispatch
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Threads that encode the chunks of one stream as they are handed over, each chunk on
/// whichever thread is free: the chunks come back in order through their own semaphores.
///
/// The threads are made once per stream and wait on a semaphore between chunks, so encoding
/// starts no thread per chunk.
final class ChunkWorkers: @unchecked Sendable {
    // @unchecked: `chunks` is never changed after init; each chunk is used by one thread at a
    // time (see `FLACChunk`); `threads` is touched by the owning encoder's thread only.

    /// The ring of chunks; chunk n of the stream uses `chunks[n % chunks.count]`.
    let chunks: [FLACChunk]
    private let handedOver = DispatchSemaphore(value: 0)
    /// The next sequence number a worker takes.
    private let nextTaken = Atomic<Int>(0)
    private let stopping = Atomic<Bool>(false)
    private var threads: [pthread_t] = []

    /// `workerCount` threads encoding into a ring of `chunks`.
    init(workerCount: Int, chunks: [FLACChunk]) {
        self.chunks = chunks
        for _ in 0..<workerCount {
            let context = Unmanaged.passRetained(self).toOpaque()
            var thread = pthread_t()
            let status = pthread_create(&thread, nil, { raw in
                Unmanaged<ChunkWorkers>.fromOpaque(raw!).takeRetainedValue().work()
                return nil
            }, context)
            if status == 0 {
                threads.append(thread)
            } else {
                Unmanaged<ChunkWorkers>.fromOpaque(context).release()
            }
        }
    }

    /// Whether any thread started; without one, `handOver` encodes on the caller's thread.
    private var hasThreads: Bool { !threads.isEmpty }

    /// Hands the chunk of sequence number `sequence` (filled) to a worker.
    func handOver(_ sequence: Int) {
        guard hasThreads else {
            _ = nextTaken.add(1, ordering: .relaxed)
            chunks[sequence % chunks.count].encode()
            return
        }
        handedOver.signal()
    }

    /// Stops the threads once they have finished the chunks handed over, and waits for them.
    func stop() {
        stopping.store(true, ordering: .releasing)
        for _ in threads { handedOver.signal() }
        for thread in threads { pthread_join(thread, nil) }
        threads = []
    }

    private func work() {
        while true {
            handedOver.wait()
            if stopping.load(ordering: .acquiring) { return }
            let sequence = nextTaken.add(1, ordering: .relaxed).oldValue
            chunks[sequence % chunks.count].encode()
        }
    }
}
