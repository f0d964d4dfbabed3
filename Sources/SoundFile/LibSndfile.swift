import AudioFormats
import CSndfile
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Every call into libsndfile goes through this one file, so the C surface is in one place.
enum LibSndfile {
    typealias Handle = OpaquePointer

    /// Why an open failed: libsndfile's message and error code for it.
    struct OpenFailure: Error {
        var message: String
        var code: Int32
    }

    /// libsndfile keeps a failed open's error in one process-wide variable, which another
    /// thread's open overwrites ("No Error"): opens are made one at a time, and a failure's
    /// message is read before the lock is let go.
    private static let opening = Mutex(())

    private static func serialized(_ open: () -> Handle?) -> Result<Handle, OpenFailure> {
        nonisolated(unsafe) var result: Result<Handle, OpenFailure>?
        opening.withLock { _ in
            if let handle = open() {
                result = .success(handle)
            } else {
                result = .failure(OpenFailure(message: String(cString: sf_strerror(nil)), code: sf_error(nil)))
            }
        }
        return result!
    }

    static func open(path: String, mode: Int, info: inout SF_INFO) -> Result<Handle, OpenFailure> {
        serialized { sf_open(path, Int32(mode), &info) }
    }

    static func open(fileDescriptor: Int32, mode: Int, info: inout SF_INFO, closeDescriptor: Bool) -> Result<Handle, OpenFailure> {
        serialized { sf_open_fd(fileDescriptor, Int32(mode), &info, closeDescriptor ? 1 : 0) }
    }

    /// Opens a stream read through `source`'s callbacks, which libsndfile sees as a seekable file
    /// of unknown size: it can go back, but not to the end, so libmpg123 cannot estimate an
    /// MP3's length from it and libsndfile does not stop reading at such an estimate.
    static func open(source: InputBytes, mode: Int, info: inout SF_INFO) -> Result<Handle, OpenFailure> {
        var io = SF_VIRTUAL_IO(
            get_filelen: { _ in sf_count_t.max },
            seek: { offset, whence, context in
                whence == SEEK_END ? -1 : Unmanaged<InputBytes>.fromOpaque(context!).takeUnretainedValue().seek(offset, whence: whence)
            },
            read: { buffer, count, context in
                sf_count_t(Unmanaged<InputBytes>.fromOpaque(context!).takeUnretainedValue().read(buffer!, count: Int(count)))
            },
            write: nil,
            tell: { context in Unmanaged<InputBytes>.fromOpaque(context!).takeUnretainedValue().position })
        // Not serialized: reading a pipe may wait on its writer for as long as it likes.
        if let handle = sf_open_virtual(&io, Int32(mode), &info, Unmanaged.passUnretained(source).toOpaque()) { return .success(handle) }
        return .failure(OpenFailure(message: String(cString: sf_strerror(nil)), code: sf_error(nil)))
    }

    /// Opens a stream written through `relay`, which libsndfile sees as a file it may only
    /// append to: a seek anywhere but where it stands fails, and nothing can be read back.
    static func open(writingTo relay: OggPageRelay, info: inout SF_INFO) -> Result<Handle, OpenFailure> {
        var io = SF_VIRTUAL_IO(
            get_filelen: { context in Unmanaged<OggPageRelay>.fromOpaque(context!).takeUnretainedValue().position },
            seek: { offset, whence, context in
                let position = Unmanaged<OggPageRelay>.fromOpaque(context!).takeUnretainedValue().position
                // The stream's end is where it stands, so SEEK_CUR and SEEK_END count from the same place.
                return (whence == SEEK_SET ? offset : position + offset) == position ? position : -1
            },
            read: { _, _, _ in 0 },
            write: { buffer, count, context in
                Unmanaged<OggPageRelay>.fromOpaque(context!).takeUnretainedValue().receive(buffer!, count: Int(count)) ? count : 0
            },
            tell: { context in Unmanaged<OggPageRelay>.fromOpaque(context!).takeUnretainedValue().position })
        return serialized {
            sf_open_virtual(&io, Int32(SFM_WRITE), &info, Unmanaged.passUnretained(relay).toOpaque())
        }
    }

