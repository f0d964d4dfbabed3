import AudioGraph
import Foundation
import GraphTestSupport
import Testing
import VoiceProcessing

/// What the voice node does to speech, measured: noise taken out of the pauses, echo of a far
/// end taken out, a quiet voice brought to its target; and the node's bookkeeping: its output
/// lines up with its input, does not depend on the slice size, and allocates nothing.
@Suite struct VoiceNodeTests {
    static let sentences = "The quick brown fox jumps over the lazy dog. Offline rendering of audio files in batches. "
        + "Noise is removed from every pause between the words."

    /// Speech at `rate` with a second of silence before and half a second after, its speech frames at -20 dBFS.
    static func paddedSpeech(rate: Int) throws -> [Float] {
        let speech = try VoiceSignals.speech(sentences, rate: rate)
        let padded = [Float](repeating: 0, count: rate) + speech + [Float](repeating: 0, count: rate / 2)
        return VoiceSignals.scaled(padded, toActiveLevel: -20, rate: rate)
    }

    /// Pink noise as long as `speech`, 5 dB under the power of its speech frames.
    static func noise(for speech: [Float], rate: Int) -> [Float] {
        let pink = VoiceSignals.pinkNoise(count: speech.count, seed: 7)
        let powers = VoiceSignals.framePowers(speech, rate: rate)
        let speechLevel = VoiceSignals.level(powers, VoiceSignals.activeFrames(powers))
        let noisePowers = VoiceSignals.framePowers(pink, rate: rate)
        let noiseLevel = VoiceSignals.level(noisePowers, noisePowers.map { _ in true })
        let gain = Float(pow(10, (speechLevel - 5 - noiseLevel) / 20))
        return pink.map { $0 * gain }
    }

    static func render(_ node: VoiceNode, _ signal: [Float], rate: Int, sliceSize: Int = 4096) throws -> [Float] {
        try NodeHarness(node: node, channels: [signal], sampleRate: Double(rate)).render(sliceSize: sliceSize)[0]
    }

    @Test(arguments: [48000, 44100])
    func noiseInThePausesComesOutAtLeast9dBLowerAndTheSpeechKeepsItsLevel(rate: Int) throws {
        let speech = try Self.paddedSpeech(rate: rate)
        let noise = Self.noise(for: speech, rate: rate)
        let noisy = zip(speech, noise).map { $0 + $1 }
        let node = try VoiceNode(settings: VoiceSettings(noiseSuppression: .veryHigh))
        let output = try Self.render(node, noisy, rate: rate)
        #expect(output.count == noisy.count)
        let (clean, noisePowers, out) = (VoiceSignals.framePowers(speech, rate: rate), VoiceSignals.framePowers(noise, rate: rate),
                                         VoiceSignals.framePowers(output, rate: rate))
        let loudest = clean.max() ?? 0
        let quiet = clean.map { $0 < loudest * 1e-6 }
        let pauses = quiet.indices.map { index in index >= 25 && (max(0, index - 5)...min(quiet.count - 1, index + 5)).allSatisfy { quiet[$0] } }
        #expect(pauses.filter { $0 }.count >= 50, "the speech has pauses to measure")
        let reduction = VoiceSignals.level(noisePowers, pauses) - VoiceSignals.level(out, pauses)
        let active = VoiceSignals.activeFrames(clean)
        let speechChange = VoiceSignals.level(out, active) - VoiceSignals.level(clean, active)
        print("voice noise suppression at \(rate) Hz: noise in pauses \(reduction) dB lower, speech level \(speechChange) dB")
        #expect(reduction >= 9)
        #expect(abs(speechChange) <= 3)
    }

    @Test func theEchoOfTheFarEndComesOutAtLeast20dBLowerAndTheNearSpeechKeepsItsLevel() throws {
        let rate = 16000
        let farFirst = try VoiceSignals.speech("Good morning, this is the far end of the call speaking through the loudspeaker. The weather today is cloudy.",
                                               rate: rate)
        let farSecond = try VoiceSignals.speech("Please call me back when you have read the report, and send it to the others.", rate: rate)
        let near = VoiceSignals.scaled(try VoiceSignals.speech("Hello, I can hear you. Yes I will send the files tonight. Thank you.",
                                                               voice: "en+f3", rate: rate), toActiveLevel: -26, rate: rate)
        let far = VoiceSignals.scaled(farFirst + [Float](repeating: 0, count: near.count + rate * 6 / 10) + farSecond
                                      + [Float](repeating: 0, count: rate), toActiveLevel: -20, rate: rate)
        var nearTrack = [Float](repeating: 0, count: far.count)
        let start = farFirst.count + rate * 3 / 10
        for index in near.indices where start + index < far.count { nearTrack[start + index] = near[index] }
        let echo = VoiceSignals.convolve(far, VoiceSignals.room(rate: rate))
        let microphone = zip(nearTrack, echo).map { $0 + $1 }
        let node = try VoiceNode(settings: VoiceSettings(), reference: ArrayReference(far, rate: rate))
        let output = try Self.render(node, microphone, rate: rate)
        #expect(output.count == microphone.count)
        let (nearPowers, echoPowers, out) = (VoiceSignals.framePowers(nearTrack, rate: rate), VoiceSignals.framePowers(echo, rate: rate),
                                             VoiceSignals.framePowers(output, rate: rate))
        let loudestNear = nearPowers.max() ?? 0, loudestEcho = echoPowers.max() ?? 0
        let nearSilent = nearPowers.indices.map { index in
            (max(0, index - 5)...min(nearPowers.count - 1, index + 5)).allSatisfy { nearPowers[$0] < loudestNear * 1e-6 }
        }
        let farAlone = echoPowers.indices.map { $0 >= 100 && nearSilent[$0] && echoPowers[$0] > loudestEcho * 1e-4 }
        #expect(farAlone.filter { $0 }.count >= 200)
        let erle = VoiceSignals.level(echoPowers, farAlone) - VoiceSignals.level(out, farAlone)
        let nearActive = VoiceSignals.activeFrames(nearPowers)
        let nearChange = VoiceSignals.level(out, nearActive) - VoiceSignals.level(nearPowers, nearActive)
        print("voice echo cancellation at \(rate) Hz: ERLE \(erle) dB after 2 s, near speech level \(nearChange) dB")
        #expect(erle >= 20)
        #expect(abs(nearChange) <= 3)
    }

