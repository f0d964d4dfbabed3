import AudioFormats
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A FLAC file encoded on several cores: the input is cut into chunks of whole blocks, each
/// encoded by its own libFLAC encoder on a worker thread, and the frames written in order,
/// renumbered, with the STREAMINFO of the whole.
///
/// libFLAC 1.4 encodes on one thread. FLAC frames are independent and libFLAC's are the same
/// whether it encodes a stream or a chunk of it, so the file is byte for byte the one a single
/// libFLAC encoder (libsndfile's) makes, whatever the number of workers. Memory holds a fixed
/// ring of chunks (one more than the workers), not the file. The thread that writes allocates
/// nothing once each chunk of the ring has been used; libFLAC allocates for each chunk on the
/// worker's thread.
final class ParallelFLACEncoder: AudioEncoder {
    /// Blocks in a chunk: 32 (131,072 frames at level 5's 4,096), so a chunk's encoder is set up
    /// rarely and the ring stays about a megabyte a chunk in stereo.
    static let blocksPerChunk = 32

    let path: String
    let container = AudioContainer.flac
    let encoding: AudioEncoding
    var channelCount: Int { settings.channelCount }
    var wroteLeadingTags: Bool { wroteTags }

    private let fileDescriptor: Int32
    private let settings: LibFLAC.Settings
    private let blockSize: Int
    private let workers: ChunkWorkers
    private let signature = MD5()
    /// Samples packed as STREAMINFO's signature takes them (little-endian, whole bytes), for 8 and 24 bits.
    private let packed: UnsafeMutableRawPointer
    private let packedFrames = 4_096
    /// Where the stream starts in a file whose STREAMINFO can be written again; nil for a pipe.
    private let rewritableStart: Int64?

    /// The chunk being filled, if any.
    private var filling: FLACChunk?
    /// The sequence number of the next chunk to fill, and of the first not yet written.
    private var nextToFill = 0
    private var nextToWrite = 0
    private var info: FLACStreamHeader.StreamInfo
    private var headerWritten = false
    private var closed = false
    /// Where the cue sheet's tracks start, in frames (at most `FLACCueSheet.trackLimit`); none writes no `CUESHEET` block.
    private let cueOffsets: [Int64]
    /// The tags the header holds, so that no tag library rewrites the finished file (and a pipe gets them).
    private let tags: LeadingTags
    /// Whether tags were given to write.
    private let wroteTags: Bool

    /// An encoder of `settings` writing to `fileDescriptor` (which it owns) with `workerCount`
    /// threads; libFLAC's refusal of the settings as an error about `path`.
    /// `cueOffsets`: where a `CUESHEET` block's tracks start, in frames; written only into a file
    /// whose header can be written again, with the tracks that start before its end.
    /// `tags`: the comments and pictures the header holds.
    init(fileDescriptor: Int32, path: String, encoding: AudioEncoding, settings: LibFLAC.Settings, workerCount: Int,
         cueOffsets: [Int64] = [], tags: LeadingTags? = nil) throws(AudioFormatError) {
        self.fileDescriptor = fileDescriptor
        self.tags = tags ?? LeadingTags()
        wroteTags = tags != nil
        self.cueOffsets = Array(cueOffsets.sorted().prefix(FLACCueSheet.trackLimit))
        self.path = path
        self.encoding = encoding
        self.settings = settings
        // A first encoder tells the block size, or refuses the settings as libsndfile's would when opening.
        final class NoFrames: FLACFrameSink { func receive(frame: UnsafeRawBufferPointer, samples: Int) {} }
        let probeSink = NoFrames()
        do throws(FLACEncodingError) {
            blockSize = try LibFLAC.StreamEncoder(settings, sink: probeSink).blockSize
        } catch {
            close(fileDescriptor)
            throw AudioFormatError(path: path, kind: .unsupportedFormat, reason: error.reason)
        }
        info = FLACStreamHeader.StreamInfo(blockSize: blockSize, sampleRate: settings.sampleRate, channelCount: settings.channelCount,
                                           bitsPerSample: settings.bitsPerSample)
        let blockSize = blockSize
        let chunks = (0...workerCount).map { _ in FLACChunk(settings: settings, blockSize: blockSize, blocks: Self.blocksPerChunk) }
        workers = ChunkWorkers(workerCount: workerCount, chunks: chunks)
        packed = .allocate(byteCount: packedFrames * settings.channelCount * 4, alignment: 16)
        rewritableStart = Self.rewritableStart(of: fileDescriptor)
    }

