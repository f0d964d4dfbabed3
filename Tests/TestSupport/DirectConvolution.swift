import Foundation

/// What the convolution tests measure against: seeded noise, convolution computed directly in
/// double precision, and the level of an output's error.
///
/// The engine, the node and the command are each held to the same reference, so it lives here
/// once rather than in each suite.
public enum DirectConvolution {
    /// `count` samples in [-amplitude, amplitude) from a fixed seed (xorshift).
    public static func noise(_ count: Int, seed: UInt64, amplitude: Float = 1) -> [Float] {
        var state = seed | 1
        return (0..<count).map { _ in
            state ^= state << 13; state ^= state >> 7; state ^= state << 17
            return (Float(state >> 40) / Float(1 << 23) - 1) * amplitude
        }
    }

    /// y = x ∗ h in double precision, `x.count + h.count - 1` samples.
    public static func convolve(_ x: [Float], _ h: [Float]) -> [Double] {
        var y = [Double](repeating: 0, count: x.count + h.count - 1)
        let hd = h.map(Double.init)
        y.withUnsafeMutableBufferPointer { y in
            hd.withUnsafeBufferPointer { h in
                for (n, sample) in x.enumerated() where sample != 0 {
                    let xd = Double(sample)
                    for k in 0..<h.count { y[n + k] += xd * h[k] }
                }
            }
        }
        return y
    }

    /// The error's energy over the reference's, in dB.
    public static func errorLevel(_ got: [Float], _ reference: [Double]) -> Double {
        var error = 0.0, signal = 0.0
        for (index, value) in reference.enumerated() {
            let difference = Double(got[index]) - value
            error += difference * difference
            signal += value * value
        }
        return 10 * log10(error / signal)
    }
}
