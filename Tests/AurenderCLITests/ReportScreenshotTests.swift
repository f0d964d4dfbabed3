import BrowserSupport
import Foundation
import TestSupport
import Testing

/// The report page and the diff plot as a person sees them: rendered by headless chromium,
/// with the pictures drawn where they belong, no console message and nothing fetched.
@Suite struct ReportScreenshotTests {
    static let outputBlue = Colour(red: 0x1f, green: 0x77, blue: 0xb4)
    static let clipRed = Colour(red: 0xd6, green: 0x27, blue: 0x28)

    func pixels(_ picture: Picture, near colour: Colour) -> Int { picture.pixels.count { $0.isClose(to: colour, tolerance: 8) } }

    @Test func theBatchPageShowsItsTableWaveformsAndSpectra() throws {
        let folder = try TemporaryFolder()
        try FileManager.default.createDirectory(atPath: folder.file("in"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: fixture("music.wav"), toPath: folder.file("in/music.wav"))
        try writeFloats(Signal.sine(frequency: 997, sampleRate: 44100, frames: 88200, amplitude: 0.95), rate: 44100, to: folder.file("in/loud.wav"))
        let result = try aurender(["--eq", "Bass Booster", "--bits", "16", "-o", folder.file("out"), folder.file("in"), "--report", folder.file("r.html")])
        #expect(result.status == 0, "\(result.standardError)")
        let shot = try HeadlessBrowser.screenshot(of: folder.file("r.html"), width: 1000, height: 1600)
        let picture = shot.picture
        #expect(shot.consoleMessages.isEmpty, "\(shot.consoleMessages)")
        #expect(shot.requests.isEmpty, "\(shot.requests)")
        #expect(!picture.isBlank)
        #expect(picture.fractionDifferingFromBackground(tolerance: 16) > 0.05, "table, waveforms and plots")
        #expect(picture.distinctColourCount > 50)
        #expect(pixels(picture, near: Self.outputBlue) > 2000, "the outputs' waveforms and spectra")
        #expect(pixels(picture, near: Self.clipRed) > 50, "the loud file clipped through Bass Booster, and is marked")
        let bounds = try #require(picture.contentBounds(tolerance: 16))
        #expect(bounds.height > 1000, "the details below the table: \(bounds)")
    }

    @Test func theDiffPlotIsDrawn() throws {
        let folder = try TemporaryFolder()
        let a = Signal.noise(frames: 44100, amplitude: 0.4)
        try writeFloats(a, rate: 44100, to: folder.file("a.wav"))
        try writeFloats(a.enumerated().map { $0.offset < 20000 ? $0.element : $0.element * 0.9 }, rate: 44100, to: folder.file("b.wav"))
        let result = try aurender(["diff", folder.file("a.wav"), folder.file("b.wav"), "--plot", folder.file("d.svg")])
        #expect(result.status == 1)
        let shot = try HeadlessBrowser.screenshot(of: folder.file("d.svg"), width: 900, height: 700)
        #expect(shot.consoleMessages.isEmpty, "\(shot.consoleMessages)")
        #expect(shot.requests.isEmpty, "\(shot.requests)")
        #expect(shot.picture.fractionDifferingFromBackground(tolerance: 16) > 0.05)
        #expect(pixels(shot.picture, near: Self.outputBlue) > 1000, "B's waveform and spectrum")
        #expect(pixels(shot.picture, near: Self.clipRed) > 200, "the difference's level and spectrum")
    }
}
