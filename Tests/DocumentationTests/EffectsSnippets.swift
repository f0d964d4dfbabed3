import Aurender
import TestSupport
import Testing

/// The snippets of docs/effects.md.
@Suite struct EffectsSnippets {
    @Test func aJobFiltersCompressesAndLimits() throws {
        let folder = try TemporaryFolder()
        let inputPath = fixture("music.wav"), outputPath = folder.file("music-mastered.wav")
        // snippet: effects-job
        var options = RenderJob.Options()
        options.finishing.limiter = LimiterSettings(ceiling: -1)   // last, after any normalization gain
        let job = RenderJob(input: inputPath, output: .file(outputPath), options: options) { format in
            let tone = FilterNode(name: "tone", bands: [
                FilterNode.Band(.highpass, frequency: 80),
                try FilterNode.Band(parsing: "peak@2500:-3:1.4"),
            ])
            let squash = try CompressorNode(settings: Compressor.Settings(threshold: -24, ratio: 3, makeup: 4))
            return [tone, squash]
        }
        let summary = try job.run()
        // snippet end
        #expect(summary.frames == 132_300)
        let plan = try job.plan().text
        #expect(plan.contains("tone (highpass 80 Hz q 0.707, peak 2500 Hz -3 dB q 1.4)"), "\(plan)")
        #expect(plan.contains("limiter (ceiling -1 dB"), "\(plan)")
        let written = try FormatRegistry.standard.openDecoder(path: outputPath)
        #expect(try LoudnessScan.measure(written).truePeak.map { $0 <= -1 } == true)
    }
}
