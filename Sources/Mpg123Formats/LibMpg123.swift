#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import AudioFormats
import CMpg123

/// Every call into libmpg123: one MPEG audio stream (layer I, II or III) read through custom
/// I/O callbacks over an `InputBytes`, decoded to interleaved Float32 as `mpg123 -e f32` decodes
/// it: gapless (the Xing/Info frame's LAME tag trims the encoder's delay and padding, whatever
/// encoder wrote it), ID3v1/v2 and APE tags skipped, a RIFF WAV's header skipped to its data.
///
/// Memory stays flat: libmpg123 holds its own small frame buffers and decodes straight into
/// the caller's buffer.
final class Mpg123Stream {
    /// The file as the user named it.
    let path: String
    /// Frames per second of the first frame (the stream is held to it).
    let sampleRate: Int
    /// Channels of the first frame (1 or 2).
    let channelCount: Int
    /// MPEG audio layer: 1, 2 or 3.
    let layer: Int
    /// Whether the first frame is MPEG-1 (not MPEG-2 or 2.5, whose frames hold one granule).
    let isMPEG1: Bool
    /// Samples per channel in one MPEG frame (1,152 for MPEG-1 layer III).
    let samplesPerFrame: Int
    /// The frames libmpg123 expects to give: exact where a Xing/Info frame counts the frames
    /// (less the LAME tag's delay and padding), else its estimate from the file size and the
    /// first frame's bit rate; nil when it cannot tell (a pipe).
    let expectedFrames: Int64?
    /// Whether the stream ended inside an MPEG frame, its bytes cut short: `read` then gives
    /// the whole frames before it, as `mpg123` does.
    private(set) var endedInsideFrame = false

    private let source: InputBytes
    /// The bytes libmpg123 reads, the callbacks' context.
    private let bytes: Mpg123Bytes
    private var handle: OpaquePointer?
    /// Where a frame that does not fit the caller's buffer is decoded: one frame's samples.
    private let frameBuffer: UnsafeMutableRawPointer
    private let frameBufferBytes: Int
    /// Samples of the last frame decoded into `frameBuffer` not yet given, and how many frames.
    private var pending: UnsafePointer<Float>
    private var pendingFrames = 0

    /// libmpg123's global set-up, run once before the first handle.
    private static let initialized: Int32 = mpg123_init()

    /// Opens `source`, named `path`, and reads up to its first audio frame, so the format is known.
    /// A seek decodes and drops `preframes` frames before the one sought (layer III), so the bit
    /// reservoir and the filter banks are filled again. libmpg123 reads no further than `end`
    /// (where an ID3v1 tag starts), so a frame the tag cut short ends the stream there.
    init(source: InputBytes, path: String, preframes: Int = 4, end: Int64? = nil) throws(AudioFormatError) {
        self.path = path
        self.source = source
        bytes = Mpg123Bytes(source: source, end: end)
        _ = Self.initialized
        var error: Int32 = 0
        guard let handle = mpg123_new(nil, &error) else {
            throw AudioFormatError(path: path, kind: .readFailed, reason: "libmpg123 cannot start (\(Self.message(error)))")
        }
        self.handle = handle
        mpg123_param2(handle, Int32(MPG123_ADD_FLAGS.rawValue), Int(MPG123_QUIET.rawValue | MPG123_GAPLESS.rawValue | MPG123_SKIP_ID3V2.rawValue), 0)
        mpg123_param2(handle, Int32(MPG123_REMOVE_FLAGS.rawValue), Int(MPG123_AUTO_RESAMPLE.rawValue), 0)
        mpg123_param2(handle, Int32(MPG123_PREFRAMES.rawValue), preframes, 0)
        mpg123_format_none(handle)
        for rate in Self.rates {
            mpg123_format(handle, rate, Int32(MPG123_MONO.rawValue | MPG123_STEREO.rawValue), Int32(MPG123_ENC_FLOAT_32.rawValue))
        }
        var status = mpg123_replace_reader_handle(handle, mpg123Read, mpg123Seek, nil)
        if status == MPG123_OK.rawValue { status = mpg123_open_handle(handle, Unmanaged.passUnretained(bytes).toOpaque()) }
        var rate = 0, channels: Int32 = 0, encoding: Int32 = 0
        if status == MPG123_OK.rawValue { status = mpg123_getformat(handle, &rate, &channels, &encoding) }
        guard status == MPG123_OK.rawValue, rate > 0, channels > 0 else {
            // libmpg123 says "I am done with this track" of a file it found no frame in.
            let reason = status == MPG123_DONE.rawValue ? "no MPEG audio frame in it" : Self.reason(handle, status)
            mpg123_delete(handle)
            self.handle = nil
            throw AudioFormatError(path: path, kind: .invalidFile, reason: "not MPEG audio libmpg123 can decode (\(reason))")
        }
        sampleRate = rate
        channelCount = Int(channels)
        frameBufferBytes = mpg123_outblock(handle)
        frameBuffer = .allocate(byteCount: frameBufferBytes, alignment: 16)
        pending = UnsafePointer(frameBuffer.assumingMemoryBound(to: Float.self))
        var info = mpg123_frameinfo2()
        let known = mpg123_info2(handle, &info) == MPG123_OK.rawValue
        layer = known ? Int(info.layer) : 3
        isMPEG1 = known && info.version == Int32(MPG123_1_0.rawValue)
        samplesPerFrame = Int(mpg123_spf(handle))
        let length = Int64(mpg123_length(handle))
        expectedFrames = length > 0 ? length : nil
    }

    deinit {
        close()
        frameBuffer.deallocate()
    }

    /// The sample rates MPEG audio has (MPEG-1, 2 and 2.5).
    private static let rates = [8_000, 11_025, 12_000, 16_000, 22_050, 24_000, 32_000, 44_100, 48_000]

