import AudioNodes
import Foundation
import PluginHost

/// A deterministic test signal: a 441 Hz sine at `amplitude` plus a little pseudo-random noise.
func testSignal(frames: Int, channels: Int, amplitude: Float = 0.5) -> [[Float]] {
    var seed: UInt32 = 12345
    return (0..<channels).map { channel in
        (0..<frames).map { frame in
            seed = seed &* 1_664_525 &+ 1_013_904_223
            let noise: Float = Float(seed >> 8) / Float(1 << 24) - 0.5
            let phase: Double = 2 * Double.pi * 441 * Double(frame) / 44100 + Double(channel)
            return amplitude * Float(sin(phase)) + 0.01 * noise
        }
    }
}

/// A plugin node from a spec, at 44.1 kHz.
func pluginNode(_ spec: String, tail: Int64 = 441_000, sampleRate: Double = 44100) throws(PluginError) -> PluginNode {
    try PluginSpec(parsing: spec).makeNode(name: "plugin", sampleRate: sampleRate, tailLimit: tail)
}