    deinit {
        workers.stop()
        packed.deallocate()
        if !closed { close(fileDescriptor) }
    }

    /// Where a regular file not opened for appending is now: the stream's start, to come back to.
    private static func rewritableStart(of descriptor: Int32) -> Int64? {
        var status = stat()
        guard fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG, fcntl(descriptor, F_GETFL) & O_APPEND == 0 else { return nil }
        let offset = lseek(descriptor, 0, SEEK_CUR)
        return offset >= 0 ? Int64(offset) : nil
    }

    func write(_ samples: UnsafePointer<Int16>, frames: Int) throws(AudioFormatError) {
        let shift = settings.bitsPerSample - 16
        try fill(frames) { destination, offset, count in
            let source = samples + offset * channelCount
            // One loop for each direction, so that each is a plain loop the compiler vectorizes.
            if shift >= 0 {
                for index in 0..<count * channelCount { destination[index] = Int32(source[index]) << shift }
            } else {
                for index in 0..<count * channelCount { destination[index] = Int32(source[index]) >> -shift }
            }
            // 16-bit samples sign as they are stored, on a little-endian machine.
            guard shift == 0, Int16(1).littleEndian == 1 else { return false }
            signature.update(source, count: count * channelCount * 2)
            return true
        }
    }

    func write(_ samples: UnsafePointer<Int32>, frames: Int) throws(AudioFormatError) {
        let shift = Int32(32 - settings.bitsPerSample)
        try fill(frames) { destination, offset, count in
            let source = samples + offset * channelCount
            for index in 0..<count * channelCount { destination[index] = source[index] >> shift }
            return false
        }
    }

    func write(_ samples: UnsafePointer<Float>, frames: Int) throws(AudioFormatError) {
        let scale = Float(1 << (settings.bitsPerSample - 1))
        try fill(frames) { destination, offset, count in
            let source = samples + offset * channelCount
            for index in 0..<count * channelCount {
                let value = source[index].isNaN ? 0 : (source[index] * scale).rounded()
                destination[index] = Int32(min(scale - 1, max(-scale, value)))
            }
            return false
        }
    }

    /// Puts `frames` frames into chunks, `convert` writing `count` frames from the input's frame
    /// `offset` as right-justified samples (and returning whether it added them to the signature
    /// itself); hands each full chunk to the workers.
    private func fill(_ frames: Int, _ convert: (UnsafeMutablePointer<Int32>, Int, Int) -> Bool) throws(AudioFormatError) {
        guard !closed else { throw AudioFormatError(path: path, kind: .writeFailed, reason: "the file is already closed") }
        var done = 0
        while done < frames {
            let chunk = try chunkToFill()
            let count = min(frames - done, chunk.capacity - chunk.frameCount)
            let destination = chunk.samples + chunk.frameCount * channelCount
            if !convert(destination, done, count) { sign(destination, frames: count) }
            chunk.frameCount += count
            done += count
            if chunk.frameCount == chunk.capacity {
                workers.handOver(chunk.sequence)
                filling = nil
            }
        }
        info.totalFrames += Int64(frames)
    }

    /// Adds right-justified samples to the signature, packed as FLAC packs them for it.
    private func sign(_ samples: UnsafePointer<Int32>, frames: Int) {
        let bytesPerSample = (settings.bitsPerSample + 7) / 8
        var done = 0
        while done < frames {
            let count = min(frames - done, packedFrames)
            let values = count * channelCount
            let source = samples + done * channelCount
            for index in 0..<values {
                let value = UInt32(bitPattern: source[index])
                for byte in 0..<bytesPerSample {
                    packed.storeBytes(of: UInt8(truncatingIfNeeded: value >> (8 * byte)), toByteOffset: index * bytesPerSample + byte, as: UInt8.self)
                }
            }
            signature.update(packed, count: values * bytesPerSample)
            done += count
        }
    }

    /// The chunk being filled, or the next of the ring once its earlier frames are written.
    private func chunkToFill() throws(AudioFormatError) -> FLACChunk {
        if let filling { return filling }
        let ring = workers.chunks.count
        while nextToWrite <= nextToFill - ring { try writeChunk(nextToWrite) }
        let chunk = workers.chunks[nextToFill % ring]
        chunk.sequence = nextToFill
        chunk.frameCount = 0
        nextToFill += 1
        filling = chunk
        return chunk
    }

