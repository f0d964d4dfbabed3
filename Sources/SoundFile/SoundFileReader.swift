import AudioFormats
import AudioGraph
import CSndfile
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An open sound file being read, frame by frame, through libsndfile.
///
/// Streaming: it holds only libsndfile's own small buffers, whatever the file's length.
public final class SoundFileReader {
    /// The file as the user named it; `-` is standard input.
    public let path: String
    /// The container the file is in.
    public let type: SoundFileType
    /// How the file stores its samples.
    public let encoding: SoundFileEncoding
    /// Rate and channels of the file, with the sample type it holds exactly (Float32 for codecs).
    public let format: StreamFormat
    /// Frames in the file, when the file says so (not for pipes and some streams).
    public let frameCount: Int64?
    /// Whether the file can go back to its start (false for a pipe).
    public let isSeekable: Bool
    /// Whether the frames broke off where the decoder expected the next one (libFLAC lost sync
    /// on a FLAC file cut inside a frame): reads then end there, as at a cut, rather than fail.
    public private(set) var brokeOff = false
    private var handle: LibSndfile.Handle?
    /// The pipe read through virtual I/O, kept alive while libsndfile reads it.
    private let stream: InputBytes?

    /// The format of a headerless (raw) input, which the file cannot tell.
    public struct RawFormat: Sendable {
        public var sampleRate: Int
        public var channelCount: Int
        public var encoding: SoundFileEncoding
        public init(sampleRate: Int, channelCount: Int, encoding: SoundFileEncoding) {
            self.sampleRate = sampleRate
            self.channelCount = channelCount
            self.encoding = encoding
        }
    }

    /// Opens `path` (or standard input for `-`) for reading; `raw` describes a headerless file.
    public convenience init(path: String, raw: RawFormat? = nil) throws(SoundFileError) {
        if path == "-" {
            try self.init(path: path, raw: raw, source: .descriptor(STDIN_FILENO, closing: false), isSeekable: Self.isRegularFile(STDIN_FILENO))
        } else {
            try Self.checkReadable(path)
            try self.init(path: path, raw: raw, source: .path, isSeekable: true)
        }
    }

    /// Opens the input the registry has recognised: by path, on its descriptor, or for a pipe
    /// whose first bytes were taken out, through a stream that gives them back first (FLAC and
    /// GSM 6.10 in WAV, whose decoders seek back to them) or a relay pipe (every other format).
    convenience init(input: AudioInput, raw: RawFormat?) throws(SoundFileError) {
        guard let descriptor = input.fileDescriptor else {
            try self.init(path: input.path, raw: raw, source: .path, isSeekable: true)
            return
        }
        guard input.headIsConsumed else {
            try self.init(path: input.path, raw: raw, source: .descriptor(descriptor, closing: false), isSeekable: true)
            return
        }
        if input.head.isEmpty {
            try self.init(path: input.path, raw: raw, source: .descriptor(descriptor, closing: input.decoderClosesDescriptor),
                          isSeekable: false)
            return
        }
        if raw == nil, FormatSniffer.sniff(input.head) == .container(.flac, nil) || Self.isGSMWave(input.head) {
            let stream = try InputBytes(input: input)
            try self.init(path: input.path, raw: nil, source: .stream(stream), isSeekable: false)
        } else {
            let relay = try PipeRelay.start(head: input.head, source: descriptor, closingSource: input.decoderClosesDescriptor,
                                            path: input.path)
            try self.init(path: input.path, raw: raw, source: .descriptor(relay, closing: true), isSeekable: false)
        }
    }

    /// Opens the file `input` names to be read to its last frame, through a stream that hides
    /// its size: libsndfile stops reading an MP3 at libmpg123's length estimate, which for a
    /// file without a Xing frame count comes from the first frame's bit rate and may fall far
    /// short (a VBRI header's frame at 320 kb/s before frames at 128). Its frame count is unknown.
    static func readingToTheEnd(_ input: AudioInput) throws(SoundFileError) -> SoundFileReader {
        let stream: InputBytes
        do { stream = try InputBytes(input: input) } catch {
            throw SoundFileError(path: input.path, kind: .cannotOpen, reason: error.reason)
        }
        return try SoundFileReader(path: input.path, raw: nil, source: .stream(stream), isSeekable: stream.isSeekable)
    }

    /// Whether `head` starts a WAV of GSM 6.10 (format tag 0x31), which libsndfile reads only
    /// where it can seek back to the data's start: through a relay pipe it fails with
    /// "Unspecified internal error", so a piped one is read as FLAC is, from a stream that gives
    /// its first bytes back.
    static func isGSMWave(_ head: [UInt8]) -> Bool {
        guard head.count >= 22, head[0..<4].elementsEqual("RIFF".utf8), head[8..<12].elementsEqual("WAVE".utf8),
              head[12..<16].elementsEqual("fmt ".utf8) else { return false }
        return head[20] == 0x31 && head[21] == 0
    }

