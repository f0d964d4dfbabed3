import Foundation
import Loudness
import SignalAnalysis
import Testing

/// `ProgrammeLoudness`, the meter `aurender loudness` levels a library with, against libebur128
/// (`LoudnessMeter`): integrated loudness, loudness range and true peak of a track, and an
/// album's figures from its tracks' merged blocks.
@Suite struct ProgrammeLoudnessTests {
    /// Noise whose level steps every `stepSeconds` through `levels` (dB), stereo at `sampleRate`.
    static func steps(_ levels: [Double], stepSeconds: Double, sampleRate: Double, seed: UInt64) -> [Float] {
        levels.enumerated().flatMap { index, level in
            Signals.noise(amplitude: 0.5 * pow(10, level / 20), sampleRate: sampleRate, seconds: stepSeconds, channels: 2, seed: seed + UInt64(index))
        }
    }

    static func measured(_ samples: [Float], sampleRate: Double) -> ProgrammeLoudness {
        let meter = ProgrammeLoudness(channelCount: 2, sampleRate: sampleRate)
        samples.withUnsafeBufferPointer { buffer in
            var done = 0
            while done < samples.count / 2 {
                let frames = min(3000, samples.count / 2 - done)
                meter.add(interleaved: buffer.baseAddress! + 2 * done, frames: frames)
                done += frames
            }
        }
        return meter
    }

    static func reference(_ tracks: [[Float]], sampleRate: Double) throws -> LoudnessMeasurement {
        let meter = try LoudnessMeter(channelCount: 2, sampleRate: Int(sampleRate))
        for track in tracks { try track.withUnsafeBufferPointer { try meter.add($0.baseAddress!, frames: track.count / 2) } }
        return meter.measurement()
    }

    @Test(arguments: [44100.0, 48000])
    func aTrackReadsAsLibebur128ReadsIt(sampleRate: Double) throws {
        let track = Self.steps([0, -12, -4, -20, -8, 0, -15], stepSeconds: 4, sampleRate: sampleRate, seed: 3)
        let meter = Self.measured(track, sampleRate: sampleRate)
        let reference = try Self.reference([track], sampleRate: sampleRate)
        let integrated = try #require(meter.blocks.integrated), expected = try #require(reference.integrated)
        #expect(abs(integrated - expected) <= 0.02, "\(integrated) LUFS, libebur128 \(expected)")
        #expect(abs(meter.blocks.range - reference.range) <= 0.05, "\(meter.blocks.range) LU, libebur128 \(reference.range)")
        #expect(reference.range > 5, "the steps give the track a range to measure")
        #expect(abs(20 * log10(meter.truePeak) - (try #require(reference.truePeak))) <= 0.01)
    }

    @Test func anAlbumIsItsTracksBlocksMerged() throws {
        let tracks = [Self.steps([0, -6], stepSeconds: 5, sampleRate: 44100, seed: 1),
                      Self.steps([-18, -10, -24], stepSeconds: 4, sampleRate: 44100, seed: 9)]
        let album = GatedBlocks.merged(tracks.map { Self.measured($0, sampleRate: 44100).blocks })
        let reference = try Self.reference(tracks, sampleRate: 44100)
        let integrated = try #require(album.integrated), expected = try #require(reference.integrated)
        // libebur128 fed the tracks one after the other also gates the three 400 ms blocks that
        // straddle the join, which the tracks measured apart (and loudgain's
        // ebur128_loudness_global_multiple) do not have.
        #expect(abs(integrated - expected) <= 0.1, "\(integrated) LUFS, libebur128 \(expected)")
        #expect(abs(album.range - reference.range) <= 0.15, "\(album.range) LU, libebur128 \(reference.range) (one meter across the join)")
        let separate = tracks.map { Self.measured($0, sampleRate: 44100).blocks.integrated! }
        #expect(integrated > separate.min()! && integrated < separate.max()!)
    }

    @Test func silenceHasNoLoudness() {
        let meter = Self.measured([Float](repeating: 0, count: 2 * 44100 * 2), sampleRate: 44100)
        #expect(meter.blocks.integrated == nil)
        #expect(meter.blocks.range == 0)
        #expect(meter.truePeak == 0)
    }
}
