import AudioDSP
import CAudioKernels
import Foundation
import Testing

@Suite struct FastLogarithmTests {
    @Test func log2IsWithinAMillionthOfTheLibrarysBeyondFloatRounding() {
        var worst: Float = 0
        var x: Float = 1e-30
        while x < 1e30 {
            let exact = Foundation.log2(x)
            worst = max(worst, abs(FastLogarithm.log2(x) - exact) - exact.ulp)
            x *= 1.0137
        }
        #expect(worst < 1e-6)
    }

    @Test func exp2IsWithinFloatsOwnPrecisionAndUnderflowsToZero() {
        var worst: Float = 0
        var y: Float = -120
        while y < 120 {
            worst = max(worst, abs(FastLogarithm.exp2(y) / Foundation.exp2(y) - 1))
            y += 0.0173
        }
        #expect(worst < 5e-7)
        #expect(FastLogarithm.exp2(-200) == 0)
        #expect(FastLogarithm.exp2(0) == 1 && FastLogarithm.exp2(3) == 8)
    }
}

@Suite struct TruePeakInterpolatorTests {
    @Test func theRateSetsTheOversamplingAsLibebur128Does() {
        #expect(TruePeakInterpolator(sampleRate: 44100).factor == 4)
        #expect(TruePeakInterpolator(sampleRate: 96000).factor == 2)
        #expect(TruePeakInterpolator(sampleRate: 192_000).factor == 1)
        let four = TruePeakInterpolator(sampleRate: 48000)
        #expect(four.tapsPerPhase == 12 && four.delay == 6 && four.phases.count == 3)
    }

    @Test func itFindsTheTruePeakOfAQuarterRateSineBetweenItsSamples() {
        let interpolator = TruePeakInterpolator(sampleRate: 48000)
        let samples = (0..<64).map { Float(sin(Double.pi / 2 * Double($0) + .pi / 4)) }
        var largest: Float = 0
        for newest in interpolator.tapsPerPhase..<samples.count {
            for phase in interpolator.phases {
                let window = samples[(newest - interpolator.tapsPerPhase + 1)...newest]
                largest = max(largest, abs(zip(phase, window).map(*).reduce(0, +)))
            }
        }
        #expect(samples.map(abs).max()! < 0.7072)
        #expect(abs(largest - 1) < 0.01, "the point halfway between two samples at 0.707 is the sine's crest: \(largest)")
    }
}

/// Noise with loud bursts from a fixed seed, for the dynamics kernels' path and reference checks.
func burstyNoise(frames: Int, seed: UInt64, loudFrom: [Range<Int>], loud: Float, quiet: Float) -> [Float] {
    var state = seed | 1
    return (0..<frames).map { frame in
        state ^= state << 13; state ^= state >> 7; state ^= state << 17
        let unit = Float(state >> 40) / Float(1 << 24) * 2 - 1
        return unit * (loudFrom.contains { $0.contains(frame) } ? loud : quiet)
    }
}

@Suite struct CompressorKernelTests {
    static func compressed(_ input: [[Float]], settings: Compressor.Settings, slice: Int) -> [[Float]] {
        var compressor = Compressor(settings: settings, sampleRate: 44100)
        var channels = input
        let frames = input[0].count
        var start = 0
        while start < frames {
            let count = min(slice, frames - start)
            var pointers = (0..<channels.count).map { channel in
                channels[channel].withUnsafeMutableBufferPointer { $0.baseAddress! + start }
            }
            compressor.process(&pointers, channelCount: channels.count, frames: count)
            start += count
        }
        return channels
    }

    @Test(arguments: [Compressor.Detection.peak, .rms])
    func everyPathAndEverySliceGiveTheSameBits(detection: Compressor.Detection) {
        let input = (0..<2).map { burstyNoise(frames: 9001, seed: 7 + UInt64($0), loudFrom: [2000..<5000], loud: 0.9, quiet: 0.05) }
        let settings = Compressor.Settings(threshold: -24, ratio: 5, attack: 0.002, release: 0.03, knee: 6, makeup: 3, detection: detection)
        let wide = Self.compressed(input, settings: settings, slice: 9001)
        let baseline = SampleConversion.withBaselineInstructions { Self.compressed(input, settings: settings, slice: 9001) }
        let sliced = Self.compressed(input, settings: settings, slice: 333)
        #expect(wide == baseline)
        #expect(wide == sliced)
        #expect(wide[0][3000..<5000].map(abs).max()! < 0.6, "the bursts are compressed")
        #expect(wide != input)
    }
}

