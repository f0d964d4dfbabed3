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
    /// The frames of a WAV cut in its data before an ID3v1 tag: all it holds (`HeaderLength.waveFrames(before:_:)`).
    private let framesBeforeTag: Int64?

    /// Decodes `file`, held to `statedFrames`, the length its header states as aurender reads it
    /// (`HeaderLength`), where it states one; `estimatedFrames` replaces the count libsndfile
    /// gives for a reader that cannot count (`SoundFileReader.readingToTheEnd`).
    ///
    /// A WAV or Wave64 in ADPCM or GSM 6.10 states its length in its `fact` chunk, the codec's
    /// count: a decode short of it is a cut only when `dataChunkIsCut` (its data chunk runs past
    /// the file's end); elsewhere the decode is the length, as SoX and FFmpeg give it.
    ///
    /// `framesBeforeTag` are all that a WAV cut in its data and tagged after the cut holds: the
    /// tag's bytes are not read as samples, and the stated length is not reached.
    init(_ file: SoundFileReader, statedFrames: Int64?, estimatedFrames: Int64? = nil, dataChunkIsCut: Bool = false,
         framesBeforeTag: Int64? = nil) {
        self.file = file
        self.framesBeforeTag = framesBeforeTag
        container = LibSndfileFormats.container(file.type)
        encoding = LibSndfileFormats.encoding(file.encoding)
        length = Self.length(counted: estimatedFrames ?? file.frameCount, stated: statedFrames, isMP3: file.type == .mpeg)
        let countsBlocks = [.wav, .wavex, .w64].contains(container) && [.imaADPCM, .msADPCM, .gsm610].contains(encoding)
        // libsndfile finds an Ogg file's length in its last page; a seekable file without one was cut short.
        stated = StatedLength(length, cutShort: (file.type == .ogg && file.isSeekable && file.frameCount == nil) || (countsBlocks && dataChunkIsCut),
                              countIsEvidence: !countsBlocks)
    }

    /// The header's count where it states one: libsndfile shrinks a PCM file's count to the
    /// bytes present, and counts an MP3's frames from its headers and bit rate, an estimate
    /// unless a Xing header states them.
    static func length(counted: Int64?, stated: Int64?, isMP3: Bool) -> AudioLength {
        if let stated { return .exact(stated) }
        return counted.map { isMP3 ? .estimated($0) : .exact($0) } ?? .unknown
    }

    var path: String { file.path }
    var decoderName: String { "libsndfile" }
    var format: StreamFormat { file.format }
    var readsInt16Natively: Bool { file.encoding == .pcm16 }
    var isSeekable: Bool { file.isSeekable }

    /// Frames that break off (`SoundFileReader.brokeOff`) end the input as a cut does.
    func read(into buffer: UnsafeMutablePointer<Float>, frames: Int) throws(AudioFormatError) -> Int {
        let asked = stated.framesToRead(frames)
        return try counted(try file.read(into: buffer, frames: present(asked)), of: asked)
    }

    func read(into buffer: UnsafeMutablePointer<Int16>, frames: Int) throws(AudioFormatError) -> Int {
        let asked = stated.framesToRead(frames)
        return try counted(try file.read(into: buffer, frames: present(asked)), of: asked)
    }

    /// How many of `asked` frames to read: no further than `framesBeforeTag`.
    private func present(_ asked: Int) -> Int {
        framesBeforeTag.map { min(asked, Int(max(0, $0 - stated.position))) } ?? asked
    }

    /// `got` of `asked` frames counted against the stated length, the input marked cut short
    /// first where its frames broke off.
    private func counted(_ got: Int, of asked: Int) throws(AudioFormatError) -> Int {
        if file.brokeOff { stated.markCutShort() }
        try stated.count(got, of: asked, path: file.path)
        return got
    }

    func rewind() throws(AudioFormatError) {
        try file.rewind()
        stated.rewind()
    }
    func close() { file.close() }
}
