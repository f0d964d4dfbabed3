import Aurender
import TestSupport
import Testing

/// A render's options name the resampler engine and quality; the plan says which it uses.
@Suite struct ResamplerChoiceTests {
    func job(resampler: String, quality: ResamplerQuality) -> RenderJob {
        var options = RenderJob.Options()
        options.format.sampleRate = 48000
        options.settings.resampler = resampler
        options.settings.resamplerQuality = quality
        return RenderJob(input: fixture("speech.wav"), output: .file("/nonexistent/out.wav"), options: options)
    }

    @Test func thePlanNamesTheEngineAndQuality() throws {
        #expect(RenderJob.Options().settings.resampler == "soxr")
        #expect(RenderJob.Options().settings.resamplerQuality == .best)
        let text = try job(resampler: "libsamplerate", quality: .medium).plan().text
        #expect(text.contains("converter (libsamplerate medium)"), "\(text)")
    }

    @Test func anUnknownEngineIsAnErrorNamingTheKnownOnes() {
        do {
            _ = try job(resampler: "speex", quality: .best).plan()
            Issue.record("an unknown engine was accepted")
        } catch {
            #expect("\(error)" == "no resampler engine is named 'speex'; this build has soxr, libsamplerate")
            #expect(error is RenderError)
        }
    }
}
