import AudioFormats

/// An MPEG-4 audio file written by FFmpeg's libraries, as the registry's encoder: AAC from
/// float frames, ALAC from 16-bit or 24-bit frames (other sample types are converted on the way in).
final class FFmpegEncoder: AudioEncoder {
    private let writer: LibAVWriter
    let container: AudioContainer
    let encoding: AudioEncoding

    init(_ writer: LibAVWriter, container: AudioContainer, encoding: AudioEncoding) {
        self.writer = writer
        self.container = container
        self.encoding = encoding
    }

    var path: String { writer.path }
    var channelCount: Int { writer.channelCount }

    func write(_ samples: UnsafePointer<Float>, frames: Int) throws(AudioFormatError) {
        try writer.write(samples, frames: frames, int16: { Int16(max(-32_768, min(32_767, ($0 * 32_768).rounded()))) },
                         int32: { Int32(max(-8_388_608, min(8_388_607, (Double($0) * 8_388_608).rounded()))) << 8 }, float: { $0 })
    }

    func write(_ samples: UnsafePointer<Int16>, frames: Int) throws(AudioFormatError) {
        try writer.write(samples, frames: frames, int16: { $0 }, int32: { Int32($0) << 16 }, float: { Float($0) / 32_768 })
    }

    func write(_ samples: UnsafePointer<Int32>, frames: Int) throws(AudioFormatError) {
        try writer.write(samples, frames: frames, int16: { Int16(truncatingIfNeeded: $0 >> 16) }, int32: { $0 },
                         float: { Float(Double($0) / 2_147_483_648) })
    }

    func finish() throws(AudioFormatError) { try writer.finish() }
}
