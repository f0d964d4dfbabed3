import FourierTransforms
import Foundation
import MallocCounter
import SpatialAudio
import TestSupport
import Testing

/// What a listener hears from the binaural renderer with Debian's MIT KEMAR set: white noise to
/// one side reaches that ear first and louder, straight ahead both ears alike, and a moving
/// source renders the same however its input is cut, without allocating.
@Suite struct BinauralRendererTests {
    static let rate = 48_000.0

    /// Renders `noise` from one direction and returns the two ears with the latency removed.
    static func ears(azimuth: Double, elevation: Double = 0, frames: Int = 48_000) throws -> (left: [Float], right: [Float]) {
        let hrtf = try HRTFSet(sampleRate: rate)
        let renderer = BinauralRenderer(hrtf: hrtf, sourceCount: 1)
        renderer.place(source: 0, azimuth: azimuth, elevation: elevation, gain: 1)
        let input = DirectConvolution.noise(frames, seed: 7) + [Float](repeating: 0, count: renderer.latency)
        let (left, right) = render(renderer, [input]) { _, _ in }
        return (Array(left[renderer.latency...]), Array(right[renderer.latency...]))
    }

    /// Runs `inputs` through `renderer` in pieces of the given lengths in turn, each also cut at
    /// every multiple of `marks` (as a graph cuts its slices at scheduled changes), calling
    /// `before` with each piece's first frame first.
    static func render(_ renderer: BinauralRenderer, _ inputs: [[Float]], pieces: [Int] = [4096], marks: Int = .max,
                       before: (BinauralRenderer, Int) -> Void) -> (left: [Float], right: [Float]) {
        let total = inputs[0].count
        let buffers = inputs.map { samples in
            let buffer = UnsafeMutablePointer<Float>.allocate(capacity: total)
            buffer.initialize(from: samples, count: total)
            return buffer
        }
        defer { buffers.forEach { $0.deallocate() } }
        var left = [Float](repeating: 0, count: total), right = left
        let pointers = UnsafeMutablePointer<UnsafeMutablePointer<Float>>.allocate(capacity: inputs.count)
        defer { pointers.deallocate() }
        left.withUnsafeMutableBufferPointer { left in
            right.withUnsafeMutableBufferPointer { right in
                var done = 0, piece = 0
                while done < total {
                    let count = min(pieces[piece % pieces.count], total - done, marks - done % marks)
                    before(renderer, done)
                    for (index, buffer) in buffers.enumerated() { pointers[index] = buffer + done }
                    renderer.process(inputs: pointers, left: left.baseAddress! + done, right: right.baseAddress! + done, frames: count)
                    done += count
                    piece += 1
                }
            }
        }
        return (left, right)
    }

    /// The lag in seconds by which `right` trails `left` (negative: the right ear hears first),
    /// from the peak of their cross-correlation within ±1.5 ms.
    static func lag(_ left: [Float], _ right: [Float]) -> Double {
        let most = Int(0.0015 * rate)
        var best = 0, bestValue = -Double.infinity
        for shift in -most...most {
            var sum = 0.0
            for n in most..<(left.count - most) { sum += Double(left[n]) * Double(right[n + shift]) }
            if sum > bestValue { bestValue = sum; best = shift }
        }
        return Double(best) / rate
    }

    /// The power between `low` and `high` Hz, in dB, from 4096-point periodograms averaged.
    static func bandPower(_ signal: [Float], low: Double, high: Double) -> Double {
        let size = 4096
        let fft = RealFFT(size: size)
        var total = 0.0
        var start = 0
        while start + size <= signal.count {
            for n in 0..<size {
                let window = 0.5 - 0.5 * cos(2 * Double.pi * Double(n) / Double(size))
                fft.input[n] = signal[start + n] * Float(window)
            }
            fft.transform()
            for bin in Int(low / rate * Double(size))...Int(high / rate * Double(size)) {
                let re = Double(fft.output[2 * bin]), im = Double(fft.output[2 * bin + 1])
                total += re * re + im * im
            }
            start += size / 2
        }
        return 10 * log10(total)
    }

    @Test func noiseAtPlus90ReachesTheRightEarFirstAndLouder() throws {
        let (left, right) = try Self.ears(azimuth: 90)
        let lag = Self.lag(left, right)
        #expect(lag <= -0.0005 && lag >= -0.0008, "the right ear leads by \(-lag * 1000) ms")
        let difference = Self.bandPower(right, low: 1000, high: 4000) - Self.bandPower(left, low: 1000, high: 4000)
        #expect(difference >= 6, "the right ear is \(difference) dB louder between 1 and 4 kHz")
    }

    @Test func noiseAtMinus90IsTheMirror() throws {
        let (left, right) = try Self.ears(azimuth: -90)
        let lag = Self.lag(left, right)
        #expect(lag >= 0.0005 && lag <= 0.0008, "the left ear leads by \(lag * 1000) ms")
        let difference = Self.bandPower(left, low: 1000, high: 4000) - Self.bandPower(right, low: 1000, high: 4000)
        #expect(difference >= 6, "the left ear is \(difference) dB louder between 1 and 4 kHz")
    }

