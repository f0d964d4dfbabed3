import AudioDSP
import AudioGraph
import AudioNodes
import Foundation
import GraphTestSupport
import MallocCounter
import TestSupport
import Testing

/// The magnitude in dB of an impulse response at `frequency`, by direct Fourier sum.
func magnitude(of response: [Float], at frequency: Double, sampleRate: Double) -> Double {
    var re = 0.0, im = 0.0
    let w = 2 * Double.pi * frequency / sampleRate
    for (n, value) in response.enumerated() {
        re += Double(value) * cos(w * Double(n))
        im -= Double(value) * sin(w * Double(n))
    }
    return 10 * log10(re * re + im * im)
}

@Suite struct GraphicEQNodeTests {
    static let presets = try! EQPresetLibrary.builtIn

    /// Every preset, both rates, both modes: the measured response of the rendered impulse
    /// matches the analytic cascade within 0.01 dB, and in accurate mode the nominal gains
    /// within 0.1 dB at every band centre.
    @Test(arguments: [44100.0, 48000])
    func measuredResponsesMatchThePresets(sampleRate: Double) throws {
        var impulse = [Float](repeating: 0, count: 16384)
        impulse[0] = 1
        var worstClassic = 0.0, worstAccurate = 0.0
        for mode in GraphicEQDesign.Mode.allCases {
            for (index, preset) in Self.presets.enumerated() {
                let eq = try GraphicEQNode(presets: Self.presets, initialPreset: index, mode: mode)
                let response = try NodeHarness(node: eq, channels: [impulse], sampleRate: sampleRate).render()[0]
                for (band, gain) in zip(preset.bands, preset.gains) {
                    let measured = magnitude(of: response, at: band.frequency, sampleRate: sampleRate)
                    let analytic = GraphicEQDesign.cascadeMagnitude(sectionGains: eq.sectionGains[index], bands: preset.bands,
                                                                    at: band.frequency, sampleRate: sampleRate)
                    #expect(abs(measured - analytic) < 0.01, "\(preset.name) \(mode) at \(band.frequency) Hz")
                    if mode == .accurate {
                        #expect(abs(measured - gain) < 0.1, "\(preset.name) at \(band.frequency) Hz: \(measured) dB, not \(gain)")
                        worstAccurate = max(worstAccurate, abs(measured - gain))
                    } else {
                        worstClassic = max(worstClassic, abs(measured - gain))
                    }
                }
            }
        }
        print("worst miss at a band centre, \(Int(sampleRate)) Hz: accurate \(worstAccurate) dB, classic \(worstClassic) dB")
        #expect(worstClassic > 1.5)
    }

    @Test func flatIsBitTransparent() throws {
        let flat = try #require(EQPresetLibrary.find("Flat", in: Self.presets))
        let input = [Signal.noise(frames: 5000, amplitude: 0.9, seed: 4), Signal.noise(frames: 5000, amplitude: 0.9, seed: 5)]
        let eq = try GraphicEQNode(presets: [flat])
        #expect(try NodeHarness(node: eq, channels: input, sampleRate: 44100).render() == input)
    }

    @Test func outputDoesNotDependOnSliceSize() throws {
        let input = [Signal.noise(frames: 9001, seed: 6), Signal.noise(frames: 9001, seed: 7)]
        func render(_ size: Int) throws -> [[Float]] {
            let eq = try GraphicEQNode(presets: Self.presets, initialPreset: 14)
            return try NodeHarness(node: eq, channels: input, sampleRate: 44100).render(sliceSize: size)
        }
        let reference = try render(4096)
        for size in [1, 100, 4095] {
            let other = try render(size)
            let worst = zip(reference.joined(), other.joined()).map { abs($0 - $1) }.max() ?? 0
            #expect(worst <= 1e-6, "slices of \(size) differ by \(worst)")
        }
    }

    @Test func channelsAreIndependent() throws {
        var impulse = [Float](repeating: 0, count: 4000)
        impulse[0] = 1
        let eq = try GraphicEQNode(presets: Self.presets, initialPreset: 1)
        let stereo = try NodeHarness(node: eq, channels: [impulse, [Float](repeating: 0, count: 4000), impulse], sampleRate: 44100).render()
        #expect(stereo[1].allSatisfy { $0 == 0 })
        let mono = try NodeHarness(node: try GraphicEQNode(presets: Self.presets, initialPreset: 1), channels: [impulse],
                                 sampleRate: 44100).render()
        #expect(stereo[0] == mono[0])
        #expect(stereo[2] == mono[0])
    }

