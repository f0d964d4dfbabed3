import AudioFormats

/// A `SoundFileWriter` as the registry's encoder, in aurender's vocabulary.
final class SndfileEncoder: AudioEncoder {
    private let file: SoundFileWriter
    let container: AudioContainer
    let encoding: AudioEncoding

    init(_ file: SoundFileWriter, container: AudioContainer, encoding: AudioEncoding) {
        self.file = file
        self.container = container
        self.encoding = encoding
    }

    var path: String { file.path }
    var channelCount: Int { file.channelCount }
    var wroteLeadingTags: Bool { file.holdsLeadingTags }

    func write(_ samples: UnsafePointer<Float>, frames: Int) throws(AudioFormatError) { try file.write(samples, frames: frames) }
    func write(_ samples: UnsafePointer<Int16>, frames: Int) throws(AudioFormatError) { try file.write(samples, frames: frames) }
    func write(_ samples: UnsafePointer<Int32>, frames: Int) throws(AudioFormatError) { try file.write(samples, frames: frames) }
    func finish() throws(AudioFormatError) { try file.finish() }
}
