#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Hands libsndfile a pipe whose first bytes were already taken out to recognise the format:
/// a new pipe, fed on a detached thread with those bytes and then the rest of the source.
///
/// libsndfile then reads a pipe exactly as it would have read the original one, so it treats
/// it the same way (no seeks, lengths from the header).
enum PipeRelay {
    /// The read end of a new pipe that gives `head`, then what remains on `source` (closed at
    /// the end when `closingSource`).
    static func start(head: [UInt8], source: Int32, closingSource: Bool, path: String) throws(SoundFileError) -> Int32 {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else {
            if closingSource { close(source) }
            throw SoundFileError(path: path, kind: .cannotOpen, reason: String(cString: strerror(errno)))
        }
        let job = Unmanaged.passRetained(Job(head: head, source: source, closingSource: closingSource, destination: ends[1])).toOpaque()
        var thread = pthread_t()
        let started = pthread_create(&thread, nil, { context in
            Unmanaged<Job>.fromOpaque(context!).takeRetainedValue().run()
            return nil
        }, job)
        guard started == 0 else {
            Unmanaged<Job>.fromOpaque(job).release()
            close(ends[0])
            close(ends[1])
            if closingSource { close(source) }
            throw SoundFileError(path: path, kind: .cannotOpen, reason: String(cString: strerror(started)))
        }
        pthread_detach(thread)
        return ends[0]
    }

    /// What the relay thread copies, and where.
    private final class Job {
        let head: [UInt8]
        let source: Int32
        let closingSource: Bool
        let destination: Int32

        init(head: [UInt8], source: Int32, closingSource: Bool, destination: Int32) {
            self.head = head
            self.source = source
            self.closingSource = closingSource
            self.destination = destination
        }

        /// Copies until the source ends or the reader closes its end, then closes the write end.
        func run() {
            var blocked = sigset_t()
            sigemptyset(&blocked)
            sigaddset(&blocked, SIGPIPE)
            pthread_sigmask(SIG_BLOCK, &blocked, nil)
            defer {
                close(destination)
                if closingSource { close(source) }
            }
            guard head.withUnsafeBytes({ writeAll($0.baseAddress!, $0.count) }) else { return }
            let size = 65536
            let buffer = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 16)
            defer { buffer.deallocate() }
            while true {
                let got = read(source, buffer, size)
                if got < 0, errno == EINTR { continue }
                if got <= 0 || !writeAll(buffer, got) { return }
            }
        }

        private func writeAll(_ bytes: UnsafeRawPointer, _ count: Int) -> Bool {
            var done = 0
            while done < count {
                let wrote = write(destination, bytes + done, count - done)
                if wrote < 0, errno == EINTR { continue }
                if wrote <= 0 { return false }
                done += wrote
            }
            return true
        }
    }
}
