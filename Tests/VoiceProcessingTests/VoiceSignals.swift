import AudioGraph
import Foundation
import Resampling
import TestSupport
import VoiceProcessing

/// The test signals of the voice tests, made in the tests: speech by espeak-ng, seeded pink
/// noise, a seeded room, and the measures the tests take of them.
enum VoiceSignals {
    /// `text` spoken by espeak-ng's `voice`, at `rate` (resampled by soxr from espeak's 22050 Hz).
    static func speech(_ text: String, voice: String = "en", rate: Int) throws -> [Float] {
        let folder = try TemporaryFolder()
        let path = folder.file("speech.wav")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/espeak-ng")
        process.arguments = ["-v", voice, "-g", "10", "-w", path, text]
        try process.run()
        process.waitUntilExit()
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        var offset = 12, sourceRate = 22050
        var samples: [Float] = []
        while offset + 8 <= bytes.count {
            let id = String(decoding: bytes[offset..<offset + 4], as: UTF8.self)
            let size = Int(bytes[offset + 4]) | Int(bytes[offset + 5]) << 8 | Int(bytes[offset + 6]) << 16 | Int(bytes[offset + 7]) << 24
            if id == "fmt " { sourceRate = Int(bytes[offset + 12]) | Int(bytes[offset + 13]) << 8 | Int(bytes[offset + 14]) << 16 }
            if id == "data" {
                let end = min(bytes.count, offset + 8 + size)
                for index in stride(from: offset + 8, to: end - 1, by: 2) {
                    samples.append(Float(Int16(bitPattern: UInt16(bytes[index]) | UInt16(bytes[index + 1]) << 8)) / 32768)
                }
                break
            }
            offset += 8 + size + (size & 1)
        }
        return try resample(samples, from: sourceRate, to: rate)
    }

    static func resample(_ samples: [Float], from: Int, to: Int) throws -> [Float] {
        guard from != to else { return samples }
        let configuration = ResamplerConfiguration(inputRate: from, outputRate: to, channelCount: 1)
        let engine = try ResamplerRegistry.defaultEngine.makeEngine(configuration)
        var output = [Float](repeating: 0, count: configuration.outputFrames(forInputFrames: samples.count))
        var consumed = 0, produced = 0
        try samples.withUnsafeBufferPointer { input in
            try output.withUnsafeMutableBufferPointer { out in
                while produced < out.count {
                    let step = try engine.process(.interleaved(input.baseAddress! + consumed), inputFrames: input.count - consumed,
                                                  into: .interleaved(out.baseAddress! + produced), outputCapacity: out.count - produced,
                                                  endOfInput: true)
                    consumed += step.framesConsumed
                    produced += step.framesProduced
                    if step.framesProduced == 0 { break }
                }
            }
        }
        return output
    }

    /// A generator of seeded uniform and Gaussian numbers (xorshift64*).
    struct Random {
        var state: UInt64
        mutating func uniform() -> Double {
            state ^= state >> 12; state ^= state << 25; state ^= state >> 27
            return Double((state &* 2685821657736338717) >> 11) / Double(1 << 53)
        }
        mutating func gaussian() -> Double {
            let (u, v) = (max(uniform(), 1e-300), uniform())
            return (-2 * log(u)).squareRoot() * cos(2 * Double.pi * v)
        }
    }

    /// Pink noise (Paul Kellet's filter over seeded white noise), `count` samples.
    static func pinkNoise(count: Int, seed: UInt64) -> [Float] {
        var random = Random(state: seed)
        var (b0, b1, b2, b3, b4, b5, b6) = (0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0)
        return (0..<count).map { _ in
            let white = random.gaussian()
            b0 = 0.99886 * b0 + white * 0.0555179; b1 = 0.99332 * b1 + white * 0.0750759
            b2 = 0.96900 * b2 + white * 0.1538520; b3 = 0.86650 * b3 + white * 0.3104856
            b4 = 0.55000 * b4 + white * 0.5329522; b5 = -0.7616 * b5 - white * 0.0168980
            let pink = b0 + b1 + b2 + b3 + b4 + b5 + b6 + white * 0.5362
            b6 = white * 0.115926
            return Float(pink * 0.11)
        }
    }

