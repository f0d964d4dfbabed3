import Aurender
import Dispatch
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The line on a terminal that shows how far the renders have come: how many files, what
/// share of the audio, the speed as a multiple of real time, and the time left.
///
/// It redraws ten times a second from its own thread, reading the renders' atomic frame
/// counters, so the renders never wait for it; a run shorter than a quarter of a second
/// draws nothing. `stop()` erases the line before anything else is printed.
final class ProgressDisplay: Sendable {
    /// The renders under way and what the finished ones did.
    private struct Tally {
        var active: [RenderProgress] = []
        var finishedSeconds = 0.0
        var finishedFiles = 0
        var drawn = false
    }

    private let label: String
    private let fileCount: Int
    private let totalSeconds: Double?
    private let started = RenderReport.now()
    private let tally = Mutex(Tally())
    /// Standard error as it was when the display started: libraries' messages may be sent to
    /// /dev/null while rendering, the progress line may not.
    private nonisolated(unsafe) let terminal: UnsafeMutablePointer<FILE>?
    private let stopped = DispatchSemaphore(value: 0)
    private let done = DispatchSemaphore(value: 0)

    /// Starts drawing for `fileCount` files named by `label` (a file name for one file);
    /// `totalSeconds` is the audio all of them will render, when known (one file's own
    /// expectation is used otherwise).
    init(label: String, fileCount: Int = 1, totalSeconds: Double? = nil) {
        self.label = label
        self.fileCount = fileCount
        self.totalSeconds = totalSeconds
        terminal = fdopen(dup(STDERR_FILENO), "w")
        DispatchQueue.global().async { [self] in
            while stopped.wait(timeout: .now() + .milliseconds(100)) == .timedOut {
                if RenderReport.now() - started >= 0.25 { draw() }
            }
            done.signal()
        }
    }

    /// Counts `progress` in the display from now on.
    func track(_ progress: RenderProgress) {
        tally.withLock { $0.active.append(progress) }
    }

    /// Moves `progress` from the renders under way to the finished ones.
    func finish(_ progress: RenderProgress) {
        tally.withLock { tally in
            tally.active.removeAll { $0 === progress }
            tally.finishedSeconds += progress.secondsDone
            tally.finishedFiles += 1
        }
    }

    /// Stops drawing and erases the line.
    func stop() {
        stopped.signal()
        done.wait()
        if tally.withLock({ $0.drawn }) { write("\r\u{1B}[K") }
        if let terminal { fclose(terminal) }
    }

    /// The line as it stands now.
    func line() -> String {
        let (seconds, files, ownTotal) = tally.withLock { tally in
            (tally.finishedSeconds + tally.active.reduce(0) { $0 + $1.secondsDone }, tally.finishedFiles,
             tally.active.count == 1 && fileCount == 1 ? tally.active[0].expectedSeconds : nil)
        }
        let elapsed = RenderReport.now() - started
        var parts = [fileCount == 1 ? label : "\(files)/\(fileCount) files"]
        let total = totalSeconds ?? ownTotal
        if let total, total > 0 {
            let fraction = min(1, seconds / total)
            parts.append("\(Int(fraction * 100))%")
            parts.append(realtimeText(audioSeconds: seconds, wallSeconds: elapsed))
            if fraction > 0 { parts.append("ETA " + clockTime(elapsed * (1 - fraction) / fraction)) }
        } else {
            parts.append(clockTime(seconds) + " of audio")
            parts.append(realtimeText(audioSeconds: seconds, wallSeconds: elapsed))
        }
        return "aurender: " + parts.joined(separator: "  ")
    }

    private func draw() {
        let text = "\r" + line() + "\u{1B}[K"
        tally.withLock { $0.drawn = true }
        write(text)
    }

    private func write(_ text: String) {
        guard let terminal else { return }
        fputs(text, terminal)
        fflush(terminal)
    }
}
