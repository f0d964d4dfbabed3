import AudioDSP
import Foundation
import Testing

@Suite struct FilterDesignTests {
    static let octaveBands = [32.0, 64, 125, 250, 500, 1000, 2000, 4000, 8000, 16000].map {
        GraphicEQDesign.Band(frequency: $0, q: 2.0.squareRoot())
    }

    @Test(arguments: [44100.0, 48000, 96000])
    func peakingHitsItsGainAtItsCentre(sampleRate: Double) throws {
        for frequency in [32.0, 1000, 16000] {
            for gain in [-12.0, -1.5, 0, 3, 12] {
                let section = try BiquadCoefficients.peaking(frequency: frequency, gain: gain, q: 1.41, sampleRate: sampleRate)
                #expect(abs(section.magnitude(at: frequency, sampleRate: sampleRate) - gain) < 1e-9)
                if frequency >= 1000 {
                    #expect(abs(section.magnitude(at: 5, sampleRate: sampleRate)) < 0.01, "far below the band: unity")
                }
            }
        }
        #expect(try BiquadCoefficients.peaking(frequency: 1000, gain: 0, q: 1, sampleRate: sampleRate).magnitude(at: 3000, sampleRate: sampleRate) == 0)
    }

    @Test func impossibleSettingsAreRefused() {
        #expect(throws: FilterDesignError.frequencyOutOfRange(frequency: 22050, sampleRate: 44100)) {
            try BiquadCoefficients.peaking(frequency: 22050, gain: 3, q: 1, sampleRate: 44100)
        }
        #expect(throws: FilterDesignError.invalidQ(0)) { try BiquadCoefficients.peaking(frequency: 100, gain: 3, q: 0, sampleRate: 44100) }
        #expect(throws: FilterDesignError.invalidSampleRate(0)) { try BiquadCoefficients.peaking(frequency: 100, gain: 3, q: 1, sampleRate: 0) }
        #expect(throws: FilterDesignError.invalidGain(50)) {
            try GraphicEQDesign.sectionGains(for: [50] + Array(repeating: 0, count: 9), bands: Self.octaveBands, sampleRate: 44100, mode: .classic)
        }
    }

    /// Accurate mode hits every centre; classic misses by the overlap (up to about 1.8 dB).
    @Test(arguments: [44100.0, 48000])
    func accurateDesignHitsEveryCentre(sampleRate: Double) throws {
        let gainSets: [[Double]] = [
            [5.5, 4.5, 3.5, 2.5, 1.25, 0, 0, 0, 0, 0],
            [-3.5, -0.5, 0, 0.5, 3.5, 4.5, 5, 4.5, 2.5, 0],
            [6, 4, 0, 0, -2, 0, -1, -4.5, 5, 1],
            [12, -12, 12, -12, 12, -12, 12, -12, 12, -12],
        ]
        var classicWorst = 0.0
        for gains in gainSets {
            for mode in GraphicEQDesign.Mode.allCases {
                let sections = try GraphicEQDesign.sectionGains(for: gains, bands: Self.octaveBands, sampleRate: sampleRate, mode: mode)
                let errors = zip(Self.octaveBands, gains).map { band, gain in
                    abs(GraphicEQDesign.cascadeMagnitude(sectionGains: sections, bands: Self.octaveBands, at: band.frequency,
                                                         sampleRate: sampleRate) - gain)
                }
                if mode == .accurate {
                    #expect(errors.max()! <= GraphicEQDesign.pruneTolerance + 1e-9, "\(gains)")
                } else {
                    #expect(sections == gains)
                    classicWorst = max(classicWorst, errors.max()!)
                }
            }
        }
        #expect(classicWorst > 1.0, "the overlap is real: classic misses by \(classicWorst) dB")
    }

    @Test func accurateDesignDropsSectionsItBarelyNeeds() throws {
        let bassBooster = [5.5, 4.5, 3.5, 2.5, 1.25, 0, 0, 0, 0, 0]
        let sections = try GraphicEQDesign.sectionGains(for: bassBooster, bands: Self.octaveBands, sampleRate: 44100, mode: .accurate)
        #expect(sections.suffix(4) == [0, 0, 0, 0])
        #expect(sections[5] < -0.1, "the 1 kHz section cancels the 500 Hz band's spill")
        #expect(try GraphicEQDesign.sectionGains(for: Array(repeating: 0, count: 10), bands: Self.octaveBands,
                                                 sampleRate: 44100, mode: .accurate) == Array(repeating: 0, count: 10))
    }

    @Test(arguments: [32000.0, 22050])
    func bandsNearNyquistAreLeftOut(sampleRate: Double) throws {
        let gains = [1.0, 2, 3, 4, 5, 6, 5, 4, 3, 2]
        let sections = try GraphicEQDesign.sectionGains(for: gains, bands: Self.octaveBands, sampleRate: sampleRate, mode: .accurate)
        let usable = Self.octaveBands.filter { GraphicEQDesign.isUsable($0, sampleRate: sampleRate) }
        #expect(usable.count == 9, "16 kHz is at or above 0.45 × the rate")
        #expect(sections.suffix(10 - usable.count).allSatisfy { $0 == 0 })
        for (band, gain) in zip(usable, gains) {
            let response = GraphicEQDesign.cascadeMagnitude(sectionGains: sections, bands: Self.octaveBands, at: band.frequency,
                                                            sampleRate: sampleRate)
            #expect(abs(response - gain) < 0.1)
        }
    }

    @Test func overlappingBandsThatCannotBeSolvedAreReported() {
        let crowded = [GraphicEQDesign.Band(frequency: 1000, q: 0.1), GraphicEQDesign.Band(frequency: 1001, q: 0.1)]
        #expect(throws: FilterDesignError.self) {
            try GraphicEQDesign.sectionGains(for: [12, -12], bands: crowded, sampleRate: 44100, mode: .accurate)
        }
    }
}