/// The limiter against the algorithm it documents, written frame by frame as plainly as
/// possible: the true peak of each frame's points (the reconstruction kernel on that frame's
/// window alone, and BS.1770-4's points summed plainly), the need, the minimum over the window by
/// brute force, the release and the average. Equal bits show that the block kernels, the van
/// Herk–Gil-Werman minimum and the settled shortcut change nothing.
@Suite(.serialized) struct TruePeakLimiterTests {
    static func reference(_ input: [[Float]], limiter: TruePeakLimiter, releaseFrames: Double, ceiling: Double) -> [[Float]] {
        let interpolator = limiter.interpolator, taps = interpolator.tapsPerPhase, reach = interpolator.delay
        var stages = limiter.filter.stages
        let window = limiter.attackFrames + 2 * reach, frames = input[0].count
        let quietBound = max(1, (interpolator.phases + limiter.standard.phases).map { $0.reduce(0) { $0 + abs($1) } }.max() ?? 1)
        let quietLevel = Float(ceiling) / quietBound
        let step = TruePeakLimiter.releaseStep(frames: releaseFrames)
        func sample(_ channel: Int, _ frame: Int) -> Float { frame >= 0 && frame < frames ? input[channel][frame] : 0 }
        var needs = [Double](), quiet = 0, gain = 1.0
        var released = [Double](repeating: 1, count: limiter.attackFrames), sum = Double(limiter.attackFrames), position = 0
        var output = input.map { _ in [Float](repeating: 0, count: frames) }
        for frame in 0..<frames {
            let level = (0..<input.count).map { abs(sample($0, frame)) }.max()!
            quiet = level >= quietLevel ? 0 : quiet + 1
            var peak: Float = 0
            if quiet < taps {
                for channel in 0..<input.count {
                    let window = (frame - taps + 1...frame).map { sample(channel, $0) }
                    window.withUnsafeBufferPointer { aurender_reconstructed_peaks($0.baseAddress! + taps - 1, 1, &stages, &peak) }
                    let standard = limiter.standard, newest = frame - (reach - standard.delay)
                    peak = max(peak, abs(sample(channel, newest - standard.delay)))
                    for phase in standard.phases {
                        var point: Float = 0
                        for k in 0..<standard.tapsPerPhase { point += phase[k] * sample(channel, newest - standard.tapsPerPhase + 1 + k) }
                        peak = max(peak, abs(point))
                    }
                }
            }
            needs.append(quiet < taps && Double(peak) > ceiling ? ceiling / Double(peak) : 1)
            let minimum = needs[max(0, frame - window + 1)...].min()!
            gain = minimum - gain < 1e-9 ? minimum : gain * (1 - step) + minimum * step
            sum += gain - released[position]
            released[position] = gain
            position = (position + 1) % limiter.attackFrames
            let applied = Float(sum * (1 / Double(limiter.attackFrames)))
            for channel in 0..<input.count { output[channel][frame] = sample(channel, frame - limiter.latency) * applied }
        }
        return output
    }

    static func limited(_ input: [[Float]], releaseFrames: Double, ceiling: Double, slice: Int, attackFrames: Int = 64) -> [[Float]] {
        let limiter = TruePeakLimiter(channelCount: input.count, sampleRate: 44100, ceiling: ceiling, attackFrames: attackFrames,
                                      releaseFrames: releaseFrames)
        var channels = input
        var start = 0
        while start < input[0].count {
            let count = min(slice, input[0].count - start)
            var pointers = (0..<channels.count).map { channel in channels[channel].withUnsafeMutableBufferPointer { $0.baseAddress! } }
            limiter.process(&pointers, offset: start, frames: count)
            start += count
        }
        return channels
    }

