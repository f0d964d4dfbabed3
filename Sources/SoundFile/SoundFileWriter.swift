import AudioGraph
import AudioFormats
import CSndfile
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A sound file being written through libsndfile.
///
/// Call `finish()` when done: it closes the file and reports a failed header update,
/// which a silent close in `deinit` would hide.
public final class SoundFileWriter {
    /// The file as the user named it; `-` is standard output.
    public let path: String
    public let type: SoundFileType
    public let encoding: SoundFileEncoding
    public let channelCount: Int
    private var handle: LibSndfile.Handle?
    private let fileDescriptor: Int32
    /// An Ogg stream's pages on their way to `fileDescriptor`.
    private let relay: OggPageRelay?
    /// Whether the tags given were written before the audio (an Ogg stream's or an MP3's).
    public let holdsLeadingTags: Bool
    /// Whether any frame was written: libsndfile's FLAC encoder writes its header with the first.
    private var wroteFrames = false

    /// Whether libsndfile can write `encoding` in `type` at all.
    public static func canWrite(type: SoundFileType, encoding: SoundFileEncoding, sampleRate: Int, channelCount: Int) -> Bool {
        var info = SF_INFO()
        info.format = type.rawValue | encoding.rawValue
        info.samplerate = Int32(clamping: sampleRate)
        info.channels = Int32(clamping: channelCount)
        return LibSndfile.formatCheck(info)
    }

    /// Starts a file on an open descriptor, which the writer then owns and closes (after
    /// libsndfile is done with it). An Ogg stream passes through an `OggPageRelay` on its way,
    /// holding `tags`' comments; an MP3 starts with `tags`' ID3v2 tag. Other types take no tags here.
    public init(fileDescriptor: Int32, path: String, type: SoundFileType, encoding: SoundFileEncoding,
                sampleRate: Int, channelCount: Int, tags: LeadingTags? = nil) throws(SoundFileError) {
        self.path = path
        self.type = type
        self.encoding = encoding
        self.channelCount = channelCount
        self.fileDescriptor = fileDescriptor
        holdsLeadingTags = tags != nil && (type == .ogg || type == .mpeg)
        relay = type == .ogg ? OggPageRelay(fileDescriptor: fileDescriptor, path: path, tags: tags ?? LeadingTags()) : nil
        guard Self.canWrite(type: type, encoding: encoding, sampleRate: sampleRate, channelCount: channelCount) else {
            throw SoundFileError(path: path, kind: .unsupportedFormat,
                                 reason: "cannot write \(encoding.name) in \(type.name) at \(sampleRate) Hz with \(channelCount) channels")
        }
        if type == .mpeg, let tag = tags?.id3v2 {
            do throws(SoundFileError) { for piece in tag { try Self.writeAll(piece, to: fileDescriptor, path: path) } } catch {
                close(fileDescriptor)
                throw error
            }
        }
        var info = SF_INFO()
        info.format = type.rawValue | encoding.rawValue
        info.samplerate = Int32(clamping: sampleRate)
        info.channels = Int32(clamping: channelCount)
        let opened: LibSndfile.Handle
        let result = relay.map { LibSndfile.open(writingTo: $0, info: &info) }
            ?? LibSndfile.open(fileDescriptor: fileDescriptor, mode: SFM_WRITE, info: &info, closeDescriptor: false)
        switch result {
        case .success(let handle): opened = handle
        case .failure(let failure):
            close(fileDescriptor)
            // A system error (a full disk) is a failed write; anything else is a format libsndfile
            // refuses only when it starts the file (Opus at 44.1 kHz, WAV to a pipe).
            let kind: SoundFileError.Kind = failure.code == Int32(SF_ERR_SYSTEM) ? .writeFailed : .unsupportedFormat
            throw SoundFileError(path: path, kind: kind, reason: SoundFileReader.cleaned(failure.message))
        }
        handle = opened
        LibSndfile.setBool(opened, SFC_SET_ADD_PEAK_CHUNK, false)
    }