    /// A room's response to the far end: `delay` seconds of nothing, then 400 reflections with
    /// seeded times and signs over `length` seconds, decaying 60 dB in `rt60`; as (offset, gain) taps.
    static func room(rate: Int, delay: Double = 0.06, rt60: Double = 0.15, length: Double = 0.2, gain: Double = 0.5, seed: UInt64 = 11)
        -> [(offset: Int, gain: Float)] {
        var random = Random(state: seed)
        var taps: [(offset: Int, gain: Float)] = [(Int(delay * Double(rate)), 1)]
        for _ in 0..<400 {
            let time = random.uniform() * length
            let amplitude = exp(-6.9 * time / rt60) * (random.uniform() < 0.5 ? -1 : 1) * 0.5
            taps.append((Int((delay + time) * Double(rate)), Float(amplitude)))
        }
        let energy = taps.reduce(0) { $0 + Double($1.gain * $1.gain) }
        let scale = Float(gain / energy.squareRoot())
        return taps.map { ($0.offset, $0.gain * scale) }
    }

    /// `signal` through the taps of `room`, as long as `signal`.
    static func convolve(_ signal: [Float], _ room: [(offset: Int, gain: Float)]) -> [Float] {
        var output = [Float](repeating: 0, count: signal.count)
        output.withUnsafeMutableBufferPointer { out in
            signal.withUnsafeBufferPointer { input in
                for (offset, gain) in room where offset < input.count {
                    for index in 0..<(input.count - offset) { out[index + offset] += gain * input[index] }
                }
            }
        }
        return output
    }

    /// The mean power of each 20 ms frame.
    static func framePowers(_ signal: [Float], rate: Int) -> [Double] {
        let length = rate / 50
        return stride(from: 0, to: signal.count - length + 1, by: length).map { start in
            var sum = 0.0
            for index in start..<start + length { sum += Double(signal[index]) * Double(signal[index]) }
            return sum / Double(length)
        }
    }

    /// The frames of speech: within 40 dB of the loudest frame.
    static func activeFrames(_ powers: [Double]) -> [Bool] {
        let loudest = powers.max() ?? 0
        return powers.map { $0 > loudest * 1e-4 }
    }

    /// Mean power over the frames `chosen` picks, in dB.
    static func level(_ powers: [Double], _ chosen: [Bool]) -> Double {
        let picked = zip(powers, chosen).filter(\.1).map(\.0)
        return 10 * log10(picked.reduce(0, +) / Double(max(1, picked.count)))
    }

    /// `signal` scaled so its speech frames have the mean power `decibels` dBFS.
    static func scaled(_ signal: [Float], toActiveLevel decibels: Double, rate: Int) -> [Float] {
        let powers = framePowers(signal, rate: rate)
        let gain = Float(pow(10, (decibels - level(powers, activeFrames(powers))) / 20))
        return signal.map { $0 * gain }
    }

    /// The level in dBFS under which 90 % of `output`'s 10 ms peaks stay, over the frames from
    /// `start` where `speech` speaks (above −75 dBFS), and how many such frames there are.
    static func speechPeakLevel(_ output: [Float], speech: [Float], rate: Int, from start: Int) -> (level: Double, frames: Int) {
        let length = rate / 100
        var peaks: [Float] = []
        for frame in stride(from: start, to: speech.count - length, by: length) {
            var power = 0.0, peak: Float = 0
            for index in frame..<frame + length {
                power += Double(speech[index] * speech[index])
                peak = max(peak, abs(output[index]))
            }
            if power / Double(length) > pow(10, -7.5) { peaks.append(peak) }
        }
        peaks.sort()
        return (20 * log10(Double(peaks[peaks.count * 9 / 10])), peaks.count)
    }
}

/// A far end held in memory.
final class ArrayReference: EchoReference {
    let samples: [Float]
    let format: StreamFormat
    let label = "far end"
    private var position = 0

    init(_ samples: [Float], rate: Int) {
        self.samples = samples
        format = .canonical(sampleRate: Double(rate), channelCount: 1)
    }

    func read(into buffers: AudioBufferList, frames: Int) throws -> Int {
        let count = min(frames, samples.count - position)
        samples.withUnsafeBufferPointer { buffers[0].update(from: $0.baseAddress! + position, count: count) }
        position += count
        return count
    }

    func rewind() throws { position = 0 }

}
