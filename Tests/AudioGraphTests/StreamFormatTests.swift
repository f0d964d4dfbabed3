import AudioGraph
import Testing

@Suite struct StreamFormatTests {
    @Test func acceptsOrdinaryFormats() throws {
        for channels in [1, 2, 6, 1024] {
            for rate in [8000.0, 44100, 48000, 192_000] {
                try StreamFormat.canonical(sampleRate: rate, channelCount: channels).validate()
            }
        }
    }

    @Test(arguments: [
        (0, 44100.0, FormatError.noChannels),
        (1025, 44100.0, FormatError.tooManyChannels(1025)),
        (65535, 44100.0, FormatError.tooManyChannels(65535)),
        (2, 0.0, FormatError.invalidSampleRate(0)),
        (2, -1.0, FormatError.invalidSampleRate(-1)),
        (2, 4_294_967_295.0, FormatError.invalidSampleRate(4_294_967_295)),
        (2, Double.nan, FormatError.invalidSampleRate(.nan)),
    ])
    func refusesBrokenFormats(channels: Int, rate: Double, expected: FormatError) {
        #expect(throws: FormatError.self) { try StreamFormat.canonical(sampleRate: rate, channelCount: channels).validate() }
        do {
            try StreamFormat.canonical(sampleRate: rate, channelCount: channels).validate()
        } catch {
            if rate.isNaN { #expect("\(error)".contains("nan Hz")) } else { #expect(error == expected) }
        }
    }

    @Test func canonicalFormIsFloat32NonInterleaved() {
        let file = StreamFormat(sampleRate: 44100, channelCount: 2, sampleType: .int16, isInterleaved: true)
        #expect(!file.isCanonical)
        #expect(file.canonical == StreamFormat(sampleRate: 44100, channelCount: 2, sampleType: .float32, isInterleaved: false))
        #expect(file.canonical.isCanonical)
        #expect(file.description == "44100 Hz, 2 ch, int16 interleaved")
    }

    @Test func sampleTypesKnowTheirWidth() {
        #expect(SampleType.allCases.map(\.bitDepth) == [8, 16, 24, 32, 32, 64])
        #expect(SampleType.allCases.filter(\.isInteger) == [.int8, .int16, .int24, .int32])
    }
}
