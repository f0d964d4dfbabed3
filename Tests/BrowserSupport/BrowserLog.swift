/// Chromium's log on standard error, read for what the page did. With `--enable-logging=stderr` it
/// logs each console message as
/// `[1125/030849.862212:INFO:CONSOLE:1] "Uncaught ReferenceError: …", source: file:///…/page.html (1)`,
/// and with `--vmodule=file_url_loader_factory=1,network_delegate=1` each request, as
/// `…:VERBOSE1:content/browser/loader/file_url_loader_factory.cc:477] FileURLLoader::Start: file:///…`
/// or `…:VERBOSE1:net/base/network_delegate.cc:38] NetworkDelegate::NotifyBeforeURLRequest: https://…`.
/// Everything else (D-Bus, GPU, sandbox warnings) is noise to it.
struct BrowserLog {
    let consoleMessages: [ConsoleMessage]
    /// Every URL requested, the page's own first.
    let requests: [String]

    init(_ text: String) {
        let console = /\[[^\]\n]*:CONSOLE[^\]\n]*\] "(.*?)", source: ([^\n]*) \((\d+)\)\n/.dotMatchesNewlines()
        consoleMessages = text.matches(of: console).map {
            ConsoleMessage(text: String($0.output.1), source: String($0.output.2), line: Int($0.output.3) ?? 0)
        }
        let request = /\] (?:FileURLLoader::Start|NetworkDelegate::NotifyBeforeURLRequest): (\S+)/
        requests = text.matches(of: request).map { String($0.output.1) }
    }
}