    @Test(arguments: [-3.0, -9.0])
    func gainControlBringsSpeechAtMinus35dBFSToItsTarget(target: Double) throws {
        let rate = 16000
        let speech = VoiceSignals.scaled(try Self.paddedSpeech(rate: rate), toActiveLevel: -35, rate: rate)
        let node = try VoiceNode(settings: VoiceSettings(gainTarget: target))
        let output = try Self.render(node, speech, rate: rate)
        let (level, frames) = VoiceSignals.speechPeakLevel(output, speech: speech, rate: rate, from: 3 * rate)
        print("voice gain control to \(target) dBFS: speech at -35 dBFS comes out with 90 % of its 10 ms peaks under \(level) dBFS")
        #expect(frames > 200)
        #expect(abs(level - target) <= 3)
    }

    @Test(arguments: [8000, 16000, 32000, 48000, 44100, 22050])
    func theOutputLinesUpWithTheInput(rate: Int) throws {
        let speech = try Self.paddedSpeech(rate: rate)
        let noisy = zip(speech, Self.noise(for: speech, rate: rate)).map { $0 + $1 }
        let output = try Self.render(try VoiceNode(settings: VoiceSettings(noiseSuppression: .moderate, highPass: true)), noisy, rate: rate)
        #expect(output.count == noisy.count)
        let from = noisy.count / 3, count = rate
        var best = (lag: Int.min, value: -Double.infinity)
        for lag in -400...400 {
            var sum = 0.0
            for index in from..<from + count { sum += Double(noisy[index]) * Double(output[index + lag]) }
            if sum > best.value { best = (lag, sum) }
        }
        #expect(best.lag == 0)
    }

    static func everythingOn(rate: Int, farRate: Int) throws -> (node: VoiceNode, signal: [Float]) {
        let noisy = (0..<(2 * rate)).map { Float(sin(Double($0) * 0.05) * 0.2) } .enumerated().map { $1 + VoiceSignals.pinkNoise(count: 1, seed: UInt64($0 + 1))[0] * 0.1 }
        let far = VoiceSignals.pinkNoise(count: farRate, seed: 3)
        let node = try VoiceNode(settings: VoiceSettings(noiseSuppression: .high, gainTarget: -6, highPass: true),
                                 reference: ArrayReference(far, rate: farRate))
        return (node, noisy)
    }

    @Test(arguments: [44100, 48000])
    func theOutputDoesNotDependOnTheSliceSizeAndIsTheSameEveryTime(rate: Int) throws {
        let (node, signal) = try Self.everythingOn(rate: rate, farRate: 22050)
        let reference = try Self.render(node, signal, rate: rate)
        for slice in [1, 64, 65, 441, 4096] {
            let (other, _) = try Self.everythingOn(rate: rate, farRate: 22050)
            let sliced = try Self.render(other, signal, rate: rate, sliceSize: slice)
            #expect(sliced == reference, "slice \(slice): \(sliced.count) frames, first difference at \(String(describing: zip(sliced, reference).enumerated().first { $1.0 != $1.1 }?.offset))")
        }
        let harness = try NodeHarness(node: try Self.everythingOn(rate: rate, farRate: 22050).node, channels: [signal], sampleRate: Double(rate))
        let first = try harness.render()[0]
        #expect(first == reference)
    }

    @Test(arguments: [44100, 48000])
    func renderingAllocatesNothing(rate: Int) throws {
        let (allocations, slices) = try steadyStateAllocations(sliceSize: 512) {
            let (node, signal) = try Self.everythingOn(rate: rate, farRate: 22050)
            return try NodeHarness(node: node, channels: [signal], sampleRate: Double(rate))
        }
        #expect(slices > 100)
        #expect(allocations == 0)
    }

    @Test func settingsOutOfRangeAreRefusedNamingTheSetting() {
        #expect(throws: VoiceProcessingError.outOfRange(setting: "gain target", value: 3, range: -31...0, unit: "dBFS")) {
            try VoiceNode(settings: VoiceSettings(gainTarget: 3))
        }
        #expect(VoiceProcessingError.outOfRange(setting: "gain target", value: 3, range: -31...0, unit: "dBFS").description
                == "the gain target must be from -31 to 0 dBFS, not 3")
    }
}
