import Foundation
import Synchronization

/// One run of a command that may not outlast its time limit: what it wrote to standard error and
/// how it ended. Foundation's `Process` starts the command in a process group of its own, so a
/// command that overruns is killed with everything it started (chromium's wrapper script, the
/// browser, its renderer and GPU processes).
struct TimeLimitedRun {
    /// How the command ended: its exit status, or nil when it was killed for overrunning.
    let status: Int32?
    let standardError: String

    init(executable: String, timeLimit: Double, arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        let errors = Pipe()
        process.standardError = errors
        let exited = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in exited.signal() }
        try process.run()
        let log = Mutex(Data())
        let logRead = DispatchSemaphore(value: 0)
        Thread {
            let data = errors.fileHandleForReading.readDataToEndOfFile()
            log.withLock { $0 = data }
            logRead.signal()
        }.start()
        let deadline = DispatchTime.now() + timeLimit
        let finished = exited.wait(timeout: deadline) == .success && logRead.wait(timeout: deadline) == .success
        if !finished {
            kill(-process.processIdentifier, SIGKILL)
            _ = exited.wait(timeout: .now() + 10)
            _ = logRead.wait(timeout: .now() + 10)
        }
        status = finished ? process.terminationStatus : nil
        standardError = String(decoding: log.withLock { $0 }, as: UTF8.self)
    }
}
