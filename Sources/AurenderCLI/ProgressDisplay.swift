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
/// draws nothing, and nothing is drawn before the first audio is rendered (until then there is
/// no speed to show nor time left to estimate). `stop()` erases the line before anything else
/// is printed.
final class ProgressDisplay: Sendable {
    /// The renders under way and what the finished ones did.
    private struct Tally {
        var active: [RenderProgress] = []
        var finishedSeconds = 0.0
        var finishedFiles = 0
        var drawn = false

        /// Seconds of audio rendered so far, by the finished renders and those under way.
        var secondsDone: Double { finishedSeconds + active.reduce(0) { $0 + $1.secondsDone } }
    }

    /// What the line is about.
    enum Subject {
        /// One render, named by its file; its length is what the render expects.
        case file(String)
        /// A batch of `fileCount` files holding `totalSeconds` of audio, when known.
        case batch(fileCount: Int, totalSeconds: Double?)
    }

    private let subject: Subject
    private let started = RenderReport.now()
    private let tally = Mutex(Tally())
    /// Standard error as it was when the display started: libraries' messages may be sent to
    /// /dev/null while rendering, the progress line may not.
    // Safe: only the drawing thread writes to it until `stop()` has waited for that thread to end.
    private nonisolated(unsafe) let terminal: UnsafeMutablePointer<FILE>?
    private let stopped = DispatchSemaphore(value: 0)
    private let done = DispatchSemaphore(value: 0)

    /// Starts drawing the progress of `subject`.
    init(_ subject: Subject) {
        self.subject = subject
        terminal = fdopen(dup(STDERR_FILENO), "w")
        DispatchQueue.global().async { [self] in
            while stopped.wait(timeout: .now() + .milliseconds(100)) == .timedOut {
                if RenderReport.now() - started >= 0.25, tally.withLock({ $0.secondsDone }) > 0 { draw() }
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
            (tally.secondsDone, tally.finishedFiles, tally.active.first?.expectedSeconds)
        }
        let elapsed = RenderReport.now() - started
        var parts: [String]
        let total: Double?
        switch subject {
        case .file(let name):
            parts = [name]
            total = ownTotal
        case .batch(let fileCount, let totalSeconds):
            parts = ["\(files)/\(fileCount) files"]
            total = totalSeconds
        }
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