    /// Decodes up to `frames` interleaved frames into `buffer`; returns the frames given, fewer
    /// only at the end of the stream (`endedInsideFrame` says whether that end cut a frame). A
    /// stream whose rate or channels change part way is refused.
    ///
    /// libmpg123 synthesizes each MPEG frame straight into `buffer` where a whole frame fits
    /// (its `mpg123_read` decodes into a buffer of its own and copies from there), else into
    /// `frameBuffer`, whose samples not yet given wait for the next read.
    func read(into buffer: UnsafeMutablePointer<Float>, frames: Int) throws(AudioFormatError) -> Int {
        guard let handle else { return 0 }
        var done = 0
        while done < frames {
            let target = buffer + done * channelCount
            if pendingFrames > 0 {
                let part = min(frames - done, pendingFrames)
                target.update(from: pending, count: part * channelCount)
                pending += part * channelCount
                pendingFrames -= part
                done += part
                continue
            }
            let room = (frames - done) * channelCount * MemoryLayout<Float>.size
            let direct = room >= frameBufferBytes
            let into = direct ? UnsafeMutableRawPointer(target) : frameBuffer
            mpg123_replace_buffer(handle, into, direct ? room : frameBufferBytes)
            var number: off_t = 0
            var audio: UnsafeMutablePointer<UInt8>?
            var bytes = 0
            let status = mpg123_decode_frame(handle, &number, &audio, &bytes)
            if status == MPG123_DONE.rawValue { break }
            // libmpg123 cannot read the rest of a frame's bytes (the source only ends, it never
            // fails): the last frame was cut, and the file may go on with a tag (ID3v1's 128
            // bytes after a truncated download), which libmpg123 keeps out of the stream.
            if status == MPG123_ERR.rawValue, mpg123_errcode(handle) == Int32(MPG123_ERR_READER.rawValue) {
                endedInsideFrame = true
                break
            }
            if status == MPG123_NEW_FORMAT.rawValue {
                var rate = 0, channels: Int32 = 0, encoding: Int32 = 0
                mpg123_getformat(handle, &rate, &channels, &encoding)
                guard rate == sampleRate, Int(channels) == channelCount else {
                    throw AudioFormatError(path: path, kind: .unsupportedInput, reason:
                        "the stream changes from \(sampleRate) Hz, \(channelCount) channels to \(rate) Hz, \(channels) channels part way, which aurender does not follow")
                }
                continue
            }
            guard status == MPG123_OK.rawValue else {
                throw AudioFormatError(path: path, kind: .readFailed, reason: "libmpg123 cannot decode it (\(Self.reason(handle, status)))")
            }
            guard let audio, bytes > 0 else { continue }
            let samples = UnsafeMutableRawPointer(audio).assumingMemoryBound(to: Float.self)
            let got = bytes / (channelCount * MemoryLayout<Float>.size)
            if direct {
                // The first frame's trimmed delay leaves its samples further in.
                if samples != target { target.update(from: samples, count: got * channelCount) }
                done += got
            } else {
                pending = UnsafePointer(samples)
                pendingFrames = got
            }
        }
        return done
    }

    /// Goes to the start of MPEG frame `frame` (counted from 0, the first audio frame); returns
    /// the sample it stands at then, as `read` counts them (after the trimmed delay), or nil
    /// where libmpg123 cannot go there. Past the end it stands at the end: reading gives nothing.
    func seek(toFrame frame: Int64) -> Int64? {
        pendingFrames = 0
        endedInsideFrame = false
        guard let handle, source.isSeekable, mpg123_seek_frame(handle, off_t(frame), SEEK_SET) >= 0 else { return nil }
        let sample = Int64(mpg123_tell(handle))
        return sample >= 0 ? sample : nil
    }

    /// Frees the decoder; reading afterwards gives no frames.
    func close() {
        if let handle {
            mpg123_close(handle)
            mpg123_delete(handle)
        }
        handle = nil
    }

    /// libmpg123's words for `status` on `handle`.
    private static func reason(_ handle: OpaquePointer, _ status: Int32) -> String {
        status == MPG123_ERR.rawValue ? String(cString: mpg123_strerror(handle)) : message(status)
    }

    private static func message(_ code: Int32) -> String {
        String(cString: mpg123_plain_strerror(code))
    }
}

/// The bytes of an input that libmpg123 reads: up to `end` where one is given.
private final class Mpg123Bytes {
    let source: InputBytes
    let end: Int64?

    init(source: InputBytes, end: Int64?) {
        self.source = source
        self.end = end
    }
}

/// libmpg123's read callback: the source's next bytes, 0 at the end.
private func mpg123Read(_ opaque: UnsafeMutableRawPointer?, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    guard let opaque, let buffer else { return -1 }
    let bytes = Unmanaged<Mpg123Bytes>.fromOpaque(opaque).takeUnretainedValue()
    let allowed = bytes.end.map { min(count, Int(max(0, $0 - bytes.source.position))) } ?? count
    return allowed == 0 ? 0 : bytes.source.read(buffer, count: allowed)
}

/// libmpg123's seek callback; -1 where the source cannot go (a pipe past its head).
private func mpg123Seek(_ opaque: UnsafeMutableRawPointer?, _ offset: off_t, _ whence: Int32) -> off_t {
    guard let opaque else { return -1 }
    let bytes = Unmanaged<Mpg123Bytes>.fromOpaque(opaque).takeUnretainedValue()
    if whence == SEEK_END, let end = bytes.end { return off_t(bytes.source.seek(end + Int64(offset), whence: SEEK_SET)) }
    return off_t(bytes.source.seek(Int64(offset), whence: whence))
}
