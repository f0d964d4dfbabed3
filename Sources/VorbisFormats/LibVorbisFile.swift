#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import AudioFormats
import CVorbisFile

/// Every call into libvorbisfile: one Ogg Vorbis stream read through custom I/O callbacks over
/// an `InputBytes`, decoded to interleaved Float32 exactly as `oggdec` (which is built on it)
/// decodes it: the first page's granule position trims the start, the last page's the end, and
/// the links of a chained file follow one another.
///
/// Memory stays flat: libvorbisfile decodes a page at a time into buffers of its own, which
/// are copied into the caller's.
final class VorbisFileStream {
    /// The file as the user named it.
    let path: String
    /// Frames per second (every link of a chained file has the same).
    let sampleRate: Int
    /// Channels, in Vorbis's order (every link has the same number).
    let channelCount: Int
    /// The frames the stream's granule positions give, on a regular file; nil on a pipe.
    let totalFrames: Int64?

    private let source: InputBytes
    private let file: UnsafeMutablePointer<OggVorbis_File>
    private var isOpen = false
    /// The chained file's link being read, to notice a change of format on a pipe.
    private var link: Int32 = 0

    /// Opens `source`, named `path`, and reads its headers (on a regular file, every link's).
    init(source: InputBytes, path: String) throws(AudioFormatError) {
        self.path = path
        self.source = source
        file = .allocate(capacity: 1)
        file.initialize(to: OggVorbis_File())
        let status = Self.open(file, source)
        guard status == 0, let info = ov_info(file, -1) else {
            if status == 0 { ov_clear(file) }
            file.deallocate()
            throw AudioFormatError(path: path, kind: .invalidFile, reason: Self.message(status))
        }
        isOpen = true
        sampleRate = info.pointee.rate
        channelCount = Int(info.pointee.channels)
        if source.isSeekable {
            for index in 0..<Int32(clamping: ov_streams(file)) {
                guard let other = ov_info(file, index), other.pointee.rate == sampleRate, Int(other.pointee.channels) == channelCount else {
                    let change = ov_info(file, index).map { "\($0.pointee.rate) Hz, \($0.pointee.channels) channels" } ?? "an unreadable format"
                    ov_clear(file)
                    file.deallocate()
                    throw AudioFormatError(path: path, kind: .unsupportedInput, reason:
                        "its chained streams change from \(sampleRate) Hz, \(channelCount) channels to \(change), which aurender does not follow")
                }
            }
            let total = ov_pcm_total(file, -1)
            totalFrames = total >= 0 ? total : nil
        } else {
            totalFrames = nil
        }
    }

    deinit {
        close()
        file.deallocate()
    }

    /// Decodes up to `frames` interleaved frames into `buffer`; returns the frames given, fewer
    /// only at the end of the stream, and whether libvorbisfile met a hole in the data (pages
    /// missing or damaged) on the way.
    func read(into buffer: UnsafeMutablePointer<Float>, frames: Int) throws(AudioFormatError) -> (frames: Int, metHole: Bool) {
        guard isOpen else { return (0, false) }
        var done = 0, metHole = false
        while done < frames {
            var planes: UnsafeMutablePointer<UnsafeMutablePointer<Float>?>?
            var current: Int32 = 0
            let got = ov_read_float(file, &planes, Int32(clamping: frames - done), &current)
            if got == 0 { break }
            if got == OV_HOLE {
                metHole = true
                continue
            }
            guard got > 0, let planes else {
                throw AudioFormatError(path: path, kind: .readFailed, reason: Self.message(Int32(got)))
            }
            if current != link { try follow(link: current) }
            for channel in 0..<channelCount {
                guard let plane = planes[channel] else { continue }
                var target = buffer + done * channelCount + channel
                for index in 0..<got {
                    target.pointee = plane[index]
                    target += channelCount
                }
            }
            done += got
        }
        return (done, metHole)
    }

    /// The number of links (chained streams) of a regular file; 1 on a pipe, whose links are
    /// met only as it reads.
    var linkCount: Int {
        isOpen && source.isSeekable ? Int(ov_streams(file)) : 1
    }

