import Foundation
import Synchronization

/// Chromium without a window (Debian's `chromium-headless-shell`, else `chromium`), run once a
/// page to screenshot it as a person would see it and to log what the page wrote to the console
/// and fetched. `make deps` installs chromium-headless-shell when neither is on the PATH. One
/// browser runs at a time, so tests running in parallel do not crowd the machine.
public enum HeadlessBrowser {
    /// Why a page could not be screenshot.
    public enum Error: Swift.Error, CustomStringConvertible {
        case notInstalled
        case noPage(String)
        case failed(status: Int32, log: String)
        case timedOut(seconds: Double, log: String)
        case noScreenshot(log: String)
        case requestsNotLogged(page: String, log: String)

        public var description: String {
            switch self {
            case .notInstalled:
                "neither chromium-headless-shell nor chromium is on the PATH: `make deps` installs chromium-headless-shell"
            case .noPage(let path): "no page to screenshot at \(path)"
            case .failed(let status, let log): "chromium exited with status \(status):\n\(log)"
            case .timedOut(let seconds, let log): "chromium did not finish within \(Int(seconds)) s:\n\(log)"
            case .noScreenshot(let log): "chromium wrote no screenshot:\n\(log)"
            case .requestsNotLogged(let page, let log):
                "chromium did not log its request for \(page), so its other requests cannot be told either:\n\(log)"
            }
        }
    }

    /// The browsers tried, in order.
    public static let executableNames = ["chromium-headless-shell", "chromium"]

    /// How long one screenshot may take: generous, since chromium is slow on a busy machine.
    public static let defaultTimeLimit = 180.0

    private static let oneAtATime = Mutex(())

    /// The path of the first of `executableNames` on the PATH.
    public static func executable() throws(Error) -> String {
        let folders = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        for name in executableNames {
            for folder in folders where FileManager.default.isExecutableFile(atPath: "\(folder)/\(name)") {
                return "\(folder)/\(name)"
            }
        }
        throw .notInstalled
    }

    /// Chromium's command line for one screenshot of `page`, `width` × `height` CSS pixels, into the
    /// PNG file `output`, with its profile in the empty folder `profile`.
    public static func arguments(page: URL, width: Int, height: Int, output: String, profile: String) -> [String] {
        // Chromium refuses to run as root with its sandbox.
        (geteuid() == 0 ? ["--no-sandbox"] : []) + [
            // No window (chromium's own headless mode; chromium-headless-shell is headless anyway).
            "--headless",
            // Software rendering, without a GPU process probing for hardware.
            "--disable-gpu",
            // No scroll bar drawn over a page longer than the window.
            "--hide-scrollbars",
            // One screenshot pixel a CSS pixel, whatever the display settings.
            "--force-device-scale-factor=1",
            "--window-size=\(width),\(height)",
            // A fresh profile: no state from, or lock shared with, another run.
            "--user-data-dir=\(profile)",
            // No host name resolves, so a page that reaches for the network fails at once.
            "--host-resolver-rules=MAP * ~NOTFOUND",
            // The log on standard error, with the page's console messages (INFO:CONSOLE).
            "--enable-logging=stderr",
            // And every request, from the two places chromium logs file and network requests.
            "--vmodule=file_url_loader_factory=1,network_delegate=1",
            "--screenshot=\(output)",
            page.absoluteString,
        ]
    }

    /// Opens the HTML or SVG file at `path`, `width` × `height` pixels, and returns its pixels, its
    /// console messages and its requests.
    public static func screenshot(of path: String, width: Int, height: Int,
                                  timeLimit: Double = defaultTimeLimit) throws -> Screenshot {
        let executable = try executable()
        guard FileManager.default.fileExists(atPath: path) else { throw Error.noPage(path) }
        let page = URL(fileURLWithPath: path).standardizedFileURL
        let folder = NSTemporaryDirectory() + "aurender-browser-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder + "/profile", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let output = folder + "/screenshot.png"
        let run = try oneAtATime.withLock { _ in
            try TimeLimitedRun(executable: executable, timeLimit: timeLimit,
                               arguments: arguments(page: page, width: width, height: height, output: output, profile: folder + "/profile"))
        }
        let log = BrowserLog(run.standardError)
        guard let status = run.status else { throw Error.timedOut(seconds: timeLimit, log: excerpt(run.standardError)) }
        guard status == 0 else { throw Error.failed(status: status, log: excerpt(run.standardError)) }
        guard let png = FileManager.default.contents(atPath: output) else { throw Error.noScreenshot(log: excerpt(run.standardError)) }
        let pageURL = page.absoluteString.removingPercentEncoding
        guard log.requests.contains(where: { $0.removingPercentEncoding == pageURL }) else {
            throw Error.requestsNotLogged(page: page.absoluteString, log: excerpt(run.standardError))
        }
        return Screenshot(png: png, picture: try PNGDecoder.decode([UInt8](png)), consoleMessages: log.consoleMessages,
                          requests: log.requests.filter { $0.removingPercentEncoding != pageURL })
    }

    /// The end of chromium's log, for an error message.
    private static func excerpt(_ log: String) -> String {
        log.split(separator: "\n").suffix(30).joined(separator: "\n")
    }
}