    /// Moves to frame `frame`; returns the new position, or -1 when the file cannot seek.
    static func seek(_ handle: Handle, frame: Int64) -> Int64 {
        Int64(sf_seek(handle, sf_count_t(frame), SEEK_SET))
    }

    /// The message for the last failure on `handle`, or for the last failed open when `handle` is nil.
    static func errorMessage(_ handle: Handle?) -> String {
        String(cString: sf_strerror(handle))
    }

    static func errorCode(_ handle: Handle?) -> Int32 {
        sf_error(handle)
    }

    static func readFrames(_ handle: Handle, _ buffer: UnsafeMutablePointer<Float>, _ frames: Int) -> Int {
        Int(sf_readf_float(handle, buffer, sf_count_t(frames)))
    }

    static func readFrames(_ handle: Handle, _ buffer: UnsafeMutablePointer<Int16>, _ frames: Int) -> Int {
        Int(sf_readf_short(handle, buffer, sf_count_t(frames)))
    }

    static func writeFrames(_ handle: Handle, _ buffer: UnsafePointer<Int16>, _ frames: Int) -> Int {
        Int(sf_writef_short(handle, buffer, sf_count_t(frames)))
    }

    static func writeFrames(_ handle: Handle, _ buffer: UnsafePointer<Float>, _ frames: Int) -> Int {
        Int(sf_writef_float(handle, buffer, sf_count_t(frames)))
    }

    static func writeFrames(_ handle: Handle, _ buffer: UnsafePointer<Int32>, _ frames: Int) -> Int {
        Int(sf_writef_int(handle, buffer, sf_count_t(frames)))
    }

    static func close(_ handle: Handle) -> Int32 {
        sf_close(handle)
    }

    static func formatCheck(_ info: SF_INFO) -> Bool {
        var info = info
        return sf_format_check(&info) != 0
    }

    static func setBool(_ handle: Handle, _ command: Int, _ value: Bool) {
        _ = sf_command(handle, Int32(command), nil, Int32(value ? SF_TRUE : SF_FALSE))
    }

    /// Makes an Ogg Opus reader decode at 48 kHz, as RFC 7845 (section 5.1) asks of a player
    /// and `opusdec` and FFmpeg do (libsndfile picks the encoder's input rate, rounded up to an
    /// Opus rate), and refreshes `info`; false when libsndfile refuses.
    static func decodeOpusAtFullRate(_ handle: Handle, info: inout SF_INFO) -> Bool {
        var rate: Int32 = 48_000
        guard sf_command(handle, Int32(SFC_SET_ORIGINAL_SAMPLERATE), &rate, Int32(MemoryLayout<Int32>.size)) == SF_TRUE else { return false }
        return sf_command(handle, Int32(SFC_GET_CURRENT_SF_INFO), &info, Int32(MemoryLayout<SF_INFO>.size)) == 0
    }

    /// Writes the file's header as it stands (`SFC_UPDATE_HEADER_NOW`).
    static func updateHeader(_ handle: Handle) {
        _ = sf_command(handle, Int32(SFC_UPDATE_HEADER_NOW), nil, 0)
    }

    /// Sets a lossy encoder's compression level (0 best quality to 1 smallest); false when refused.
    static func setCompressionLevel(_ handle: Handle, _ level: Double) -> Bool {
        var value = level
        return sf_command(handle, Int32(SFC_SET_COMPRESSION_LEVEL), &value, Int32(MemoryLayout<Double>.size)) == SF_TRUE
    }

    /// Sets a lossy encoder's bit-rate mode (`SF_BITRATE_MODE_CONSTANT`, `…_VARIABLE`); false when refused.
    static func setBitrateMode(_ handle: Handle, _ mode: Int32) -> Bool {
        var value = mode
        return sf_command(handle, Int32(SFC_SET_BITRATE_MODE), &value, Int32(MemoryLayout<Int32>.size)) == SF_TRUE
    }

    /// libsndfile's own name for a major format or an encoding.
    static func formatName(_ format: Int32) -> String? {
        var info = SF_FORMAT_INFO(format: format, name: nil, extension: nil)
        guard sf_command(nil, Int32(SFC_GET_FORMAT_INFO), &info, Int32(MemoryLayout<SF_FORMAT_INFO>.size)) == 0, let name = info.name else {
            return nil
        }
        return String(cString: name)
    }
}
