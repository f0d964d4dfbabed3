import Foundation

/// Writes WAV files byte by byte, including broken ones that no library would write.
public enum WaveFile {
    /// A canonical 44-byte PCM WAV header followed by `data`; every field can be given.
    public static func bytes(channels: UInt16, sampleRate: UInt32, bitsPerSample: UInt16 = 16,
                             data: [UInt8] = [], formatTag: UInt16 = 1) -> [UInt8] {
        var bytes: [UInt8] = []
        func append<T: FixedWidthInteger>(_ value: T) { withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) } }
        let blockAlign = UInt16(truncatingIfNeeded: Int(channels) * Int(bitsPerSample) / 8)
        bytes.append(contentsOf: Array("RIFF".utf8)); append(UInt32(36 + data.count))
        bytes.append(contentsOf: Array("WAVE".utf8))
        bytes.append(contentsOf: Array("fmt ".utf8)); append(UInt32(16)); append(formatTag); append(channels)
        append(sampleRate); append(UInt32(truncatingIfNeeded: UInt64(sampleRate) * UInt64(blockAlign)))
        append(blockAlign); append(bitsPerSample)
        bytes.append(contentsOf: Array("data".utf8)); append(UInt32(data.count))
        bytes.append(contentsOf: data)
        return bytes
    }

    /// Interleaved 16-bit samples as little-endian bytes.
    public static func pcm16(_ samples: [Int16]) -> [UInt8] {
        samples.flatMap { sample in withUnsafeBytes(of: sample.littleEndian) { Array($0) } }
    }

    /// Writes `bytes` to `path`.
    public static func write(_ bytes: [UInt8], to path: String) throws {
        try Data(bytes).write(to: URL(fileURLWithPath: path))
    }
}

/// Test signals.
public enum Signal {
    /// A sine of `frequency` Hz at `amplitude`, `frames` long.
    public static func sine(frequency: Double, sampleRate: Double, frames: Int, amplitude: Double = 0.5) -> [Float] {
        (0..<frames).map { Float(amplitude * sin(2 * Double.pi * frequency * Double($0) / sampleRate)) }
    }

    /// Uniform noise in [-amplitude, amplitude) from a fixed seed.
    public static func noise(frames: Int, amplitude: Float = 0.5, seed: UInt64 = 1) -> [Float] {
        var state = seed
        return (0..<frames).map { _ in
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return amplitude * (Float(state >> 40) / Float(1 << 23) - 1)
        }
    }

    /// Root mean square of `samples`.
    public static func rms(_ samples: [Float]) -> Double {
        samples.isEmpty ? 0 : sqrt(samples.reduce(0) { $0 + Double($1) * Double($1) } / Double(samples.count))
    }
}