    /// Where libsndfile reads from.
    private enum Source {
        case path
        case descriptor(Int32, closing: Bool)
        case stream(InputBytes)
    }

    private init(path: String, raw: RawFormat?, source: Source, isSeekable: Bool) throws(SoundFileError) {
        self.path = path
        self.isSeekable = isSeekable
        var info = SF_INFO()
        if let raw {
            info.format = SoundFileType.raw.rawValue | raw.encoding.rawValue
            info.samplerate = Int32(clamping: raw.sampleRate)
            info.channels = Int32(clamping: raw.channelCount)
        }
        let result: Result<LibSndfile.Handle, LibSndfile.OpenFailure>
        switch source {
        case .path:
            stream = nil
            result = LibSndfile.open(path: path, mode: SFM_READ, info: &info)
        case .descriptor(let descriptor, let closing):
            stream = nil
            result = LibSndfile.open(fileDescriptor: descriptor, mode: SFM_READ, info: &info, closeDescriptor: closing)
        case .stream(let source):
            stream = source
            result = LibSndfile.open(source: source, mode: SFM_READ, info: &info)
        }
        let opened: LibSndfile.Handle
        switch result {
        case .success(let handle): opened = handle
        case .failure(let failure):
            let reason = Self.cleaned(failure.message)
            if path != "-" && reason.hasPrefix("File does not exist or is not a regular file") {
                // libsndfile says this of inputs it cannot decode at all; this one exists.
                throw SoundFileError(path: path, kind: .invalidFile, reason: "not audio libsndfile can decode (unrecognised or damaged)")
            }
            throw SoundFileError(path: path, kind: .invalidFile, reason: Self.inPlainWords(reason))
        }
        handle = opened
        Self.decodeOpusAtFullRate(opened, info: &info)
        type = SoundFileType(rawValue: info.format)
        encoding = SoundFileEncoding(rawValue: info.format)
        format = StreamFormat(sampleRate: Double(info.samplerate), channelCount: Int(info.channels),
                              sampleType: encoding.sampleType ?? .float32, isInterleaved: true)
        frameCount = Self.statedLength(info.frames, channels: Int(info.channels), isSeekable: isSeekable)
        do {
            try format.validate()
        } catch {
            _ = LibSndfile.close(opened)
            handle = nil
            throw SoundFileError(path: path, kind: .invalidFile, reason: "not usable audio: \(error)")
        }
    }

    deinit { close() }

    /// Reads up to `frames` interleaved frames as Float32 in [-1, 1); returns the frames read,
    /// fewer only at the end of the file.
    public func read(into buffer: UnsafeMutablePointer<Float>, frames: Int) throws(SoundFileError) -> Int {
        try readLoop(into: .floats(buffer), frames: frames)
    }

    /// Reads up to `frames` interleaved frames as 16-bit integers; returns the frames read,
    /// fewer only at the end of the file. For 16-bit files this copies without converting.
    public func read(into buffer: UnsafeMutablePointer<Int16>, frames: Int) throws(SoundFileError) -> Int {
        try readLoop(into: .shorts(buffer), frames: frames)
    }

    /// Where a read goes; an enum rather than a closure or a generic, so that reading
    /// allocates nothing even in a debug build.
    private enum Destination {
        case floats(UnsafeMutablePointer<Float>)
        case shorts(UnsafeMutablePointer<Int16>)
    }

    /// Reads until `frames` frames are read or the file ends; a short read with libsndfile's
    /// error flag set is an error, not the end, but for frames that break off (`brokeOff`).
    private func readLoop(into destination: Destination, frames: Int) throws(SoundFileError) -> Int {
        guard let handle, !brokeOff else { return 0 }
        var total = 0
        while total < frames {
            let offset = total * format.channelCount
            let got = switch destination {
            case .floats(let buffer): LibSndfile.readFrames(handle, buffer + offset, frames - total)
            case .shorts(let buffer): LibSndfile.readFrames(handle, buffer + offset, frames - total)
            }
            if got <= 0 { break }
            total += got
        }
        if total < frames, LibSndfile.errorCode(handle) != 0 {
            let message = Self.cleaned(LibSndfile.errorMessage(handle))
            guard message == Self.lostSync else { throw SoundFileError(path: path, kind: .readFailed, reason: Self.inPlainWords(message)) }
            brokeOff = true
        }
        return total
    }

