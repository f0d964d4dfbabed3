#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Hands libsndfile a pipe whose first bytes were already taken out to recognise the format:
/// a new pipe, fed on a detached thread with those bytes and then the rest of the source.
///
/// libsndfile then reads a pipe exactly as it would have read the original one, so it treats
/// it the same way (no seeks, lengths from the header) — except that a leading ID3v2 tag is
/// handed on emptied: from a pipe, libsndfile does not recognise an MP3 behind a tag of about
/// 55 KB or more (cover art) or one of no bytes, and it needs nothing from the tag.
enum PipeRelay {
    /// The read end of a new pipe that gives `head`, then what remains on `source` (closed at
    /// the end when `closingSource`).
    static func start(head: [UInt8], source: Int32, closingSource: Bool, path: String) throws(SoundFileError) -> Int32 {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else {
            if closingSource { close(source) }
            throw SoundFileError(path: path, kind: .cannotOpen, reason: String(cString: strerror(errno)))
        }
        let job = Unmanaged.passRetained(Job(head: head, source: source, closingSource: closingSource, destination: ends[1],
                                             tagSize: id3v2TagSize(head))).toOpaque()
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

    /// The bytes of the ID3v2 tag `head` starts with (header, body and footer), or 0.
    static func id3v2TagSize(_ head: [UInt8]) -> Int {
        guard head.count >= 10, head[0..<3].elementsEqual("ID3".utf8) else { return 0 }
        return 10 + head[6..<10].reduce(0) { $0 << 7 | Int($1 & 0x7F) } + (head[5] & 0x10 != 0 ? 10 : 0)
    }

    /// What the relay thread copies, and where.
    private final class Job {
        let head: [UInt8]
        let source: Int32
        let closingSource: Bool
        let destination: Int32
        /// The bytes of the leading ID3v2 tag, replaced by an empty one.
        let tagSize: Int

        init(head: [UInt8], source: Int32, closingSource: Bool, destination: Int32, tagSize: Int) {
            self.head = head
            self.source = source
            self.closingSource = closingSource
            self.destination = destination
            self.tagSize = tagSize
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
            let size = 65536
            let buffer = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 16)
            defer { buffer.deallocate() }
            if tagSize > 0 {
                // An ID3v2 tag of 10 bytes of padding (libsndfile refuses one of none), then what follows the tag.
                let emptyTag = Array(head[0..<4]) + [0, 0, 0, 0, 0, 10] + [UInt8](repeating: 0, count: 10)
                guard emptyTag.withUnsafeBytes({ writeAll($0.baseAddress!, $0.count) }) else { return }
                var skipped = head.count
                while skipped < tagSize {
                    let got = read(source, buffer, min(size, tagSize - skipped))
                    if got < 0, errno == EINTR { continue }
                    if got <= 0 { return }
                    skipped += got
                }
            }
            let rest = head[min(tagSize, head.count)...]
            guard rest.withUnsafeBytes({ $0.isEmpty || writeAll($0.baseAddress!, $0.count) }) else { return }
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