    deinit {
        if let handle {
            _ = LibSndfile.close(handle)
            close(fileDescriptor)
        }
    }

    /// Writes interleaved Float32 frames (for float and lossy encodings).
    public func write(_ samples: UnsafePointer<Float>, frames: Int) throws(SoundFileError) {
        guard let handle else { throw closedError }
        try check(LibSndfile.writeFrames(handle, samples, frames), of: frames)
    }

    /// Sets a lossy encoder's compression before the first frame: `level` from 0 (best quality)
    /// to 1 (smallest), in a constant or variable bit-rate mode where the codec has modes (MP3).
    public func setCompression(level: Double, variableBitRate: Bool?) throws(SoundFileError) {
        guard let handle else { throw closedError }
        // The level first: libsndfile's MP3 encoder re-applies it when the mode changes.
        guard LibSndfile.setCompressionLevel(handle, level) else {
            throw SoundFileError(path: path, kind: .unsupportedFormat, reason: "libsndfile cannot set the compression of \(encoding.name)")
        }
        if let variableBitRate {
            let mode = Int32(variableBitRate ? SF_BITRATE_MODE_VARIABLE : SF_BITRATE_MODE_CONSTANT)
            guard LibSndfile.setBitrateMode(handle, mode) else {
                throw SoundFileError(path: path, kind: .unsupportedFormat, reason: "libsndfile cannot set the bit-rate mode of \(encoding.name)")
            }
        }
    }

    /// Writes interleaved frames of 16-bit integers (for 16-bit PCM: copied without converting).
    public func write(_ samples: UnsafePointer<Int16>, frames: Int) throws(SoundFileError) {
        guard let handle else { throw closedError }
        try check(LibSndfile.writeFrames(handle, samples, frames), of: frames)
    }

    /// Writes interleaved frames of left-justified 32-bit integers (for PCM encodings).
    public func write(_ samples: UnsafePointer<Int32>, frames: Int) throws(SoundFileError) {
        guard let handle else { throw closedError }
        try check(LibSndfile.writeFrames(handle, samples, frames), of: frames)
    }

    /// Completes the header and closes the file, reporting any failure.
    public func finish() throws(SoundFileError) {
        guard let handle else { return }
        self.handle = nil
        defer { close(fileDescriptor) }
        // A FLAC file of no frames still needs its header to be a FLAC file (flac -t reads it).
        if !wroteFrames { LibSndfile.updateHeader(handle) }
        let status = LibSndfile.close(handle)
        if let failure = relay?.failure { throw failure }
        if status != 0 {
            throw SoundFileError(path: path, kind: .writeFailed,
                                 reason: "closing failed: \(SoundFileReader.cleaned(LibSndfile.errorMessage(nil)))")
        }
        try relay?.finish()
    }

    /// Writes all of `bytes` to `fileDescriptor`.
    private static func writeAll(_ bytes: Data, to fileDescriptor: Int32, path: String) throws(SoundFileError) {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { writeBytes(fileDescriptor, $0.baseAddress! + offset, $0.count - offset) }
            if written < 0, errno == EINTR { continue }
            guard written > 0 else { throw SoundFileError(path: path, kind: .writeFailed, reason: String(cString: strerror(errno))) }
            offset += written
        }
    }

    private func check(_ written: Int, of frames: Int) throws(SoundFileError) {
        wroteFrames = wroteFrames || written > 0
        if written != frames {
            if let failure = relay?.failure { throw failure }
        let message = handle.map { SoundFileReader.cleaned(LibSndfile.errorMessage($0)) } ?? "file closed"
            throw SoundFileError(path: path, kind: .writeFailed,
                                 reason: "wrote \(written) of \(frames) frames: \(message)")
        }
    }

    private var closedError: SoundFileError {
        SoundFileError(path: path, kind: .writeFailed, reason: "the file is already closed")
    }
}

/// `write(2)`, which the writer's own `write` methods hide inside it.
private func writeBytes(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    write(descriptor, bytes, count)
}
