import Aurender
import Foundation
import TestSupport
import Testing

/// The RMS level costs a pass over every sample, so a render measures it only when asked;
/// clipping is counted either way, and the output is the same.
@Suite struct LevelMeasurementTests {
    @Test func theLevelIsMeasuredOnlyWhenAsked() throws {
        let folder = try TemporaryFolder()
        var job = RenderJob(input: fixture("speech.wav"), output: .file(folder.file("plain.wav")))
        let plain = try job.run()
        #expect(plain.rms == nil)
        #expect(plain.clipCount.peak > 0.1, "the peak still comes with the clip count")

        job.output = .file(folder.file("measured.wav"))
        job.options.settings.measuresLevel = true
        let measured = try job.run()
        let level = try #require(measured.rms)
        #expect(level > 0.01 && level < Double(measured.clipCount.peak), "an RMS level below the peak: \(level)")
        #expect(measured.clipCount == plain.clipCount)
        #expect(FileManager.default.contents(atPath: folder.file("plain.wav")) == FileManager.default.contents(atPath: folder.file("measured.wav")))
    }
}
