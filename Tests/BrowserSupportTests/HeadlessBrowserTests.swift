import BrowserSupport
import Foundation
import TestSupport
import Testing

/// The browser harness shows what a page looks like and reports what is wrong with it: these pages
/// are blank, drawn, broken by a script or missing an image, and the harness must tell which.
/// Chromium must be installed (`make deps`); without it these tests fail, saying so.
@Suite struct HeadlessBrowserTests {
    /// Writes `html` to a file in `folder` and screenshots it at 200 × 150 pixels.
    func screenshot(_ html: String, in folder: TemporaryFolder) throws -> Screenshot {
        let page = folder.file("page.html")
        try html.write(toFile: page, atomically: true, encoding: .utf8)
        return try HeadlessBrowser.screenshot(of: page, width: 200, height: 150)
    }

    @Test func aBlankPageIsReportedBlank() throws {
        let shot = try screenshot("<!doctype html><html><body></body></html>", in: TemporaryFolder())
        #expect(shot.picture.width == 200 && shot.picture.height == 150)
        #expect(shot.picture.isBlank)
        #expect(shot.picture.background == Colour(red: 255, green: 255, blue: 255))
        #expect(shot.picture.fractionDifferingFromBackground() == 0)
        #expect(shot.picture.distinctColourCount == 1)
        #expect(shot.picture.contentBounds() == nil)
        #expect(shot.consoleMessages.isEmpty && shot.requests.isEmpty)
    }

    @Test func aSolidColourIsThatColourEverywhere() throws {
        let shot = try screenshot("<!doctype html><html><body style=\"background: rgb(10, 120, 200)\"></body></html>",
                                  in: TemporaryFolder())
        #expect(shot.picture.background == Colour(red: 10, green: 120, blue: 200))
        #expect(shot.picture.isBlank)
    }

    @Test func aDrawnRectangleIsFoundWhereItIs() throws {
        let shot = try screenshot("""
            <!doctype html><html><body style="margin: 0">
            <div style="position: absolute; left: 20px; top: 30px; width: 50px; height: 40px; background: #d62728"></div>
            <div style="position: absolute; left: 120px; top: 100px; width: 10px; height: 10px; background: #1f77b4"></div>
            </body></html>
            """, in: TemporaryFolder())
        #expect(!shot.picture.isBlank)
        #expect(shot.picture.contentBounds() == PixelRectangle(x: 20, y: 30, width: 110, height: 80))
        #expect(shot.picture.fractionDifferingFromBackground() == Double(50 * 40 + 10 * 10) / Double(200 * 150))
        #expect(shot.picture.distinctColourCount == 3)
        #expect(shot.picture[25, 35] == Colour(red: 0xd6, green: 0x27, blue: 0x28))
    }

    @Test func aScriptErrorIsAConsoleMessage() throws {
        let shot = try screenshot("<!doctype html><html><body><script>undefinedFunction()</script></body></html>",
                                  in: TemporaryFolder())
        let message = try #require(shot.consoleMessages.first)
        #expect(message.text == "Uncaught ReferenceError: undefinedFunction is not defined")
        #expect(message.source.hasSuffix("/page.html") && message.line == 1)
        #expect(shot.consoleMessages.count == 1)
    }

    @Test func aMissingImageIsARequest() throws {
        let folder = try TemporaryFolder()
        let shot = try screenshot("<!doctype html><html><body><img src=\"missing.png\"><img src=\"https://example.com/a.png\"></body></html>",
                                  in: folder)
        #expect(Set(shot.requests) == [URL(fileURLWithPath: folder.file("missing.png")).absoluteString, "https://example.com/a.png"],
                "both fetches, in whichever order chromium starts them")
        #expect(shot.requests.count == 2)
    }

    @Test func anInlineImageIsNoRequest() throws {
        let shot = try screenshot("""
            <!doctype html><html><body><img width="40" height="40" src="data:image/svg+xml,\
            %3Csvg xmlns='http://www.w3.org/2000/svg' width='40' height='40'%3E%3Crect width='40' height='40' fill='red'/%3E%3C/svg%3E">\
            </body></html>
            """, in: TemporaryFolder())
        #expect(shot.requests.isEmpty)
        #expect(shot.picture.fractionDifferingFromBackground() == Double(40 * 40) / Double(200 * 150))
    }

    @Test func aBrowserThatOverrunsItsTimeLimitIsKilled() throws {
        let folder = try TemporaryFolder()
        try "<!doctype html><html><body></body></html>".write(toFile: folder.file("page.html"), atomically: true, encoding: .utf8)
        let error = #expect(throws: HeadlessBrowser.Error.self) {
            try HeadlessBrowser.screenshot(of: folder.file("page.html"), width: 200, height: 150, timeLimit: 0.001)
        }
        #expect(error?.description.hasPrefix("chromium did not finish within 0 s") == true, "\(String(describing: error))")
    }

    @Test func aPageThatIsNotThereIsAnError() throws {
        let folder = try TemporaryFolder()
        #expect(throws: HeadlessBrowser.Error.self) {
            try HeadlessBrowser.screenshot(of: folder.file("nothing.html"), width: 200, height: 150)
        }
    }
}
