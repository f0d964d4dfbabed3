import Foundation

/// Ogg Vorbis files made by `oggenc` (vorbis-tools, installed by `make deps`) from noise and a
/// tone, for the tests of the decoders that read them in segments.
public enum OggVorbisFiles {
    /// `frames` frames of noise and a tone in `channels` channels at `rate`, encoded by oggenc at
    /// `quality` into `folder`, its stream numbered `serial` (oggenc otherwise draws one at random,
    /// and two links of a chain that drew the same number would not read as a chain); the Ogg
    /// file's path, or nil where oggenc failed.
    public static func encode(frames: Int, channels: Int, rate: Int, quality: Int = 3, serial: Int = 1, in folder: TemporaryFolder) throws -> String? {
        let noise = Signal.noise(frames: frames * channels, amplitude: 0.2, seed: UInt64(frames))
        let tone = Signal.sine(frequency: 441, sampleRate: Double(rate), frames: frames, amplitude: 0.4)
        let samples = (0..<(frames * channels)).map { Int16(max(-32_768, min(32_767, (noise[$0] + tone[$0 / channels]) * 32_767))) }
        let wav = folder.file("source-\(serial).wav"), ogg = folder.file("source-\(serial).ogg")
        try WaveFile.write(WaveFile.bytes(channels: UInt16(channels), sampleRate: UInt32(rate), data: WaveFile.pcm16(samples)), to: wav)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/oggenc")
        process.arguments = ["-Q", "-q", String(quality), "--serial", String(serial), "-o", ogg, wav]
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus == 0 ? ogg : nil
    }

    /// A copy of the Ogg file at `path`, named `damaged.ogg` in `folder`, with one byte flipped in
    /// the page three fifths of the way in, so that page's checksum fails mid-stream; its path.
    public static func damagingAPageInTheMiddle(of path: String, in folder: TemporaryFolder) throws -> String {
        var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        let pages = OggPage.pages(of: bytes)
        let offset = pages.prefix(pages.count * 3 / 5).reduce(0) { $0 + $1.bytes.count }
        bytes[offset + 100] ^= 0xFF
        let damaged = folder.file("damaged.ogg")
        try Data(bytes).write(to: URL(fileURLWithPath: damaged))
        return damaged
    }
}
