import BrowserSupport
import Foundation
import TestSupport
import Testing

/// `aurender presets --plot` as a person sees it: the SVG rendered by headless chromium.
@Suite struct ResponsePlotScreenshotTests {
    @Test func thePresetsPlotIsDrawnWithoutConsoleErrors() throws {
        let folder = try TemporaryFolder()
        let plot = try aurender(["presets", "--plot", folder.file("eq.svg"), "Bass Booster", "Rock"])
        #expect(plot.status == 0, "\(plot.standardError)")
        let shot = try HeadlessBrowser.screenshot(of: folder.file("eq.svg"), width: 760, height: 420)
        let picture = shot.picture
        #expect(picture.background == Colour(red: 255, green: 255, blue: 255))
        #expect(picture.fractionDifferingFromBackground(tolerance: 16) > 0.03, "grid, labels and curves")
        #expect(picture.distinctColourCount > 20)
        let bounds = try #require(picture.contentBounds(tolerance: 16))
        #expect(bounds.width > 600 && bounds.height > 350, "\(bounds)")
        let curveColours = [Colour(red: 0x1f, green: 0x77, blue: 0xb4), Colour(red: 0xd6, green: 0x27, blue: 0x28)]
        for colour in curveColours {
            #expect(picture.pixels.count { $0.isClose(to: colour, tolerance: 8) } > 300, "the curve drawn in \(colour)")
        }
        #expect(shot.consoleMessages.isEmpty, "\(shot.consoleMessages)")
        #expect(shot.requests.isEmpty, "\(shot.requests)")
    }
}
