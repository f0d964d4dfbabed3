import Foundation

/// Ogg Opus files made by `opusenc` and decoded by `opusdec` (opus-tools, installed by `make
/// deps`), for the tests that hold aurender's Opus decoding to the reference decoder's.
public enum OggOpusFiles {
    /// `frames` frames of three tones over noise in `channels` channels at 48 kHz, encoded by
    /// opusenc at `bitRate` kb/s (`speech` tunes it for speech, which takes SILK's hybrid modes at
    /// low rates) into `folder` as `name`; the file's path, or nil where opusenc failed.
    public static func encode(frames: Int, channels: Int, bitRate: Int, speech: Bool = false, name: String = "source.opus",
                              in folder: TemporaryFolder) throws -> String? {
        let noise = Signal.noise(frames: frames * channels, amplitude: 0.1, seed: UInt64(frames))
        let tones = [(220.0, 0.3), (1_250.0, 0.1), (5_000.0, 0.05)].map { Signal.sine(frequency: $0, sampleRate: 48_000, frames: frames, amplitude: $1) }
        let samples = (0..<(frames * channels)).map { index in
            Int16(max(-32_768, min(32_767, tones.reduce(noise[index]) { $0 + $1[index / channels] } * 32_767)))
        }
        let wav = folder.file(name + ".wav"), opus = folder.file(name)
        try WaveFile.write(WaveFile.bytes(channels: UInt16(channels), sampleRate: 48_000, data: WaveFile.pcm16(samples)), to: wav)
        let arguments = ["--quiet", "--bitrate", String(bitRate), "--serial", "1"] + (speech ? ["--speech"] : []) + [wav, opus]
        return try run("opusenc", arguments) ? opus : nil
    }

    /// `opusdec`'s interleaved Float32 samples of `path` at 48 kHz, and its channel count; nil
    /// where opusdec failed.
    public static func opusdec(_ path: String, in folder: TemporaryFolder) throws -> (samples: [Float], channels: Int)? {
        let output = folder.file("opusdec.wav")
        guard try run("opusdec", ["--quiet", "--float", "--rate", "48000", path, output]) else { return nil }
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: output)))
        func little(_ offset: Int, _ count: Int) -> Int { (0..<count).reduce(0) { $0 | Int(bytes[offset + $1]) << (8 * $1) } }
        var offset = 12, channels = 0
        while offset + 8 <= bytes.count {
            let size = little(offset + 4, 4)
            if bytes[offset..<(offset + 4)].elementsEqual("fmt ".utf8) { channels = little(offset + 10, 2) }
            if bytes[offset..<(offset + 4)].elementsEqual("data".utf8) {
                let data = Array(bytes[(offset + 8)..<min(bytes.count, offset + 8 + size)])
                let samples = data.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
                return (samples, channels)
            }
            offset += 8 + size + size % 2
        }
        return nil
    }

    /// Runs `/usr/bin/<tool>` with `arguments`; whether it succeeded.
    private static func run(_ tool: String, _ arguments: [String]) throws -> Bool {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/" + tool)
        process.arguments = arguments
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus == 0
    }
}
