@testable import Aurender
import Testing

/// The gain `--normalize` chooses, and the progress counter renders feed.
@Suite struct LoudnessNormalizationTests {
    let measured = LoudnessMeasurement(integrated: -23, range: 4, samplePeak: -9, truePeak: -8.5)

    @Test func theGainClosesTheGapToTheTarget() throws {
        let outcome = try LoudnessNormalization(target: -16).outcome(for: measured, path: "a.wav")
        #expect(outcome.gain == 7 && outcome.integrated == -16 && outcome.truePeak == -1.5 && !outcome.lowered)
    }

    @Test func aGainOverTheCeilingIsRefusedWithTheReachableLevel() throws {
        #expect {
            try LoudnessNormalization(target: -14, truePeakCeiling: -1).outcome(for: measured, path: "a.wav")
        } throws: { error in
            guard case RenderError.truePeakOver(let path, let target, let unit, let gain, let truePeak, let ceiling, let reachable) = error else { return false }
            return path == "a.wav" && target == -14 && unit == "LUFS" && gain == 9 && truePeak == 0.5 && ceiling == -1 && reachable == -15.5
        }
    }

    @Test func lowerTakesTheLargestGainThatFits() throws {
        let outcome = try LoudnessNormalization(target: -14, truePeakCeiling: -1, overCeiling: .lower).outcome(for: measured, path: "a.wav")
        #expect(outcome.gain == 7.5 && outcome.integrated == -15.5 && outcome.truePeak == -1 && outcome.lowered)
    }

    @Test func aQuieterTargetCuts() throws {
        let outcome = try LoudnessNormalization(target: -30).outcome(for: measured, path: "a.wav")
        #expect(outcome.gain == -7 && outcome.truePeak == -15.5 && !outcome.lowered)
    }

    @Test func silenceHasNoGain() {
        let silence = LoudnessMeasurement(integrated: nil, range: 0, samplePeak: nil, truePeak: nil)
        #expect {
            try LoudnessNormalization(target: -16).outcome(for: silence, path: "quiet.wav")
        } throws: { error in
            (error as? RenderError)?.description == "quiet.wav: too quiet or too short to normalize (no 400 ms block reaches the -70 LUFS gate)"
        }
    }

    @Test func progressCountsFramesAgainstWhatIsExpected() {
        let progress = RenderProgress()
        #expect(progress.expectedSeconds == nil && progress.secondsDone == 0)
        progress.expect(frames: 96000, sampleRate: 48000, passes: 2)
        for _ in 0..<3 { progress.add(24000) }
        #expect(progress.framesDone == 72000 && progress.secondsDone == 1.5 && progress.expectedSeconds == 4)
        progress.expect(frames: nil, sampleRate: 44100)
        #expect(progress.expectedSeconds == nil, "a stream's length is unknown")
    }
}
