@testable import Aurender
@testable import AurenderCLI
import Foundation
import TestSupport
import Testing

/// `--report FILE.html` and `diff --plot`: pages and plots that stand alone, with the levels
/// libebur128 measures and the pictures where the audio says they should be.
@Suite struct ReportPageTests {
    /// The numbers of a table cell `in → out` (U+2212 is the page's minus sign).
    func levels(_ cell: Substring) -> [Double] {
        cell.replacingOccurrences(of: "−", with: "-").components(separatedBy: " → ").compactMap { Double($0) }
    }

    /// `aurender info --loudness --json`'s integrated loudness and true peak of `path`.
    func measured(_ path: String) throws -> (loudness: Double, truePeak: Double) {
        let info = try aurender(["info", "--loudness", "--json", path])
        let object = try #require((try JSONSerialization.jsonObject(with: info.standardOutput) as? [[String: Any]])?.first)
        let loudness = try #require(object["loudness"] as? [String: Any])
        return (try #require(loudness["integratedLUFS"] as? Double), try #require(loudness["truePeakDBTP"] as? Double))
    }

    /// What a page must never hold: anything that runs or is fetched.
    func expectSelfContained(_ page: String) {
        for forbidden in ["<script", "src=", "href=\"http", "url(", "@import", "<link", "<iframe"] {
            #expect(!page.contains(forbidden), "the page holds \(forbidden)")
        }
    }

    @Test func aBatchPageHasARowPerInputWithTheLevelsLibebur128Measures() throws {
        let folder = try TemporaryFolder()
        try FileManager.default.createDirectory(atPath: folder.file("in"), withIntermediateDirectories: true)
        let frames = 44100 * 4
        let noise = Signal.noise(frames: frames * 2, amplitude: 0.2, seed: 7)
        try writeFloats(noise, channels: 2, rate: 44100, to: folder.file("in/quiet.wav"))
        try writeFloats(Signal.sine(frequency: 997, sampleRate: 44100, frames: frames, amplitude: 0.9), rate: 44100, to: folder.file("in/loud.wav"))
        try Data("not audio".utf8).write(to: URL(fileURLWithPath: folder.file("in/bad.wav")))

        let result = try aurender(["--gain", "3", "--bits", "16", "-o", folder.file("out"), folder.file("in"), "--report", folder.file("r.html")])
        #expect(result.status == 65)
        let page = try String(contentsOfFile: folder.file("r.html"), encoding: .utf8)
        expectSelfContained(page)
        #expect(page.contains("2 rendered, 0 skipped, 1 failed"))
        let body = try #require(page.components(separatedBy: "<tbody>").dropFirst().first?.components(separatedBy: "</tbody>").first)
        let rows = body.components(separatedBy: "<tr").dropFirst()
        #expect(rows.count == 3, "a row per input: \(rows.count)")
        let failedRow = try #require(rows.first { $0.hasPrefix(" class=\"failed\"") })
        let printed = try #require(result.standardError.split(separator: "\n").first { $0.contains("bad.wav") }).dropFirst("aurender: ".count)
        #expect(failedRow.contains("failed (exit 65): \(SketchDrawing.escaped(String(printed)))"))

        let quietRow = try #require(rows.first { $0.contains("quiet.wav</a>") })
        let cells = quietRow.components(separatedBy: "<td>").map { $0.components(separatedBy: "</td>")[0] }
        let loudness = levels(cells[4][...]), truePeak = levels(cells[5][...])
        let input = try measured(folder.file("in/quiet.wav")), output = try measured(folder.file("out/quiet.wav"))
        #expect(loudness.count == 2 && truePeak.count == 2)
        #expect(abs(loudness[0] - input.loudness) <= 0.1 && abs(loudness[1] - output.loudness) <= 0.1,
                "page \(loudness), libebur128 \(input.loudness) → \(output.loudness)")
        #expect(abs(truePeak[0] - input.truePeak) <= 0.1 && abs(truePeak[1] - output.truePeak) <= 0.15,
                "page \(truePeak), libebur128 \(input.truePeak) → \(output.truePeak) (the output's is measured before quantization)")