    /// Moves to frame `frame` of a regular file, so that the next read gives exactly the
    /// frames a reading from the start gives there: libvorbisfile decodes the packet before it
    /// to overlap with, as its own seeking example checks.
    func seek(toFrame frame: Int64) throws(AudioFormatError) {
        guard isOpen, source.isSeekable else {
            throw AudioFormatError(path: path, kind: .notSeekable, reason: "cannot seek in the stream")
        }
        let status = ov_pcm_seek(file, frame)
        guard status == 0 else {
            throw AudioFormatError(path: path, kind: .readFailed, reason: Self.message(status))
        }
    }

    /// Goes back to the first frame: the stream is opened again, so the start is trimmed as
    /// on the first reading.
    func rewind() throws(AudioFormatError) {
        guard source.isSeekable, source.seek(0, whence: SEEK_SET) == 0 else {
            throw AudioFormatError(path: path, kind: .notSeekable, reason: "cannot go back to the start of the stream")
        }
        close()
        guard Self.open(file, source) == 0 else {
            throw AudioFormatError(path: path, kind: .notSeekable, reason: "cannot go back to the start of the stream")
        }
        isOpen = true
        link = 0
    }

    /// Frees the decoder; reading afterwards gives no frames.
    func close() {
        if isOpen { ov_clear(file) }
        isOpen = false
    }

    /// Checks that the chained file's link `current`, which a pipe meets only as it reads, has
    /// the first link's format.
    private func follow(link current: Int32) throws(AudioFormatError) {
        link = current
        guard let info = ov_info(file, -1), info.pointee.rate == sampleRate, Int(info.pointee.channels) == channelCount else {
            throw AudioFormatError(path: path, kind: .unsupportedInput, reason:
                "its chained streams change from \(sampleRate) Hz, \(channelCount) channels part way, which aurender does not follow")
        }
    }

    /// Opens `file` on `source` from its current byte; libvorbisfile's status.
    private static func open(_ file: UnsafeMutablePointer<OggVorbis_File>, _ source: InputBytes) -> Int32 {
        let callbacks = ov_callbacks(read_func: vorbisRead, seek_func: source.isSeekable ? vorbisSeek : nil,
                                     close_func: nil, tell_func: vorbisTell)
        return ov_open_callbacks(Unmanaged.passUnretained(source).toOpaque(), file, nil, 0, callbacks)
    }

    /// What libvorbisfile's status codes mean, as a clause about the file.
    private static func message(_ status: Int32) -> String {
        switch status {
        case OV_EREAD: return "it cannot be read"
        case OV_ENOTVORBIS, OV_EBADHEADER: return "it is truncated or damaged: its Vorbis headers cannot be read"
        case OV_EVERSION: return "its Vorbis version is one libvorbisfile does not know"
        case OV_EBADLINK: return "it is damaged: a link of its chained stream cannot be read"
        default: return "libvorbisfile fails on it (status \(status))"
        }
    }
}

/// libvorbisfile's read callback: up to `count` items of `size` bytes, 0 at the end.
private func vorbisRead(_ buffer: UnsafeMutableRawPointer?, _ size: Int, _ count: Int, _ opaque: UnsafeMutableRawPointer?) -> Int {
    guard let buffer, let opaque, size > 0 else { return 0 }
    return Unmanaged<InputBytes>.fromOpaque(opaque).takeUnretainedValue().read(buffer, count: size * count) / size
}

/// libvorbisfile's seek callback: 0 on success, -1 where the source cannot go.
private func vorbisSeek(_ opaque: UnsafeMutableRawPointer?, _ offset: Int64, _ whence: Int32) -> Int32 {
    guard let opaque else { return -1 }
    return Unmanaged<InputBytes>.fromOpaque(opaque).takeUnretainedValue().seek(offset, whence: whence) < 0 ? -1 : 0
}

/// libvorbisfile's tell callback: the source's position.
private func vorbisTell(_ opaque: UnsafeMutableRawPointer?) -> Int {
    guard let opaque else { return -1 }
    return Int(Unmanaged<InputBytes>.fromOpaque(opaque).takeUnretainedValue().position)
}
