import Foundation
import Loudness
import Testing

/// The meter against the signals of EBU Tech 3341 (loudness, true peak) and Tech 3342 (range),
/// generated here, and the single-channel case.
@Suite struct LoudnessMeterTests {
    /// A 1 kHz sine segment: `seconds` long at `dbfs` (peak), on every channel.
    struct Segment {
        var dbfs: Double
        var seconds: Double
        var frequency = 1000.0
    }

    /// Measures consecutive sine segments, interleaved over `channels` channels.
    func measure(_ segments: [Segment], channels: Int = 2, sampleRate: Int = 48000, phase: Double = 0) throws -> LoudnessMeasurement {
        let meter = try LoudnessMeter(channelCount: channels, sampleRate: sampleRate)
        var time = 0
        for segment in segments {
            let amplitude = pow(10, segment.dbfs / 20)
            let frames = Int((segment.seconds * Double(sampleRate)).rounded())
            var samples = [Float](repeating: 0, count: frames * channels)
            for frame in 0..<frames {
                let value = Float(amplitude * sin(2 * Double.pi * segment.frequency * Double(time + frame) / Double(sampleRate) + phase))
                for channel in 0..<channels { samples[frame * channels + channel] = value }
            }
            time += frames
            try samples.withUnsafeBufferPointer { try meter.add($0.baseAddress!, frames: frames) }
        }
        return meter.measurement()
    }

    @Test func aMonoSineAtMinus20DBFSReadsMinus23LUFS() throws {
        let integrated = try #require(try measure([Segment(dbfs: -20, seconds: 10)], channels: 1).integrated)
        #expect(abs(integrated - -23.0) <= 0.1)
    }

    @Test func theSameSineOnTwoChannelsReadsMinus20LUFS() throws {
        // BS.1770 sums the channels' powers: two equal channels are 3 dB louder than one.
        let integrated = try #require(try measure([Segment(dbfs: -20, seconds: 10)], channels: 2).integrated)
        #expect(abs(integrated - -20.0) <= 0.1)
    }

    @Test(arguments: [
        // Tech 3341 cases 1 to 5: expected −23.0 LUFS except case 2 (−33.0); ±0.1 LU.
        ([Segment(dbfs: -23, seconds: 20)], -23.0),
        ([Segment(dbfs: -33, seconds: 20)], -33.0),
        ([Segment(dbfs: -36, seconds: 10), Segment(dbfs: -23, seconds: 60), Segment(dbfs: -36, seconds: 10)], -23.0),
        ([Segment(dbfs: -72, seconds: 10), Segment(dbfs: -36, seconds: 10), Segment(dbfs: -23, seconds: 60),
          Segment(dbfs: -36, seconds: 10), Segment(dbfs: -72, seconds: 10)], -23.0),
        ([Segment(dbfs: -26, seconds: 20), Segment(dbfs: -20, seconds: 20.1), Segment(dbfs: -26, seconds: 20)], -23.0),
    ])
    func integratedLoudnessOfTheEBUTestCases(segments: [Segment], expected: Double) throws {
        let integrated = try #require(try measure(segments).integrated)
        #expect(abs(integrated - expected) <= 0.1, "measured \(integrated) LUFS")
    }

    @Test(arguments: [
        // Tech 3342 cases 1 to 4: expected LRA ±1 LU.
        ([Segment(dbfs: -20, seconds: 20), Segment(dbfs: -30, seconds: 20)], 10.0),
        ([Segment(dbfs: -20, seconds: 20), Segment(dbfs: -15, seconds: 20)], 5.0),
        ([Segment(dbfs: -40, seconds: 20), Segment(dbfs: -20, seconds: 20)], 20.0),
        ([Segment(dbfs: -50, seconds: 20), Segment(dbfs: -35, seconds: 20), Segment(dbfs: -20, seconds: 20),
          Segment(dbfs: -35, seconds: 20), Segment(dbfs: -50, seconds: 20)], 15.0),
    ])
    func loudnessRangeOfTheEBUTestCases(segments: [Segment], expected: Double) throws {
        let range = try measure(segments).range
        #expect(abs(range - expected) <= 1, "measured \(range) LU")
    }

    @Test func truePeakFindsThePeakBetweenSamples() throws {
        // A 12 kHz sine at 48 kHz sampled 45° off its peaks: the samples reach only −9 dBFS,
        // the waveform −6 dBFS. Tech 3341 allows +0.2/−0.4 dB on true peak.
        let measured = try measure([Segment(dbfs: -6, seconds: 2, frequency: 12000)], phase: Double.pi / 4)
        let samplePeak = try #require(measured.samplePeak), truePeak = try #require(measured.truePeak)
        #expect(abs(samplePeak - -9.01) < 0.05)
        #expect(truePeak >= -6.4 && truePeak <= -5.8, "true peak \(truePeak) dBTP")
    }

    @Test func silenceHasNoLoudnessAndNoPeak() throws {
        let meter = try LoudnessMeter(channelCount: 2, sampleRate: 44100)
        let silence = [Float](repeating: 0, count: 2 * 44100)
        try silence.withUnsafeBufferPointer { try meter.add($0.baseAddress!, frames: 44100) }
        #expect(meter.measurement() == LoudnessMeasurement(integrated: nil, range: 0, samplePeak: nil, truePeak: nil))
    }

    @Test func aMeterNeedsChannelsAndARate() {
        #expect(throws: LoudnessError.unsupported(channelCount: 0, sampleRate: 48000)) {
            try LoudnessMeter(channelCount: 0, sampleRate: 48000)
        }
    }
}
