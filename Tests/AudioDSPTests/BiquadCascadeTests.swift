import AudioDSP
import AudioGraph
import Foundation
import TestSupport
import Testing

@Suite struct BiquadCascadeTests {
    let sections = [
        try! BiquadCoefficients.peaking(frequency: 64, gain: 4.5, q: 1.41, sampleRate: 44100),
        try! BiquadCoefficients.peaking(frequency: 1000, gain: -3, q: 1.41, sampleRate: 44100),
        try! BiquadCoefficients.peaking(frequency: 8000, gain: 6, q: 0.7, sampleRate: 44100),
    ]

    /// The textbook direct form I, in Double, as the reference.
    func reference(_ input: [Float], _ sections: [BiquadCoefficients]) -> [Double] {
        var signal = input.map(Double.init)
        for c in sections {
            var (x1, x2, y1, y2) = (0.0, 0.0, 0.0, 0.0)
            signal = signal.map { x in
                let y = c.b0 * x + c.b1 * x1 + c.b2 * x2 - c.a1 * y1 - c.a2 * y2
                (x2, x1, y2, y1) = (x1, x, y1, y)
                return y
            }
        }
        return signal
    }

    func run(_ channels: [[Float]], chunks: [Int], active: Set<Int> = [0, 1, 2]) -> [[Float]] {
        let cascade = BiquadCascade(sectionCapacity: sections.count, channelCount: channels.count)
        for (index, section) in sections.enumerated() { cascade.setCoefficients(section, section: index) }
        cascade.setActiveSections { active.contains($0) }
        let storage = AudioBufferStorage(channelCount: channels.count, capacity: channels[0].count)
        for (index, samples) in channels.enumerated() { storage.list[index].update(from: samples, count: samples.count) }
        var offset = 0
        for chunk in chunks {
            cascade.process(storage.list, frames: chunk, offset: offset)
            offset += chunk
        }
        return channels.indices.map { Array(UnsafeBufferPointer(start: storage.list[$0], count: channels[0].count)) }
    }

    @Test(arguments: [1, 2, 3, 4])
    func matchesTheReferenceOnEveryChannel(channelCount: Int) {
        let channels = (0..<channelCount).map { Signal.noise(frames: 3000, amplitude: 0.5, seed: UInt64($0 + 1)) }
        let output = run(channels, chunks: [3000])
        for channel in 0..<channelCount {
            let expected = reference(channels[channel], sections)
            let worst = zip(output[channel], expected).map { abs(Double($0) - $1) }.max()!
            #expect(worst < 1e-6, "channel \(channel) of \(channelCount) differs by \(worst)")
        }
    }

    @Test func stateCarriesAcrossChunks() {
        let input = [Signal.noise(frames: 1000, seed: 9), Signal.noise(frames: 1000, seed: 10)]
        let whole = run(input, chunks: [1000])
        #expect(run(input, chunks: Array(repeating: 1, count: 1000)) == whole)
        #expect(run(input, chunks: [7, 93, 400, 500]) == whole)
    }

    @Test func channelsAreIndependent() {
        var impulse = [Float](repeating: 0, count: 500)
        impulse[0] = 1
        let output = run([impulse, [Float](repeating: 0, count: 500)], chunks: [500])
        #expect(output[1].allSatisfy { $0 == 0 })
        #expect(output[0].contains { $0 != 0 && $0 != 1 })
    }

    @Test func onlyActiveSectionsRun() {
        let input = [Signal.noise(frames: 800, seed: 3)]
        let output = run(input, chunks: [800], active: [1])
        let expected = reference(input[0], [sections[1]])
        #expect(zip(output[0], expected).allSatisfy { abs(Double($0.0) - $0.1) < 1e-6 })
        #expect(run(input, chunks: [800], active: []) == input, "no active section: untouched")
    }

    @Test func ringingIsDetectedAndResetClearsIt() {
        let cascade = BiquadCascade(sectionCapacity: 1, channelCount: 1)
        cascade.setCoefficients(sections[0], section: 0)
        cascade.setActiveSections { _ in true }
        let storage = AudioBufferStorage(channelCount: 1, capacity: 10)
        #expect(!cascade.isRinging(section: 0))
        storage.list[0][0] = 1
        cascade.process(storage.list, frames: 10)
        #expect(cascade.isRinging(section: 0))
        cascade.reset()
        #expect(!cascade.isRinging(section: 0))
    }
}
