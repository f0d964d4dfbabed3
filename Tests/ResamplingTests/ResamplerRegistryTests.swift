import Resampling
import Testing

@Suite struct ResamplerRegistryTests {
    @Test func theRegistryListsSoxrFirstThenLibsamplerateAndFindsThemByName() throws {
        #expect(ResamplerRegistry.engines.map(\.name) == ["soxr", "libsamplerate"])
        #expect(ResamplerRegistry.defaultEngine.name == "soxr")
        #expect(try ResamplerRegistry.engine(named: "SoXR").qualities == [.best, .high, .medium, .fastest])
        #expect(try ResamplerRegistry.engine(named: "libsamplerate").name == "libsamplerate")
        #expect(try ResamplerRegistry.engine(named: "LibSampleRate").name == "libsamplerate")
        #expect(try ResamplerRegistry.engine(named: "libsamplerate").qualities == [.best, .medium, .fastest, .zeroOrderHold, .linear])
    }

    @Test func anUnknownEngineIsRefusedNamingTheKnownOnes() {
        #expect(throws: ResamplerError.unknownEngine("speex", known: ["soxr", "libsamplerate"])) { _ = try ResamplerRegistry.engine(named: "speex") }
        #expect(ResamplerError.unknownEngine("soxr", known: ["libsamplerate"]).description
                == "no resampler engine is named 'soxr'; this build has libsamplerate")
    }

    @Test func qualityNamesAreListedForHelp() {
        #expect(ResamplerQuality.namesListed == "best, high, medium, fastest, zoh or linear")
        #expect(ResamplerQuality.zeroOrderHold.description == "zoh")
    }

    /// A band-limited level an engine lacks becomes its nearest (the better one on a tie);
    /// an interpolator it lacks has no stand-in.
    @Test func aMissingLevelMapsToTheNearest() {
        #expect(ResamplerQuality.best.nearest(among: [.medium, .fastest]) == .medium)
        #expect(ResamplerQuality.medium.nearest(among: [.best, .fastest]) == .best)
        #expect(ResamplerQuality.fastest.nearest(among: [.best, .zeroOrderHold]) == .best)
        #expect(ResamplerQuality.medium.nearest(among: [.medium, .best]) == .medium)
        #expect(ResamplerQuality.zeroOrderHold.nearest(among: [.best, .medium, .fastest, .linear]) == nil)
        #expect(ResamplerQuality.linear.nearest(among: [.linear]) == .linear)
        #expect(ResamplerQuality.high.nearest(among: [.best, .medium, .fastest]) == .best, "libsamplerate's high is its best")
        #expect(ResamplerQuality.high.nearest(among: [.medium, .fastest]) == .medium)
    }

    /// An engine kind refuses a quality it has nothing near, naming what it offers.
    @Test func aKindRefusesAQualityItHasNothingNear() {
        let sincOnly = ResamplerEngineKind(
            name: "sinc-only", summary: "a kind with one band-limited level", qualities: [.best],
            check: { _ in nil },
            make: { _ throws(ResamplerError) in throw .library(engine: "sinc-only", message: "never made in this test") })
        let configuration = ResamplerConfiguration(inputRate: 44100, outputRate: 48000, channelCount: 2, quality: .zeroOrderHold)
        #expect(throws: ResamplerError.unsupportedQuality(engine: "sinc-only", quality: .zeroOrderHold, offered: [.best])) {
            try sincOnly.validate(configuration)
        }
        #expect(ResamplerError.unsupportedQuality(engine: "sinc-only", quality: .zeroOrderHold, offered: [.best]).description
                == "sinc-only has no quality 'zoh'; it offers best")
        #expect(sincOnly.level(for: .fastest) == .best)
        #expect(throws: ResamplerError.unsupported(engine: "sinc-only", reason: "needs at least one channel, not 0")) {
            try sincOnly.validate(ResamplerConfiguration(inputRate: 44100, outputRate: 48000, channelCount: 0))
        }
    }

    /// round(frames × out / in), halves up, in integers.
    @Test func theExactLengthIsRoundedFramesTimesTheRatio() {
        let up = ResamplerConfiguration(inputRate: 44100, outputRate: 48000, channelCount: 1)
        #expect(up.outputFrames(forInputFrames: 44100) == 48000)
        #expect(up.outputFrames(forInputFrames: 1) == 1)
        #expect(up.outputFrames(forInputFrames: 44_101) == 48_001)
        #expect(up.outputFrames(forInputFrames: 0) == 0)
        let down = ResamplerConfiguration(inputRate: 96000, outputRate: 8000, channelCount: 1)
        #expect(down.outputFrames(forInputFrames: 5) == 0)
        #expect(down.outputFrames(forInputFrames: 6) == 1, "half a frame rounds up")
        #expect(down.outputFrames(forInputFrames: 400_003) == 33_334)
        #expect(ResamplerConfiguration(inputRate: 48000, outputRate: 44100, channelCount: 1).outputFrames(forInputFrames: 1_000_000_000_000)
                == 918_750_000_000)
    }
}