    /// Waits for chunk `sequence` to be encoded and writes its frames (the header first, before the first).
    private func writeChunk(_ sequence: Int) throws(AudioFormatError) {
        let chunk = workers.chunks[sequence % workers.chunks.count]
        chunk.encoded.wait()
        nextToWrite = sequence + 1
        if let failure = chunk.failure { throw AudioFormatError(path: path, kind: .writeFailed, reason: failure.reason) }
        try writeHeaderOnce()
        try writeAll(UnsafeRawBufferPointer(start: chunk.bytes, count: chunk.byteCount))
        if chunk.encodedFrames > 0 {
            info.smallestFrame = wroteFrames ? min(info.smallestFrame, chunk.smallestFrame) : chunk.smallestFrame
            info.largestFrame = max(info.largestFrame, chunk.largestFrame)
            wroteFrames = true
        }
    }

    /// Whether any frame has been written (before one, the smallest frame is unknown).
    private var wroteFrames = false

    private func writeHeaderOnce() throws(AudioFormatError) {
        guard !headerWritten else { return }
        headerWritten = true
        let initial = FLACStreamHeader.StreamInfo(blockSize: blockSize, sampleRate: settings.sampleRate, channelCount: channelCount,
                                                  bitsPerSample: settings.bitsPerSample)
        let room = FLACCueSheet.blockSize(tracks: cueOffsets.count)
        // Padding until the cue sheet is written over it at the end, when the stream's length is known.
        let cueSheet = cueOffsets.isEmpty || rewritableStart == nil ? []
            : FLACStreamHeader.blockHeader(type: 1, length: room - 4, isLast: true) + [UInt8](repeating: 0, count: room - 4)
        for piece in FLACStreamHeader.pieces(initial, vendor: LibFLAC.vendorString, tags: tags, last: cueSheet) {
            var failure: AudioFormatError?
            piece.withUnsafeBytes { bytes in
                do throws(AudioFormatError) { try writeAll(bytes) } catch { failure = error }
            }
            if let failure { throw failure }
        }
    }

    private func writeAll(_ bytes: UnsafeRawBufferPointer) throws(AudioFormatError) {
        var offset = 0
        while offset < bytes.count {
            let written = writeBytes(fileDescriptor, bytes.baseAddress! + offset, bytes.count - offset)
            if written < 0, errno == EINTR { continue }
            guard written > 0 else { throw writeFailed(String(cString: strerror(errno))) }
            offset += written
        }
    }

    private func writeFailed(_ reason: String) -> AudioFormatError {
        AudioFormatError(path: path, kind: .writeFailed, reason: "writing failed: \(reason)")
    }

    func finish() throws(AudioFormatError) {
        guard !closed else { return }
        defer {
            workers.stop()
            closed = true
            close(fileDescriptor)
        }
        if let filling {
            workers.handOver(filling.sequence)
            self.filling = nil
        }
        while nextToWrite < nextToFill { try writeChunk(nextToWrite) }
        try writeHeaderOnce()
        guard let start = rewritableStart else { return }
        if !wroteFrames { info.smallestFrame = 0xFF_FFFF }
        info.signature = signature.finish()
        let body = info.bytes
        let written = body.withUnsafeBytes { pwrite(fileDescriptor, $0.baseAddress, $0.count, off_t(start) + off_t(FLACStreamHeader.streamInfoOffset)) }
        guard written == body.count else { throw writeFailed("STREAMINFO could not be updated: \(String(cString: strerror(errno)))") }
        guard !cueOffsets.isEmpty else { return }
        let room = FLACCueSheet.blockSize(tracks: cueOffsets.count)
        let cueSheet = FLACCueSheet.block(offsets: cueOffsets.filter { $0 < info.totalFrames }, leadOut: info.totalFrames, room: room)
        let header = FLACStreamHeader.pieces(info, vendor: LibFLAC.vendorString, tags: tags).reduce(0) { $0 + $1.count }
        let cueStart = off_t(start) + off_t(header)
        let cueWritten = cueSheet.withUnsafeBytes { pwrite(fileDescriptor, $0.baseAddress, $0.count, cueStart) }
        guard cueWritten == cueSheet.count else { throw writeFailed("the CUESHEET block could not be written: \(String(cString: strerror(errno)))") }
    }
}

/// The C library's `write`, out of reach of the encoder's own `write` methods.
private func writeBytes(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    write(descriptor, bytes, count)
}
