import Foundation

/// What the browser made of one page: the PNG it wrote and its pixels, what the page wrote to the
/// console, and every URL it requested besides its own.
public struct Screenshot: Sendable {
    /// The PNG file as chromium wrote it (for saving, as `make screenshots` does).
    public let png: Data
    public let picture: Picture
    /// The page's console messages: `console.log`, `.warn`, `.error` and uncaught exceptions alike
    /// (chromium logs them all at one level); a page without scripts should have none.
    public let consoleMessages: [ConsoleMessage]
    /// The URLs the page fetched (images, style sheets, scripts, fonts), found or not; `data:` URLs
    /// are not fetched. A self-contained page has none.
    public let requests: [String]
}

/// One message a page wrote to the console, where from.
public struct ConsoleMessage: Equatable, Sendable, CustomStringConvertible {
    public let text: String
    /// The URL of the page or script that wrote it.
    public let source: String
    public let line: Int

    public var description: String { "\(text) (\(source):\(line))" }
}