    @Test func noiseAheadReachesBothEarsAlike() throws {
        let (left, right) = try Self.ears(azimuth: 0)
        let difference = Self.bandPower(left, low: 20, high: 20_000) - Self.bandPower(right, low: 20, high: 20_000)
        #expect(abs(difference) <= 1, "the ears differ by \(difference) dB")
        #expect(abs(Self.lag(left, right)) <= 1 / Self.rate)
    }

    /// A source circling once a second, placed again at each 256-frame mark, its input cut
    /// into pieces of different lengths: the same bits every way.
    @Test func aMovingSourceRendersTheSameHoweverItsInputIsCut() throws {
        let hrtf = try HRTFSet(sampleRate: Self.rate)
        let input = DirectConvolution.noise(24_000, seed: 3)
        let move: (BinauralRenderer, Int) -> Void = { renderer, frame in
            renderer.place(source: 0, azimuth: Double(frame / 256 * 256 % 48_000) / 48_000 * 360 - 180, elevation: 0, gain: 1)
        }
        var outputs: [[Float]] = []
        for pieces in [[4096], [100, 37], [256, 999, 1024]] {
            let renderer = BinauralRenderer(hrtf: hrtf, sourceCount: 1)
            let (left, right) = Self.render(renderer, [input], pieces: pieces, marks: 256, before: move)
            outputs.append(left + right)
        }
        #expect(outputs[0].contains { abs($0) > 0.1 })
        for other in outputs.dropFirst() {
            #expect(zip(other, outputs[0]).filter { $0 != $1 }.count == 0)
        }
    }

    /// A jump from +90° to −90° fades over one block: no step between samples is more than a
    /// quarter larger than the steady renders' largest (a switch without a fade steps by up to
    /// the difference of the two directions' signals).
    @Test func aJumpIsCrossfadedWithoutAClick() throws {
        let hrtf = try HRTFSet(sampleRate: Self.rate)
        let input = (0..<16_384).map { Float(sin(2 * Double.pi * 500 * Double($0) / Self.rate)) * 0.5 }
        let renderer = BinauralRenderer(hrtf: hrtf, sourceCount: 1)
        let (left, _) = Self.render(renderer, [input], pieces: [1024]) { renderer, frame in
            renderer.place(source: 0, azimuth: frame < 8192 ? 90 : -90, elevation: 0, gain: 1)
        }
        let steps = zip(left.dropFirst(), left).map { abs($0 - $1) }
        let steady = steps[2048..<8192].max()!, after = steps[12_288...].max()!
        #expect(steps.max()! <= max(steady, after) * 1.25)
    }

    @Test func placingAndRenderingAllocateNothing() throws {
        let hrtf = try HRTFSet(sampleRate: Self.rate)
        let renderer = BinauralRenderer(hrtf: hrtf, sourceCount: 4)
        let frames = 1000
        let input = UnsafeMutablePointer<Float>.allocate(capacity: frames)
        input.initialize(from: DirectConvolution.noise(frames, seed: 5), count: frames)
        let left = UnsafeMutablePointer<Float>.allocate(capacity: frames), right = UnsafeMutablePointer<Float>.allocate(capacity: frames)
        let inputs = UnsafeMutablePointer<UnsafeMutablePointer<Float>>.allocate(capacity: 4)
        inputs.initialize(repeating: input, count: 4)
        defer { [input, left, right].forEach { $0.deallocate() }; inputs.deallocate() }
        for source in 0..<4 { renderer.place(source: source, azimuth: Double(source) * 30, elevation: 0, gain: 1) }
        renderer.process(inputs: inputs, left: left, right: right, frames: frames)
        var before = malloc_counter_thread_allocations()
        renderer.place(source: 0, azimuth: 33, elevation: 0, gain: 1)
        let placing = malloc_counter_thread_allocations() - before
        renderer.process(inputs: inputs, left: left, right: right, frames: frames)
        let processing = malloc_counter_thread_allocations() - before - placing
        #expect(placing == 0)
        #expect(processing == 0)
        before = malloc_counter_thread_allocations()
        for step in 0..<40 {
            for source in 0..<4 { renderer.place(source: source, azimuth: Double(step * 7 + source * 30) - 170, elevation: Double(step % 5) * 10, gain: 0.5) }
            renderer.process(inputs: inputs, left: left, right: right, frames: frames)
        }
        #expect(malloc_counter_thread_allocations() - before == 0)
    }

    @Test func aFileThatIsNotSOFAIsRefusedByName() throws {
        let folder = try TemporaryFolder()
        let path = folder.path + "/not.sofa"
        try Data("hello".utf8).write(to: URL(fileURLWithPath: path))
        #expect(throws: HRTFError.self) { try HRTFSet(path: path, sampleRate: 48_000) }
        do {
            _ = try HRTFSet(path: path, sampleRate: 48_000)
        } catch {
            #expect(error.description.hasPrefix("the SOFA file \(path) "))
        }
        #expect(throws: HRTFError.self) { try HRTFSet(path: folder.path + "/missing.sofa", sampleRate: 48_000) }
    }
}
