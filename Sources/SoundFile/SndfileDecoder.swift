import AudioFormats
import AudioGraph

/// A `SoundFileReader` as the registry's decoder, in aurender's vocabulary.
final class SndfileDecoder: AudioDecoder {
    private let file: SoundFileReader
    let container: AudioContainer
    let encoding: AudioEncoding
    let length: AudioLength
    /// Frames given since the start, held to the stated length.
    private var stated: StatedLength

    init(_ file: SoundFileReader) {
        self.file = file
        container = LibSndfileFormats.container(file.type)
        encoding = LibSndfileFormats.encoding(file.encoding)
        // libsndfile counts an MP3's frames from its headers and bit rate, before decoding.
        length = file.frameCount.map { file.type == .mpeg ? .estimated($0) : .exact($0) } ?? .unknown
        stated = StatedLength(length)
    }

    var path: String { file.path }
    var decoderName: String { "libsndfile" }
    var format: StreamFormat { file.format }
    var readsInt16Natively: Bool { file.encoding == .pcm16 }
    var isSeekable: Bool { file.isSeekable }

    func read(into buffer: UnsafeMutablePointer<Float>, frames: Int) throws(AudioFormatError) -> Int {
        let wanted = stated.framesToRead(frames)
        let got = try file.read(into: buffer, frames: wanted)
        try stated.count(got, of: wanted, path: path)
        return got
    }

    func read(into buffer: UnsafeMutablePointer<Int16>, frames: Int) throws(AudioFormatError) -> Int {
        let wanted = stated.framesToRead(frames)
        let got = try file.read(into: buffer, frames: wanted)
        try stated.count(got, of: wanted, path: path)
        return got
    }

    func rewind() throws(AudioFormatError) {
        try file.rewind()
        stated.rewind()
    }
    func close() { file.close() }
}
