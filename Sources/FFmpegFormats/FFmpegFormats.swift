import AudioFormats

/// FFmpeg's libraries as a tenant of the format registry: they decode what libsndfile cannot
/// read — AAC and ALAC in MP4, raw AAC (ADTS), WMA, Monkey's Audio, WavPack, Musepack, DSD,
/// TAK, TTA, AC-3, Ogg FLAC and Speex, and the audio track of Matroska/WebM and other video
/// files. They encode nothing here: libsndfile writes every output.
///
/// Listed after libsndfile, so PCM containers, FLAC, Ogg Vorbis/Opus and MP3 stay with it
/// (FFmpeg 5.1's Vorbis and Opus decodes differ in length from the reference decoders).
public struct FFmpegFormats: AudioFormatKind {
    /// FFmpeg's kind, as the registry lists it.
    public init() {}

    /// `FFmpeg`.
    public var name: String { "FFmpeg" }

    /// The containers FFmpeg reads and libsndfile does not, by the sniffer's identifiers.
    public var decodedContainers: Set<AudioContainer> {
        Set(["mp4", "adts", "asf", "ape", "wavpack", "musepack", "dsf", "dff", "tak", "tta", "ac3", "matroska",
             "ogg-flac", "ogg-speex"].map { AudioContainer(identifier: $0, name: $0) })
    }

    /// FFmpeg also recognises video and other containers the sniffer has no magic number for
    /// (AVI, QuickTime without `ftyp`), when its probe is confident.
    public var triesUnrecognisedInputs: Bool { true }

    /// An `FFmpegDecoder` on `input`; an input the sniffer did not name must probe confidently,
    /// and one it named is called by that name when FFmpeg cannot read it.
    public func makeDecoder(for input: AudioInput, raw: RawFormat?) throws(AudioFormatError) -> any AudioDecoder {
        guard raw == nil else {
            throw AudioFormatError(path: input.path, kind: .unsupportedInput, reason: "FFmpeg does not read headerless (raw) audio here")
        }
        guard case .container(let container, _) = FormatSniffer.sniff(input.head) else {
            return try FFmpegDecoder(input: input, expected: nil)
        }
        return try FFmpegDecoder(input: input, expected: container.name)
    }

    /// None: FFmpeg writes nothing in this build.
    public var writtenFormats: [(container: AudioContainer, encodings: [AudioEncoding])] { [] }

    /// FFmpeg writes nothing in this build.
    public func canWrite(container: AudioContainer, encoding: AudioEncoding, sampleRate: Int, channelCount: Int) -> Bool { false }

    /// Refuses: FFmpeg writes nothing in this build.
    public func makeEncoder(fileDescriptor: Int32, path: String, container: AudioContainer, encoding: AudioEncoding,
                            sampleRate: Int, channelCount: Int) throws(AudioFormatError) -> any AudioEncoder {
        throw AudioFormatError(path: path, kind: .unsupportedFormat, reason: "FFmpeg writes no files in this build")
    }

    /// aurender's name for an FFmpeg demuxer: the sniffer's identifier where it has one
    /// (`mov,mp4,…` is `mp4`), else the demuxer's first name, described by FFmpeg's own words.
    static func container(demuxer: String, name: String) -> AudioContainer {
        let first = demuxer.split(separator: ",").first.map(String.init) ?? demuxer
        let identifiers = ["mov": "mp4", "aac": "adts", "wv": "wavpack", "mpc": "musepack", "mpc8": "musepack", "iff": "dff",
                           "eac3": "ac3", "matroska": "matroska"]
        return AudioContainer(identifier: identifiers[first] ?? first, name: name)
    }
}
