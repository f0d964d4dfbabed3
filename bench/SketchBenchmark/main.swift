// Feeds one minute of stereo pink-ish noise at 44.1 kHz to a SignalSketcher in blocks of 4096
// frames, for callgrind: `sketch` (length known), `unknown` (length unknown) or `none` (the
// noise alone, to subtract). `bench/run.sh sketch` runs the three and prints instructions a frame.
import AudioGraph
import SignalAnalysis
#if canImport(Glibc)
import Glibc
#endif

let mode = CommandLine.arguments.dropFirst().first ?? "sketch"
let (rate, seconds, block) = (44100.0, 60, 4096)
let frames = Int(rate) * seconds
let storage = AudioBufferStorage(channelCount: 2, capacity: frames)
var state: UInt64 = 0x9E37_79B9_7F4A_7C15
var filters = [[Float]](repeating: [0, 0, 0], count: 2)
for frame in 0..<frames {
    for channel in 0..<2 {
        state ^= state << 13
        state ^= state >> 7
        state ^= state << 17
        let white = Float(Int32(truncatingIfNeeded: state >> 32)) / 2_147_483_648
        filters[channel][0] = 0.99765 * filters[channel][0] + white * 0.0990460
        filters[channel][1] = 0.96300 * filters[channel][1] + white * 0.2965164
        filters[channel][2] = 0.57000 * filters[channel][2] + white * 1.0526913
        storage.list[channel][frame] = (filters[channel][0] + filters[channel][1] + filters[channel][2] + white * 0.1848) * 0.05
    }
}
guard mode != "none" else { exit(0) }
let sketcher = SignalSketcher(sampleRate: rate, channelCount: 2, expectedFrames: mode == "unknown" ? nil : Int64(frames))
let pointers = UnsafeMutableBufferPointer<UnsafeMutablePointer<Float>>.allocate(capacity: 2)
var done = 0
while done < frames {
    let count = min(block, frames - done)
    for channel in 0..<2 { pointers[channel] = storage.list[channel] + done }
    sketcher.rendered(AudioBufferList(channels: pointers, capacity: count), frames: count)
    done += count
}
let sketch = sketcher.sketch()
print("\(mode): stride \(sketcher.spectrumStride), loudness \(sketch.integratedLoudness ?? -.infinity) LUFS, true peak \(sketch.truePeak), sample peak \(sketch.samplePeak)")
