import MallocCounter
import TestSupport
import Testing
import TimeStretching

@Suite struct TimeStretcherTests {
    /// Stretches interleaved `input` at `tempo`, put `block` frames at a time and received
    /// whenever fewer than `read` are ready, then silence until `frames` frames came out.
    func stretch(_ stretcher: TimeStretcher, _ input: [Float], tempo: Double, block: Int = 2048, read: Int = 1024,
                 frames: Int) throws -> [Float] {
        stretcher.setTempo(tempo)
        let channels = stretcher.channelCount
        var output = [Float](repeating: 0, count: frames * channels)
        var given = 0, received = 0
        let silence = [Float](repeating: 0, count: block * channels)
        while received < frames {
            while stretcher.availableFrames < min(read, frames - received) {
                let count = min(block, max(0, input.count / channels - given))
                if count > 0 {
                    try input.withUnsafeBufferPointer { try stretcher.put($0.baseAddress! + given * channels, frames: count) }
                    given += count
                } else {
                    try silence.withUnsafeBufferPointer { try stretcher.put($0.baseAddress!, frames: block) }
                }
            }
            received += output.withUnsafeMutableBufferPointer {
                stretcher.receive(into: $0.baseAddress! + received * channels, frames: min(read, frames - received))
            }
        }
        return output
    }

    @Test func channelCountsAndRatesOutsideSoundTouchsAreRefusedWithTheLimit() {
        #expect(throws: TimeStretchError.unsupportedChannelCount(17)) { try TimeStretcher(channelCount: 17, sampleRate: 44100) }
        #expect(TimeStretchError.unsupportedChannelCount(17).description == "SoundTouch stretches 1 to 16 channels, not 17")
        #expect(throws: TimeStretchError.unsupportedSampleRate(0)) { try TimeStretcher(channelCount: 1, sampleRate: 0) }
        #expect(!TimeStretcher.libraryVersion.isEmpty && TimeStretcher.libraryVersion != "unknown")
    }

    /// A tone keeps its frequency, and its onset half a second in lands at 0.5 s / tempo.
    @Test(arguments: [0.8, 1.25, 2.0])
    func aToneKeepsItsPitchAndLandsWhereTheTempoSays(tempo: Double) throws {
        let rate = 44100.0
        let input = [Float](repeating: 0, count: 22050) + Signal.sine(frequency: 440, sampleRate: rate, frames: 88200)
        let frames = Int((Double(input.count) / tempo).rounded())
        let output = try stretch(try TimeStretcher(channelCount: 1, sampleRate: 44100, tempo: tempo), input, tempo: tempo, frames: frames)
        let onset = try #require(output.firstIndex { abs($0) > 0.01 })
        #expect(abs(Double(onset) - 22050 / tempo) < 0.015 * rate, "onset at \(onset), expected \(22050 / tempo)")
        let middle = output[Int(Double(22050 + 22050) / tempo)..<Int(Double(22050 + 66150) / tempo)]
        let upward = middle.indices.dropLast().filter { middle[$0] < 0 && middle[$0 + 1] >= 0 }
        let frequency = Double(upward.count - 1) * rate / Double(upward.last! - upward.first!)
        #expect(abs(frequency - 440) < 1, "\(frequency) Hz")
    }

    @Test func aClearedStretcherMakesTheSameFramesAsANewOne() throws {
        let input = Signal.noise(frames: 60000, seed: 9)
        let stretcher = try TimeStretcher(channelCount: 1, sampleRate: 48000, tempo: 1.5)
        let first = try stretch(stretcher, input, tempo: 1.5, frames: 40000)
        try stretcher.clear()
        #expect(try stretch(stretcher, input, tempo: 1.5, frames: 40000) == first)
        #expect(try stretch(try TimeStretcher(channelCount: 1, sampleRate: 48000, tempo: 1.5), input, tempo: 1.5, frames: 40000) == first)
        #expect(first.contains { $0 != 0 })
    }

    /// Once reserved for a way of using it, SoundTouch allocates nothing at any tempo in the range.
    @Test(arguments: [1, 2, 6])
    func aReservedStretcherAllocatesNothing(channels: Int) throws {
        let (block, read, frames) = (2048, 1024, 200_000)
        let input = Signal.noise(frames: frames * channels, seed: 4)
        var output = [Float](repeating: 0, count: read * channels)
        for tempo in [0.25, 1.0, 4.0] {
            let stretcher = try TimeStretcher(channelCount: channels, sampleRate: 44100)
            try stretcher.reserve(blockFrames: block, readFrames: read, tempos: 0.25...4)
            stretcher.setTempo(tempo)
            var given = 0, received = 0
            let before = malloc_counter_thread_allocations()
            try input.withUnsafeBufferPointer { input in
                try output.withUnsafeMutableBufferPointer { output in
                    while given + block <= frames {
                        while stretcher.availableFrames < read, given + block <= frames {
                            try stretcher.put(input.baseAddress! + given * channels, frames: block)
                            given += block
                        }
                        received += stretcher.receive(into: output.baseAddress!, frames: read)
                    }
                }
            }
            #expect(malloc_counter_thread_allocations() - before == 0, "tempo \(tempo), \(channels) channels")
            #expect(Double(received) > 0.85 * Double(given) / tempo, "\(received) frames out of \(given)")
        }
    }
}