    @Test func theBlocksGiveTheBitsOfThePlainAlgorithmOnEveryPathAndSlice() {
        let frames = 20000, ceiling = 0.5, release = 80.0
        let input = (0..<2).map {
            burstyNoise(frames: frames, seed: 11 + UInt64($0), loudFrom: [3000..<5000, 13000..<14000], loud: 0.95, quiet: 0.1)
        }
        let probe = TruePeakLimiter(channelCount: 2, sampleRate: 44100, ceiling: ceiling, attackFrames: 64, releaseFrames: release)
        let expected = Self.reference(input, limiter: probe, releaseFrames: release, ceiling: ceiling)
        #expect(Self.limited(input, releaseFrames: release, ceiling: ceiling, slice: frames) == expected)
        #expect(Self.limited(input, releaseFrames: release, ceiling: ceiling, slice: 77) == expected)
        #expect(SampleConversion.withBaselineInstructions {
            Self.limited(input, releaseFrames: release, ceiling: ceiling, slice: 1000)
        } == expected)
        #expect(expected[0][4000..<5000].map(abs).max()! < 0.55, "the bursts are limited")
    }

    /// Limiting throughout (every frame's gain moving), with a lookahead longer than the gain
    /// path's block of 256 frames, so its window and its average's ring wrap across blocks.
    @Test func constantLimitingWithALongLookaheadGivesThePlainAlgorithmsBits() {
        let frames = 12000, ceiling = 0.3, release = 400.0, attack = 300
        let input = (0..<2).map { burstyNoise(frames: frames, seed: 23 + UInt64($0), loudFrom: [0..<frames], loud: 0.9, quiet: 0) }
        let probe = TruePeakLimiter(channelCount: 2, sampleRate: 44100, ceiling: ceiling, attackFrames: attack, releaseFrames: release)
        let expected = Self.reference(input, limiter: probe, releaseFrames: release, ceiling: ceiling)
        #expect(Self.limited(input, releaseFrames: release, ceiling: ceiling, slice: frames, attackFrames: attack) == expected)
        #expect(Self.limited(input, releaseFrames: release, ceiling: ceiling, slice: 301, attackFrames: attack) == expected)
        #expect(SampleConversion.withBaselineInstructions {
            Self.limited(input, releaseFrames: release, ceiling: ceiling, slice: 999, attackFrames: attack)
        } == expected)
        #expect(expected[0][2000...].map(abs).max()! < 0.33, "the noise is limited throughout")
    }
}

/// The loud-frame marks against a count of the frames since the last one at or over the level,
/// frame by frame, on both paths, for reaches within and beyond the vector path's, in blocks
/// of every awkward size.
@Suite struct LoudFrameTests {
    static func marked(_ levels: [Float], reach: Int, block: Int) -> (loud: [Bool], quiet: Int, any: [Bool]) {
        var loud = [Bool](repeating: false, count: levels.count), quiet = 0, any: [Bool] = []
        var start = 0
        while start < levels.count {
            let count = min(block, levels.count - start)
            any.append(levels.withUnsafeBufferPointer { source in
                loud.withUnsafeMutableBufferPointer { marks in
                    aurender_mark_loud(source.baseAddress! + start, count, 0.5, reach, &quiet, marks.baseAddress! + start)
                }
            })
            start += count
        }
        return (loud, quiet, any)
    }

    @Test(arguments: [1, 12, 24, 70])
    func theMarksAreTheFrameByFrameCounts(reach: Int) {
        let levels = burstyNoise(frames: 3000, seed: 31, loudFrom: [400..<420, 1000..<1001, 2000..<2600], loud: 1, quiet: 0.3).map(abs)
        var quiet = 0
        let expected = levels.map { level -> Bool in
            quiet = level >= 0.5 ? 0 : quiet + 1
            return quiet < reach
        }
        for block in [1, 7, 256, 300, 3000] {
            let wide = Self.marked(levels, reach: reach, block: block)
            let baseline = SampleConversion.withBaselineInstructions { Self.marked(levels, reach: reach, block: block) }
            #expect(wide.loud == expected && wide.quiet == quiet)
            #expect(baseline.loud == wide.loud && baseline.quiet == wide.quiet && baseline.any == wide.any)
            var first = 0
            for (index, any) in wide.any.enumerated() {
                let count = min(block, levels.count - first)
                #expect(any == expected[first..<(first + count)].contains(true), "block \(index)")
                first += count
            }
        }
        #expect(expected.contains(false) && expected.contains(true))
    }
}
