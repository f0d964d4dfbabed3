import AudioDSP
import AudioGraph
import AudioNodes
import Foundation
import GraphTestSupport
import TestSupport
import Testing

@Suite struct ReverbNodeTests {
    /// The impulse response of `settings` at `rate`, both channels, fully wet, to its −120 dBFS end.
    static func impulseResponse(_ settings: Reverb.Settings, rate: Double = 44100) throws -> [[Float]] {
        var settings = settings
        settings.wet = 1
        let impulse: [Float] = [1] + [Float](repeating: 0, count: 99)
        let node = try ReverbNode(sampleRate: rate, settings: settings, tailLimit: Int64(30 * rate))
        return try NodeHarness(node: node, channels: [impulse, impulse], sampleRate: rate).render()
    }

    /// `samples` through an RBJ band-pass twice over, one octave wide around `centre` Hz.
    static func octaveBand(_ samples: [Float], centre: Double, rate: Double) -> [Double] {
        let w0 = 2 * Double.pi * centre / rate, alpha = sin(w0) / (2 * 2.0.squareRoot())
        let (b0, b2, a0, a1, a2) = (alpha, -alpha, 1 + alpha, -2 * cos(w0), 1 - alpha)
        var signal = samples.map(Double.init)
        for _ in 0..<2 {
            var (x1, x2, y1, y2) = (0.0, 0.0, 0.0, 0.0)
            signal = signal.map { x in
                let y = (b0 * x + b2 * x2 - a1 * y1 - a2 * y2) / a0
                (x2, x1, y2, y1) = (x1, x, y1, y)
                return y
            }
        }
        return signal
    }

    /// T30 in seconds: Schroeder's backward integration of `response`, a line fitted from −5 to −35 dB, extended to −60 dB.
    static func t30(_ response: [Double], rate: Double) -> Double {
        var energy = [Double](repeating: 0, count: response.count)
        var sum = 0.0
        for index in response.indices.reversed() {
            sum += response[index] * response[index]
            energy[index] = sum
        }
        let decay = energy.map { 10 * log10($0 / energy[0]) }
        let start = decay.firstIndex { $0 <= -5 }!, end = decay.firstIndex { $0 <= -35 }!
        let points = (start...end).map { (Double($0) / rate, decay[$0]) }
        let meanX = points.map(\.0).reduce(0, +) / Double(points.count), meanY = points.map(\.1).reduce(0, +) / Double(points.count)
        let slope = points.map { ($0.0 - meanX) * ($0.1 - meanY) }.reduce(0, +) / points.map { ($0.0 - meanX) * ($0.0 - meanX) }.reduce(0, +)
        return -60 / slope
    }