        let loudRow = try #require(rows.first { $0.contains("loud.wav</a>") && !$0.contains("quiet") })
        #expect(loudRow.hasPrefix(" class=\"clipped\""))
        let sections = page.components(separatedBy: "<section").dropFirst()
        #expect(sections.count == 2, "a small run shows every file in detail")
        let loudSection = try #require(sections.first { $0.contains("loud.wav →") })
        #expect(loudSection.contains("stroke=\"#d62728\""), "where the output clipped is drawn red")
        #expect(loudSection.contains("samples went past full scale"))
        let quietSection = try #require(sections.first { $0.contains("quiet.wav →") })
        #expect(!quietSection.contains("stroke=\"#d62728\""))
        #expect(loudSection.contains("designed response"), "the gain's designed response is drawn")
    }

    @Test func aFilteredRendersMeasuredChangeFollowsTheFiltersDesign() throws {
        let folder = try TemporaryFolder()
        try writeFloats(Signal.noise(frames: 44100 * 6, amplitude: 0.3, seed: 3), rate: 44100, to: folder.file("noise.wav"))
        var job = RenderJob(input: folder.file("noise.wav"), output: OutputDestination(folder.file("out.wav"))) { _ in
            [FilterNode(bands: [FilterNode.Band(.highpass, frequency: 1000)])]
        }
        job.options.settings.sketchesSignals = true
        let sketches = try #require(try job.run().sketches)
        let frequencies = [100.0, 200, 500, 2000, 8000]
        let before = SketchDrawing.levels(of: sketches.inputs[0].sketch, at: SketchDrawing.logFrequencies(count: 240))
        let after = SketchDrawing.levels(of: sketches.output, at: SketchDrawing.logFrequencies(count: 240))
        let grid = SketchDrawing.logFrequencies(count: 240)
        for frequency in frequencies {
            let index = try #require(grid.firstIndex { $0 >= frequency })
            let output = try #require(after[index]), input = try #require(before[index])
            let measured = output - input
            let designed = try #require(sketches.response.min { abs($0.frequency - grid[index]) < abs($1.frequency - grid[index]) }).decibels
            #expect(abs(measured - designed) < 1.5, "at \(Int(grid[index])) Hz the output changed by \(measured) dB, the design says \(designed)")
        }
    }

    @Test func theDiffPlotShowsWhereTwoFilesPartWays() throws {
        let folder = try TemporaryFolder()
        let a = Signal.sine(frequency: 440, sampleRate: 44100, frames: 88200, amplitude: 0.5)
        var b = a
        for index in 30000..<b.count { b[index] += 0.001 * Float(index % 7) }
        try writeFloats(a, rate: 44100, to: folder.file("a.wav"))
        try writeFloats(b, rate: 44100, to: folder.file("b.wav"))
        let result = try aurender(["diff", folder.file("a.wav"), folder.file("b.wav"), "--tolerance", "-90", "--plot", folder.file("d.svg")])
        #expect(result.status == 1)
        let svg = try XMLElementNode.parse(folder.file("d.svg"))
        #expect(svg.name == "svg")
        let text = try String(contentsOfFile: folder.file("d.svg"), encoding: .utf8)
        expectSelfContained(text)
        #expect(text.contains("first difference: frame 30000"))
        #expect(text.contains("tolerance -90 dBFS"))
        #expect(text.components(separatedBy: "<polyline").count - 1 >= 5, "peak and RMS over time, and three spectra")

        let same = try aurender(["diff", folder.file("a.wav"), folder.file("a.wav"), "--plot", folder.file("same.svg")])
        #expect(same.status == 0)
        #expect(!(try String(contentsOfFile: folder.file("same.svg"), encoding: .utf8)).contains("first difference"))
    }

    @Test func aPageOfAThousandInputsStaysAFewMegabytes() throws {
        let reportJSON = """
            {"aurender":"0","inputs":["in/take.wav"],"output":"out/take.wav","container":"WAV","encoding":"Signed 16 bit PCM",
            "sampleRate":44100,"channels":2,"frames":2646000,"durationSeconds":60,"peakDBFS":-1,"rmsDBFS":-18,"clippedSamples":0,
            "nonFiniteSamples":0,"renderSeconds":0.1,"options":{}}
            """
        var report = try JSONDecoder().decode(RenderReport.self, from: Data(reportJSON.utf8))
        let noise = Signal.noise(frames: 1024, amplitude: 0.8)
        let sketch = SignalSketch(sampleRate: 44100, channelCount: 2, frames: 2_646_000, framesPerColumn: 2584, minima: noise.map { -abs($0) },
                                  maxima: noise.map(abs), rms: noise.map { abs($0) / 3 }, binWidth: 44100.0 / 4096,
                                  spectrumDecibels: (0...2048).map { -20 - 10 * log10(Float($0 + 1)) }, integratedLoudness: -18.3,
                                  samplePeak: 0.8, truePeak: 0.81)
        let sketches = RenderSketches(inputs: [.init(input: "in/take.wav", sketch: sketch)], output: sketch,
                                      response: [.init(frequency: 20, decibels: 3), .init(frequency: 20000, decibels: -3)])
        var rendered: [RenderReport] = []
        for index in 0..<1000 {
            report.inputs = ["in/take-\(index).wav"]
            report.clippedSamples = index % 100 == 0 ? 12 : 0
            rendered.append(report)
        }
        let run = ReportedRun(isBatch: true, outcomes: BatchReport(version: "0", batch: nil, rendered: rendered, skipped: [], failed: []),
                              sketches: Array(repeating: sketches, count: 1000), seconds: 60, arguments: ["-o", "out", "in"])
        let page = ReportPage(run: run).html
        #expect(page.utf8.count < 4_000_000, "\(page.utf8.count) bytes")
        #expect(page.components(separatedBy: "<section").count - 1 == 10, "the ten files that clipped, in detail")
        let body = try #require(page.components(separatedBy: "<tbody>").dropFirst().first?.components(separatedBy: "</tbody>").first)
        #expect(body.components(separatedBy: "<tr").count - 1 == 1000)
    }
}