    /// Switching from Bass Booster to Treble Booster mid-stream: no output step larger than
    /// the input's own largest step plus a small bound.
    @Test func presetSwitchDoesNotClick() throws {
        let sampleRate = 44100.0
        let tone = (0..<44100).map { Float(0.4 * sin(2 * Double.pi * 60 * Double($0) / sampleRate) + 0.2 * sin(2 * Double.pi * 5000 * Double($0) / sampleRate)) }
        let bass = try #require(Self.presets.firstIndex { $0.name == "Bass Booster" })
        let treble = try #require(Self.presets.firstIndex { $0.name == "Treble Booster" })
        let eq = try GraphicEQNode(presets: Self.presets, initialPreset: bass)
        let harness = try NodeHarness(node: eq, channels: [tone], sampleRate: sampleRate)
        var output = try harness.render(sliceSize: 512, frames: 22050)[0]
        try eq.setParameter(GraphicEQNode.Parameter.preset, Float(treble))
        try eq.setParameter(GraphicEQNode.Parameter.preamp, -6)
        output += try harness.render(sliceSize: 512)[0]
        let steps = zip(output.dropFirst(), output).map { abs($0 - $1) }
        let inputSteps = zip(tone.dropFirst(), tone).map { abs($0 - $1) }
        let before = steps[21000..<22000].max()!, around = steps[22040..<23500].max()!
        #expect(around <= max(before, inputSteps.max()!) * 1.5 + 0.01, "step \(around) near the switch, \(before) before")
        // After the ramp, the new preset is in place: the treble booster lifts 5 kHz and leaves 60 Hz.
        let settled = Array(output[30000..<44100])
        let reference = try NodeHarness(node: try GraphicEQNode(presets: Self.presets, initialPreset: treble), channels: [tone],
                                      sampleRate: sampleRate)
        try (reference.node as! GraphicEQNode).setParameter(GraphicEQNode.Parameter.preamp, -6)
        let expected = Array(try reference.render()[0][30000..<44100])
        let difference = zip(settled, expected).map { abs($0 - $1) }.max()!
        #expect(difference < 1e-3, "after the ramp the output matches the new preset (differs by \(difference))")
    }

    @Test func preampScalesTheSignal() throws {
        let flat = try #require(EQPresetLibrary.find("Flat", in: Self.presets))
        let eq = try GraphicEQNode(presets: [flat])
        try eq.setParameter(GraphicEQNode.Parameter.preamp, -6)
        let input = [Signal.sine(frequency: 1000, sampleRate: 48000, frames: 4800)]
        let output = try NodeHarness(node: eq, channels: input, sampleRate: 48000).render()[0]
        let ratio = 20 * log10(Signal.rms(output) / Signal.rms(input[0]))
        #expect(abs(ratio + 6) < 0.001)
    }

    @Test(arguments: [32000.0, 22050])
    func topBandIsLeftOutAtLowRates(sampleRate: Double) throws {
        let eq = try GraphicEQNode(presets: Self.presets, initialPreset: Self.presets.firstIndex { $0.name == "Rock" }!)
        var impulse = [Float](repeating: 0, count: 16384)
        impulse[0] = 1
        let response = try NodeHarness(node: eq, channels: [impulse], sampleRate: sampleRate).render()[0]
        #expect(eq.omittedBands.map(\.frequency) == [16000])
        #expect(response.allSatisfy { $0.isFinite })
        let rock = Self.presets.first { $0.name == "Rock" }!
        for (band, gain) in zip(rock.bands, rock.gains).dropLast() {
            #expect(abs(magnitude(of: response, at: band.frequency, sampleRate: sampleRate) - gain) < 0.1)
        }
    }

    @Test func presetsMustShareTheirBands() throws {
        let custom = EQPreset(name: "Custom", bands: [.init(frequency: 100, q: 1)], gains: [3])
        #expect(throws: EqualizerError.differentBands(node: "eq", first: "Acoustic", other: "Custom")) {
            try GraphicEQNode(presets: [Self.presets[0], custom])
        }
        #expect(throws: EqualizerError.noPresets(node: "eq")) { _ = try GraphicEQNode(presets: []) }
    }

    @Test func renderingAllocatesNothingEvenWhileSwitching() throws {
        let input = [Signal.noise(frames: 200_000, seed: 8), Signal.noise(frames: 200_000, seed: 9)]
        // A first full render, switching too, instantiates the runtime's type metadata for every path.
        let warmUp = try GraphicEQNode(presets: Self.presets, initialPreset: 3)
        let warmUpHarness = try NodeHarness(node: warmUp, channels: input, sampleRate: 44100, maximumFrames: 512)
        _ = try warmUpHarness.render(sliceSize: 512, frames: 50_000)
        try warmUp.setParameter(GraphicEQNode.Parameter.preset, 7)
        _ = try warmUpHarness.render(sliceSize: 512)
        let eq = try GraphicEQNode(presets: Self.presets, initialPreset: 3)
        let harness = try NodeHarness(node: eq, channels: input, sampleRate: 44100, maximumFrames: 512)
        _ = try harness.output.renderSlice(frameCount: 512)
        try eq.setParameter(GraphicEQNode.Parameter.preset, 7)
        let before = malloc_counter_thread_allocations()
        var slices = 0
        while case .rendered = try harness.output.renderSlice(frameCount: 512) {
            slices += 1
            if slices == 100 { try eq.setParameter(GraphicEQNode.Parameter.preset, 12) }
        }
        let allocations = malloc_counter_thread_allocations() - before
        #expect(slices > 300)
        #expect(allocations == 0)
    }
}