    /// Goes back to the first frame; a pipe cannot.
    public func rewind() throws(SoundFileError) {
        guard let handle else { return }
        guard isSeekable else {
            throw SoundFileError(path: path, kind: .notSeekable, reason: "cannot go back to the start of a stream")
        }
        if LibSndfile.seek(handle, frame: 0) == 0 {
            brokeOff = false
            return
        }
        // A file read through a stream of unknown size (`readingToTheEnd`) cannot seek in
        // libsndfile; it is opened again from its first byte.
        var info = SF_INFO()
        guard let stream, stream.seek(0, whence: SEEK_SET) == 0, case .success(let reopened) = LibSndfile.open(source: stream, mode: SFM_READ, info: &info) else {
            throw SoundFileError(path: path, kind: .notSeekable, reason: "cannot go back to the start of the file")
        }
        _ = LibSndfile.close(handle)
        Self.decodeOpusAtFullRate(reopened, info: &info)
        self.handle = reopened
        brokeOff = false
    }

    /// Ogg Opus decodes at 48 kHz, whatever rate its encoder was given (`LibSndfile.decodeOpusAtFullRate`).
    private static func decodeOpusAtFullRate(_ handle: LibSndfile.Handle, info: inout SF_INFO) {
        guard SoundFileEncoding(rawValue: info.format) == .opus, info.samplerate != 48_000 else { return }
        _ = LibSndfile.decodeOpusAtFullRate(handle, info: &info)
    }

    /// The frame count libsndfile reports, or nil when it stands for "unknown": a negative or
    /// maximal count, or on a pipe, the count libsndfile derives from its largest possible file
    /// size for a header that leaves the size open (AU's 0xFFFFFFFF): beyond any real stream.
    static func statedLength(_ frames: Int64, channels: Int, isSeekable: Bool) -> Int64? {
        guard frames >= 0, frames < Int64.max else { return nil }
        if !isSeekable, frames >= (Int64(1) << 56) / Int64(max(1, channels)) { return nil }
        return frames
    }

    private static func isRegularFile(_ descriptor: Int32) -> Bool {
        var status = stat()
        return fstat(descriptor, &status) == 0 && (status.st_mode & S_IFMT) == S_IFREG
    }

    /// Closes the file; reading afterwards returns no frames.
    public func close() {
        if let handle { _ = LibSndfile.close(handle) }
        handle = nil
    }

    /// Gives clear reasons for the cases libsndfile reports vaguely: missing, a directory, unreadable.
    private static func checkReadable(_ path: String) throws(SoundFileError) {
        var status = stat()
        guard stat(path, &status) == 0 else {
            throw SoundFileError(path: path, kind: .cannotOpen, reason: String(cString: strerror(errno)))
        }
        if (status.st_mode & S_IFMT) == S_IFDIR {
            throw SoundFileError(path: path, kind: .cannotOpen, reason: "is a directory, not a sound file")
        }
        guard access(path, R_OK) == 0 else {
            throw SoundFileError(path: path, kind: .cannotOpen, reason: String(cString: strerror(errno)))
        }
    }

    /// libsndfile's words when libFLAC finds no frame where the next should start.
    static let lostSync = "flac decoder lost sync"

    /// libsndfile's vaguer messages said as what they mean for the file; others as they are.
    static func inPlainWords(_ reason: String) -> String {
        switch reason {
        case "Format not recognised":
            "not audio libsndfile can decode (unrecognised or damaged)"
        case "Supported file format but file is malformed":
            // A cut CAF, a broken Vorbis header and the like.
            "it is truncated or damaged: libsndfile finds its header malformed and cannot read any of it"
        case "File contains data in an unimplemented format":
            "it holds audio in an encoding libsndfile does not implement"
        case "Unspecified internal error":
            "libsndfile's decoder stopped part way without saying why (the file may be damaged)"
        case let flac where flac.hasPrefix("unknown error in flac decoder") || flac.hasPrefix("Error in FLAC"):
            "its FLAC data does not decode (damaged, or a FLAC variant libFLAC rejects)"
        case lostSync:
            "it is damaged: its FLAC frames break off where the decoder expects the next"
        case let wave where wave.hasPrefix("Error in WAV/W64/RF64 file") && wave.contains("'fmt '"):
            "it is damaged: its WAV format chunk (fmt) is malformed"
        default:
            reason
        }
    }

    /// libsndfile's messages, trimmed to one line without its trailing period.
    static func cleaned(_ message: String) -> String {
        var text = message.split(whereSeparator: \.isNewline).first.map(String.init) ?? message
        for prefix in ["System error : ", "Error : "] where text.hasPrefix(prefix) {
            text.removeFirst(prefix.count)
        }
        while text.hasSuffix(".") || text.hasSuffix(" ") { text.removeLast() }
        return text.isEmpty ? "unknown libsndfile error" : text
    }
}
