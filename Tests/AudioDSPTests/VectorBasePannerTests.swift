import AudioDSP
import Foundation
import MallocCounter
import Testing
import TestSupport

@Suite struct VectorBasePannerTests {
    /// The gains of a source at `azimuth` in `layout`.
    func gains(_ layout: SpeakerLayout, _ azimuth: Double, elevation: Double = 0) -> [Float] {
        let panner = VectorBasePanner(layout: layout)
        var gains = [Float](repeating: .nan, count: layout.channelCount)
        gains.withUnsafeMutableBufferPointer { panner.gains(azimuth: azimuth, elevation: elevation, into: $0) }
        return gains
    }

    /// The channel whose speaker stands at the mirror image of `channel`'s (itself for the
    /// centre and the LFE).
    func mirror(of channel: Int, in layout: SpeakerLayout) -> Int {
        let azimuths = layout.speakerAzimuths
        return azimuths.firstIndex { $0 == azimuths[channel].map { -$0 } } ?? channel
    }

    @Test(arguments: SpeakerLayout.allCases)
    func aSourceAtASpeakersAngleFeedsOnlyThatSpeaker(layout: SpeakerLayout) {
        for (channel, azimuth) in layout.speakerAzimuths.enumerated() {
            guard let azimuth else { continue }
            for elevation in [0.0, 40] {
                let result = gains(layout, azimuth, elevation: elevation)
                #expect(abs(result[channel] - 1) < 1e-6, "\(layout) \(layout.speakerNames[channel]): \(result)")
                for other in result.indices where other != channel {
                    #expect(abs(result[other]) < 1e-6, "\(layout) \(layout.speakerNames[channel]): \(result)")
                }
            }
        }
    }

    /// Every degree of a circle: power within 0.1 dB of the source's, at most two speakers,
    /// no negative gain, nothing in the LFE, no jump from one degree to the next, and the
    /// mirror image of the source at the mirrored azimuth.
    @Test(arguments: SpeakerLayout.allCases)
    func aCirclingSourceKeepsItsPowerAndMirrorsAcrossTheMedianPlane(layout: SpeakerLayout) {
        var previous = gains(layout, -180)
        for degree in -180...180 {
            let azimuth = Double(degree)
            let result = gains(layout, azimuth)
            let power = result.reduce(0) { $0 + Double($1) * Double($1) }
            #expect(abs(10 * log10(power)) < 0.1, "\(layout) at \(degree)°: \(result)")
            #expect(result.allSatisfy { $0 >= 0 } && result.filter { $0 > 1e-6 }.count <= 2, "\(layout) at \(degree)°: \(result)")
            if let lfe = layout.lfeChannel { #expect(result[lfe] == 0, "\(layout) at \(degree)°") }
            let largestStep = zip(result, previous).map { abs($0 - $1) }.max() ?? 0
            #expect(largestStep < 0.1, "\(layout) from \(degree - 1)° to \(degree)°: \(previous) → \(result)")
            let mirrored = gains(layout, -azimuth)
            for channel in result.indices {
                #expect(abs(result[channel] - mirrored[mirror(of: channel, in: layout)]) < 1e-6, "\(layout) at ±\(degree)°")
            }
            #expect(gains(layout, azimuth, elevation: 70) == result, "elevation is projected away")
            previous = result
        }
    }

    /// Between two speakers the gains follow VBAP's tangent law, (g_R − g_L)/(g_R + g_L) =
    /// tan φ / tan φ₀ for a source φ from the pair's middle, each half-angle φ₀ wide.
    @Test func betweenTwoSpeakersTheGainsFollowTheTangentLaw() {
        for azimuth in stride(from: -30.0, through: 30, by: 5) {
            let result = gains(.stereo, azimuth)
            let ratio = Double((result[1] - result[0]) / (result[1] + result[0]))
            #expect(abs(ratio - tan(azimuth * .pi / 180) / tan(30 * .pi / 180)) < 1e-5, "\(azimuth)°: \(result)")
        }
        let sideAndBack = gains(.surround71, 120)
        #expect(abs(sideAndBack[7] - 0.7071068) < 1e-6 && abs(sideAndBack[5] - 0.7071068) < 1e-6, "\(sideAndBack)")
        let rear = gains(.surround51, 180)
        #expect(abs(rear[4] - 0.7071068) < 1e-6 && abs(rear[5] - 0.7071068) < 1e-6, "\(rear)")
    }

    @Test func stereoHearsASourceBehindAsItsMirrorInFront() {
        #expect(gains(.stereo, 90) == [0, 1], "outside the front arc: the nearer speaker alone")
        #expect(gains(.stereo, -100) == [1, 0])
        #expect(gains(.stereo, 150) == gains(.stereo, 30))
        #expect(gains(.stereo, 170) == gains(.stereo, 10))
        #expect(gains(.stereo, 180) == gains(.stereo, 0))
    }

    @Test func azimuthsWrapAroundTheCircle() {
        for layout in SpeakerLayout.allCases {
            for (azimuth, same) in [(370.0, 10.0), (-190, 170), (540, 180), (-180, 180)] {
                let wrapped = gains(layout, azimuth), expected = gains(layout, same)
                #expect(zip(wrapped, expected).allSatisfy { abs($0 - $1) < 1e-6 }, "\(layout): \(azimuth)° as \(same)°")
            }
        }
    }

    /// A mono noise rendered block by block while the source goes once round the listener,
    /// one degree a block: every block's summed output power, and the whole output's, is the
    /// input's within 0.1 dB; no allocation while rendering.
    @Test(arguments: SpeakerLayout.allCases)
    func aMonoSourcePannedRoundTheListenerKeepsItsRenderedPower(layout: SpeakerLayout) {
        let block = 480, degrees = 360
        let source = Signal.noise(frames: block * degrees, amplitude: 0.5, seed: 30)
        let panner = VectorBasePanner(layout: layout)
        var outputs = (0..<layout.channelCount).map { _ in [Float](repeating: 0, count: source.count) }
        var gains = [Float](repeating: 0, count: layout.channelCount)
        func render() {
            gains.withUnsafeMutableBufferPointer { gains in
                for step in 0..<degrees {
                    panner.gains(azimuth: Double(step - 180), elevation: Double(step % 90), into: gains)
                    for channel in 0..<layout.channelCount {
                        let gain = gains[channel]
                        outputs[channel].withUnsafeMutableBufferPointer { output in
                            for frame in step * block..<(step + 1) * block { output[frame] = gain * source[frame] }
                        }
                    }
                }
            }
        }
        // Rendered once uncounted: the Swift runtime makes the type metadata of each path on first
        // use, once a process (and the cases run in parallel), so the second render is the steady state.
        render()
        let before = malloc_counter_thread_allocations()
        render()
        #expect(malloc_counter_thread_allocations() - before == 0)
        func energy(_ samples: ArraySlice<Float>) -> Double { samples.reduce(0) { $0 + Double($1) * Double($1) } }
        for step in 0..<degrees {
            let frames = step * block..<(step + 1) * block
            let rendered = outputs.reduce(0) { $0 + energy($1[frames]) }
            #expect(abs(10 * log10(rendered / energy(source[frames]))) < 0.1, "\(layout) at \(step - 180)°")
        }
        let total = outputs.reduce(0) { $0 + energy($1[...]) }
        #expect(abs(10 * log10(total / energy(source[...]))) < 0.1, "\(layout), the whole circle")
    }
}
