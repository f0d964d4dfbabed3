import AudioGraph
import Foundation
import MallocCounter
import SignalAnalysis
import Testing

/// The sketch as a whole: independent of block sizes, the same from interleaved input,
/// allocation-free, and its outline and spectrum right on signals whose answers are known.
@Suite struct SketchTests {
    @Test(arguments: [Int64(132_300), nil])
    func theSketchDoesNotDependOnBlockSizes(expected: Int64?) {
        let samples = Signals.noise(amplitude: 0.7, sampleRate: 44100, seconds: 3, channels: 2)
        let sketches = [1, 7, 4096, 65536].map { Signals.sketch(samples, channels: 2, sampleRate: 44100, expectedFrames: expected, block: $0) }
        for sketch in sketches.dropFirst() { #expect(sketch == sketches[0]) }
        #expect(sketches[0].frames == 132_300)
        #expect(!sketches[0].spectrumDecibels.isEmpty && sketches[0].integratedLoudness != nil)
    }

    @Test func interleavedInputGivesTheSameSketch() {
        let samples = Signals.noise(amplitude: 0.7, sampleRate: 48000, seconds: 2, channels: 3)
        let planar = Signals.sketch(samples, channels: 3, sampleRate: 48000, expectedFrames: 96000, block: 1000)
        let sketcher = SignalSketcher(sampleRate: 48000, channelCount: 3, expectedFrames: 96000)
        samples.withUnsafeBufferPointer { buffer in
            var done = 0
            for block in [1, 9000, 5, 77000] where done < 96000 {
                let count = min(block, 96000 - done)
                sketcher.add(interleaved: buffer.baseAddress! + 3 * done, frames: count)
                done += count
            }
            sketcher.add(interleaved: buffer.baseAddress! + 3 * done, frames: 96000 - done)
        }
        #expect(sketcher.sketch() == planar)
    }

    @Test func renderedAllocatesNothing() {
        let samples = Signals.noise(amplitude: 0.9, sampleRate: 44100, seconds: 2, channels: 2)
        let sketcher = SignalSketcher(sampleRate: 44100, channelCount: 2, expectedFrames: nil)
        let storage = AudioBufferStorage(channelCount: 2, capacity: 4096)
        for channel in 0..<2 {
            for frame in 0..<4096 { storage.list[channel][frame] = samples[2 * frame + channel] }
        }
        sketcher.rendered(storage.list, frames: 4096)
        let before = malloc_counter_thread_allocations()
        for block in 0..<200 { sketcher.rendered(storage.list, frames: 1 + (block * 997) % 4096) }
        let allocations = malloc_counter_thread_allocations() - before
        #expect(allocations == 0)
        #expect(sketcher.sketch().frames > 4096)
    }

    @Test func theOutlineFitsTheExpectedLengthAndMergesWhenItIsUnknown() {
        // Three periods in the 130 frames a column of the expected length covers.
        let samples = Signals.sine(frequency: 3 * 44100 / 130, amplitude: 0.5, sampleRate: 44100, seconds: 3, channels: 2)
        for expected in [Int64(132_300), nil] {
            let sketch = Signals.sketch(samples, channels: 2, sampleRate: 44100, expectedFrames: expected, block: 3000)
            #expect(sketch.minima.count == sketch.rms.count && sketch.maxima.count == sketch.rms.count)
            #expect(sketch.minima.count <= SignalSketcher.columnCount && sketch.minima.count > SignalSketcher.columnCount / 2)
            #expect(Int64(sketch.minima.count - 1) * sketch.framesPerColumn < sketch.frames)
            #expect(Int64(sketch.minima.count) * sketch.framesPerColumn >= sketch.frames)
            for column in 0..<(sketch.rms.count - 1) {
                #expect(abs(sketch.rms[column] - Float(0.5 / 2.0.squareRoot())) < 0.02)
                #expect(sketch.maxima[column] > 0.49 && sketch.maxima[column] <= 0.5)
                #expect(sketch.minima[column] < -0.49 && sketch.minima[column] >= -0.5)
            }
        }
        let known = Signals.sketch(samples, channels: 2, sampleRate: 44100, expectedFrames: 132_300, block: 3000)
        #expect(known.framesPerColumn == 130)
    }

    @Test func aFullScaleSineCentredOnABinReadsZeroDecibels() throws {
        let bin = 93, rate = 48000.0
        let frequency = Double(bin) * rate / Double(SignalSketcher.windowFrames)
        let samples = Signals.sine(frequency: frequency, amplitude: 1, sampleRate: rate, seconds: 4, channels: 2)
        let sketch = Signals.sketch(samples, channels: 2, sampleRate: rate, expectedFrames: nil, block: 4096)
        #expect(sketch.spectrumDecibels.count == SignalSketcher.windowFrames / 2 + 1)
        #expect(sketch.binWidth == rate / Double(SignalSketcher.windowFrames))
        #expect(abs(sketch.spectrumDecibels[bin] - 0) < 0.01, "\(sketch.spectrumDecibels[bin]) dB")
        #expect(sketch.spectrumDecibels[bin + 10] < -100)
        let quieter = Signals.sine(frequency: frequency, amplitude: 0.1, sampleRate: rate, seconds: 4, channels: 1)
        let quiet = Signals.sketch(quieter, channels: 1, sampleRate: rate, expectedFrames: nil, block: 4096)
        #expect(abs(quiet.spectrumDecibels[bin] - -20) < 0.01)
    }

    @Test func theSpectrumStrideBoundsTheWindowsOfALongStream() {
        #expect(SignalSketcher(sampleRate: 44100, channelCount: 2, expectedFrames: nil).spectrumStride == SignalSketcher.unknownLengthStride)
        let tenMinutes = SignalSketcher(sampleRate: 44100, channelCount: 2, expectedFrames: 600 * 44100)
        #expect(Int64(tenMinutes.spectrumStride * SignalSketcher.targetWindows * SignalSketcher.windowFrames) >= 600 * 44100)
    }

    @Test func aStreamShorterThanAWindowHasNoSpectrum() {
        let samples = Signals.sine(frequency: 100, amplitude: 0.5, sampleRate: 44100, seconds: 0.05, channels: 2)
        let sketch = Signals.sketch(samples, channels: 2, sampleRate: 44100, expectedFrames: nil, block: 100)
        #expect(sketch.spectrumDecibels.isEmpty)
        #expect(Int64(sketch.rms.count) == (sketch.frames + 63) / 64)
    }
}