    @Test(arguments: ReverbPreset.all.map(\.name))
    func eachPresetRingsForItsStatedReverberationTime(preset name: String) throws {
        let preset = try #require(ReverbPreset.named(name))
        let response = try Self.impulseResponse(Reverb.Settings(preset: preset))
        for channel in 0..<2 {
            let measured = Self.t30(Self.octaveBand(response[channel], centre: 707, rate: 44100), rate: 44100)
            #expect(abs(measured / preset.reverberationTime - 1) < 0.15,
                    "\(name), channel \(channel): T30 \(measured) s, stated \(preset.reverberationTime) s")
        }
    }

    @Test func reverberanceScalesTheTimeAsStated() throws {
        var settings = Reverb.Settings(preset: try #require(ReverbPreset.named("large room")))
        settings.reverberance = 0.9
        let response = try Self.impulseResponse(settings)
        let measured = Self.t30(Self.octaveBand(response[0], centre: 707, rate: 44100), rate: 44100)
        #expect(abs(measured / settings.reverberationTime - 1) < 0.15, "T30 \(measured) s, expected \(settings.reverberationTime) s")
        #expect(abs(settings.reverberationTime - 1.2 * pow(2, 0.8)) < 1e-9)
    }

    @Test func theLeftAndRightTailsAreDecorrelatedAndDepthBlendsThem() throws {
        func correlation(depth: Double) throws -> Double {
            var settings = Reverb.Settings(preset: try #require(ReverbPreset.named("medium hall")))
            settings.stereoDepth = depth
            let response = try Self.impulseResponse(settings)
            let from = 2205, to = min(response[0].count, 44100)
            var (lr, ll, rr) = (0.0, 0.0, 0.0)
            for index in from..<to {
                let (l, r) = (Double(response[0][index]), Double(response[1][index]))
                lr += l * r
                ll += l * l
                rr += r * r
            }
            return lr / (ll * rr).squareRoot()
        }
        let full = try correlation(depth: 1)
        #expect(abs(full) < 0.1, "correlation \(full)")
        #expect(try correlation(depth: 0) > 0.999)
    }

    @Test func theHighsDieFasterWithMoreDamping() throws {
        var settings = Reverb.Settings(preset: try #require(ReverbPreset.named("medium hall")))
        settings.damping = 0.8
        let response = try Self.impulseResponse(settings)
        let high = Self.t30(Self.octaveBand(response[0], centre: 8000, rate: 44100), rate: 44100)
        let middle = Self.t30(Self.octaveBand(response[0], centre: 707, rate: 44100), rate: 44100)
        #expect(high < 0.6 * middle, "8 kHz T30 \(high) s, 707 Hz \(middle) s")
    }

    @Test func thePreDelayHoldsTheReverberationBackAndTheDrySignalIsOnTime() throws {
        var settings = Reverb.Settings(preset: try #require(ReverbPreset.named("plate")), wet: 0.5)
        settings.preDelay = 0.1
        let impulse: [Float] = [1] + [Float](repeating: 0, count: 999)
        let output = try NodeHarness(node: ReverbNode(sampleRate: 44100, settings: settings, tailLimit: 441_000), channels: [impulse],
                                     sampleRate: 44100).render()[0]
        #expect(output[0] == 0.5)
        let firstReverberation = try #require(output.indices.dropFirst().first { abs(output[$0]) >= 1e-6 })
        #expect(firstReverberation >= 4410, "the reverberation starts at \(firstReverberation)")
        #expect(output.count > 44100, "the tail rings on past the pre-delay and the input")
    }

    @Test(arguments: [1, 64, 65, 128, 4096])
    func theOutputDoesNotDependOnTheSliceSize(sliceSize: Int) throws {
        let signal = [Signal.noise(frames: 8000, amplitude: 0.5), Signal.noise(frames: 8000, amplitude: 0.5, seed: 7)]
        func render(_ size: Int) throws -> [[Float]] {
            let node = try ReverbNode(sampleRate: 44100, settings: Reverb.Settings(preset: try #require(ReverbPreset.named("small room"))),
                                      tailLimit: 22050)
            let harness = try NodeHarness(node: node, channels: signal)
            try harness.graph.scheduleParameter(ReverbNode.Parameter.roomScale.rawValue, on: node, value: 40, atFrame: 3001)
            try harness.graph.scheduleParameter(ReverbNode.Parameter.damping.rawValue, on: node, value: 90, atFrame: 6007)
            return try harness.render(sliceSize: size)
        }
        let reference = try render(1000)
        #expect(reference[0].count > 8000)
        #expect(try render(sliceSize) == reference)
    }

    @Test func renderingAllocatesNothing() throws {
        let signal = [Signal.noise(frames: 30000, amplitude: 0.3), Signal.noise(frames: 30000, amplitude: 0.3, seed: 3)]
        let (allocations, slices) = try steadyStateAllocations(sliceSize: 512) {
            try NodeHarness(node: ReverbNode(sampleRate: 44100, settings: Reverb.Settings(preset: try #require(ReverbPreset.named("plate"))),
                                             tailLimit: 4410), channels: signal)
        }
        #expect(slices > 50)
        #expect(allocations == 0)
    }

    @Test func aGraphFileMakesItWithItsFieldsCheckedAndRanged() throws {
        let context = NodeContext(sampleRate: 48000, findPreset: { _ in throw PresetError(source: "", field: nil, problem: "none") })
        let kind = try #require(NodeCatalogue.kind(named: "reverb"))
        let node = try #require(try NodeCatalogue.make("room", kind: kind, fields: ["preset": "Large Hall", "wet": 30, "predelay": "20ms", "damping": 70],
                                                       context: context) as? ReverbNode)
        #expect(node.preset.name == "large hall")
        #expect(node.settings.wet == Double(Float(30)) / 100 && node.settings.damping == Double(Float(70)) / 100)
        #expect(abs(node.settings.preDelay - 0.02) < 1e-7)
        #expect(node.planDetail?.hasPrefix("preset 'large hall' (RT60 2.6 s), reverberance 50 %, damping 70 %, roomscale 100 %, stereodepth 100 %, predelay 0.02 s, wetgain 0 dB, wet 30 %, tail up to 60 s") == true,
                "\(node.planDetail ?? "")")
        #expect(throws: NodeSettingError(node: "room", kind: "reverb", field: "wetgain", problem: "must be from -10 to 10, not 12")) {
            try NodeCatalogue.make("room", kind: kind, fields: ["wetgain": 12], context: context)
        }
        #expect(throws: NodeSettingError.self) { try NodeCatalogue.make("room", kind: kind, fields: ["preset": "garage"], context: context) }
    }
}
