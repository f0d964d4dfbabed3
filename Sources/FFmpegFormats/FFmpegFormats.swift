#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import AudioFormats
import CFFmpeg

/// FFmpeg's libraries as a tenant of the format registry: they decode what libsndfile cannot
/// read — AAC and ALAC in MP4, raw AAC (ADTS), WMA, Monkey's Audio, WavPack, Musepack, DSD,
/// TAK, TTA, AC-3, Ogg FLAC and Speex, and the audio track of Matroska/WebM and other video
/// files — and write MPEG-4 audio (`.m4a`, AAC or ALAC); libsndfile writes every other output.
///
/// Listed after libsndfile, so PCM containers, FLAC, Ogg Vorbis/Opus and MP3 stay with it
/// (FFmpeg 5.1's Vorbis and Opus decodes differ in length from the reference decoders); its
/// Vorbis decoder is lent to libvorbisfile's tenant for long files' segments only
/// (`FFmpegSegmentDecoders`), at libvorbisfile's lengths.
///
/// The libraries are not linked: they are loaded on the first input that needs them, so runs
/// that never do pay nothing for them, and a machine without them still reads everything else.
public struct FFmpegFormats: AudioFormatKind {
    /// The libraries this kind loads.
    let libraries: LibAVLibraries

    /// FFmpeg's kind, as the registry lists it, with the libraries of the headers it was built against.
    public init() {
        libraries = .headers
    }

    /// FFmpeg's kind loading `libraries`, to try what happens when they are missing.
    init(libraries: LibAVLibraries) {
        self.libraries = libraries
    }

    /// `FFmpeg`.
    public var name: String { "FFmpeg" }

    /// The containers FFmpeg reads and libsndfile does not, or not rightly, by the sniffer's
    /// identifiers: libsndfile reads a stereo 8SVX's channels as interleaved, where the format
    /// stores one after the other, and a VOC file's block headers as samples.
    public var decodedContainers: Set<AudioContainer> {
        Set(["mp4", "adts", "asf", "ape", "wavpack", "musepack", "dsf", "dff", "tak", "tta", "ac3", "matroska",
             "ogg-flac", "ogg-speex", "8svx", "voc"].map { AudioContainer(identifier: $0, name: $0) })
    }

    /// FFmpeg also recognises video and other containers the sniffer has no magic number for
    /// (AVI, QuickTime without `ftyp`), when its probe is confident.
    public var triesUnrecognisedInputs: Bool { true }

    /// An `FFmpegDecoder` on `input`; an input the sniffer did not name must probe confidently,
    /// and one it named is called by that name when FFmpeg cannot read it (or its libraries
    /// cannot be loaded).
    public func makeDecoder(for input: AudioInput, raw: RawFormat?) throws(AudioFormatError) -> any AudioDecoder {
        guard raw == nil else {
            throw AudioFormatError(path: input.path, kind: .unsupportedInput, reason: "FFmpeg does not read headerless (raw) audio here")
        }
        var expected: String?
        if case .container(let container, _) = FormatSniffer.sniff(input.head) { expected = container.name }
        switch loadedLibraries() {
        case .success(let api):
            return try FFmpegDecoder(api: api, input: input, expected: expected)
        case .failure(let unavailable):
            throw AudioFormatError(path: input.path, kind: .unsupportedInput,
                                   reason: "\(expected ?? "this input") is not supported here: \(unavailable)")
        }
    }

    /// FFmpeg's functions, loading the libraries on the first call.
    private func loadedLibraries() -> Result<CFFmpegAPI, LibAVUnavailable> {
        libraries == .headers ? LibAVLibraries.loaded : libraries.load()
    }

    /// MPEG-4 audio (`.m4a`) with AAC or ALAC.
    public var writtenFormats: [(container: AudioContainer, encodings: [AudioEncoding])] { [(.m4a, [.aac, .alac, .alac24])] }

    /// The sample rates AAC codes (its sampling-frequency table).
    static let aacSampleRates: Set<Int> = [7_350, 8_000, 11_025, 12_000, 16_000, 22_050, 24_000, 32_000, 44_100, 48_000, 64_000, 88_200, 96_000]

    /// AAC at its sample rates or ALAC at any rate, in MPEG-4 audio, with 1 to 8 channels;
    /// answered without loading the libraries.
    public func canWrite(container: AudioContainer, encoding: AudioEncoding, sampleRate: Int, channelCount: Int) -> Bool {
        guard container == .m4a, (1...8).contains(channelCount) else { return false }
        return (encoding == .aac && Self.aacSampleRates.contains(sampleRate)) || ([.alac, .alac24].contains(encoding) && (1...384_000).contains(sampleRate))
    }

    /// An `FFmpegEncoder` writing MPEG-4 audio on `fileDescriptor`, which must be seekable (the
    /// file's index is completed at the end); AAC takes `settings`, ALAC none.
    public func makeEncoder(fileDescriptor: Int32, path: String, container: AudioContainer, encoding: AudioEncoding,
                            sampleRate: Int, channelCount: Int, settings: EncoderSettings) throws(AudioFormatError) -> any AudioEncoder {
        func refuse(_ reason: String) -> AudioFormatError {
            close(fileDescriptor)
            return AudioFormatError(path: path, kind: .unsupportedFormat, reason: reason)
        }
        guard canWrite(container: container, encoding: encoding, sampleRate: sampleRate, channelCount: channelCount) else {
            throw refuse("FFmpeg cannot write \(encoding.name) in \(container.name) at \(sampleRate) Hz with \(channelCount) channels")
        }
        guard encoding.takesBitRate || settings.isDefault else { throw refuse("\(encoding.name) has no bit rate or quality to set") }
        guard lseek(fileDescriptor, 0, SEEK_CUR) >= 0 else {
            throw refuse("\(container.name) cannot be written to a pipe: its index is completed at the end")
        }
        switch loadedLibraries() {
        case .success(let api):
            let planeSample: LibAVWriter.PlaneSample = encoding == .aac ? .float : (encoding.integerBits == 24 ? .int24 : .int16)
            let writer = try LibAVWriter(api: api, fileDescriptor: fileDescriptor, path: path, codec: encoding == .aac ? "aac" : "alac",
                                         planeSample: planeSample, sampleRate: sampleRate, channelCount: channelCount, settings: settings)
            return FFmpegEncoder(writer, container: container, encoding: encoding)
        case .failure(let unavailable):
            throw refuse("\(container.name) is not supported here: \(unavailable)")
        }
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
