#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import AudioFormats

/// The Ogg stream libsndfile writes, passed on page by page to the output, front to back: every
/// page with aurender's serial number, and the comment header given in place of libsndfile's.
///
/// libsndfile gives each Ogg stream a random serial number (seeded from the clock), so two
/// renders of the same input would differ in the serial and in every page's checksum; and its
/// Vorbis comment header stamps `ENCODER=libsndfile`. Rewriting the pages as they pass, rather
/// than the file once it is written, serves a pipe as well as a file, and the comment header is
/// where a pipe's tags go (`EncoderSettings.leadingTags`). The audio pages are untouched but for
/// the serial, their sequence numbers (moved by as many pages as the new header takes more or
/// fewer than libsndfile's) and their checksums.
final class OggPageRelay {
    /// The serial aurender writes: "aure" in ASCII.
    static let fixedSerial: UInt32 = 0x6175_7265

    private let fileDescriptor: Int32
    private let path: String
    private let tags: LeadingTags
    /// Bytes libsndfile wrote that are not yet a whole page, from `pendingStart`.
    private var pending: [UInt8] = []
    private var pendingStart = 0
    /// How many bytes libsndfile has written: where it stands in the stream it believes it writes.
    private(set) var position: Int64 = 0
    /// The header packets read so far, until all are (then nil), and the one being read.
    private var headerPackets: [[UInt8]]? = []
    private var partialPacket: [UInt8] = []
    /// How many header packets the codec has (3 for Vorbis, 2 for Opus); 0 until the first is read.
    private var headerCount = 0
    /// Pages written less pages read, for the sequence numbers after the header.
    private var sequenceShift: Int32 = 0
    private var pagesRead: Int32 = 0
    /// Why the stream could not be passed on, once it could not.
    private(set) var failure: SoundFileError?

    /// A relay writing to `fileDescriptor`, which stays the caller's, with `tags` in the comment header.
    init(fileDescriptor: Int32, path: String, tags: LeadingTags) {
        self.fileDescriptor = fileDescriptor
        self.path = path
        self.tags = tags
        pending.reserveCapacity(Self.largestPage * 2)
    }

    /// A page's header is 27 bytes and its lacing table up to 255; its body up to 255 × 255.
    private static let largestPage = 27 + 255 + 255 * 255

    /// Takes `count` bytes libsndfile writes, passing on each page they complete; false once the
    /// stream cannot be passed on (`failure` says why).
    func receive(_ bytes: UnsafeRawPointer, count: Int) -> Bool {
        guard failure == nil else { return false }
        pending.append(contentsOf: UnsafeRawBufferPointer(start: bytes, count: count))
        position += Int64(count)
        while let size = completePageSize() {
            passOn(pageAt: pendingStart, size: size)
            pendingStart += size
            guard failure == nil else { return false }
        }
        if pendingStart > Self.largestPage {
            pending.removeFirst(pendingStart)
            pendingStart = 0
        }
        return true
    }

    /// Checks that the stream ended on a page's end, once libsndfile has closed it.
    func finish() throws(SoundFileError) {
        if let failure { throw failure }
        guard pendingStart == pending.count else {
            throw SoundFileError(path: path, kind: .writeFailed, reason: "the Ogg stream written by libsndfile ends inside a page")
        }
        guard headerPackets == nil || pagesRead == 0 else {
            throw SoundFileError(path: path, kind: .writeFailed, reason: "the Ogg stream written by libsndfile ends inside its header")
        }
    }

    /// The size of the whole page at `pendingStart`, nil while it is not all there.
    private func completePageSize() -> Int? {
        let available = pending.count - pendingStart
        guard available >= 27 else { return nil }
        let segments = Int(pending[pendingStart + 26])
        guard available >= 27 + segments else { return nil }
        let body = pending[(pendingStart + 27)..<(pendingStart + 27 + segments)].reduce(0) { $0 + Int($1) }
        return available >= 27 + segments + body ? 27 + segments + body : nil
    }

    private func passOn(pageAt start: Int, size: Int) {
        guard pending[start..<(start + 4)].elementsEqual("OggS".utf8) else {
            failure = SoundFileError(path: path, kind: .writeFailed, reason: "the Ogg stream written by libsndfile has a damaged page at byte \(position)")
            return
        }
        pagesRead += 1
        if headerPackets != nil {
            collectHeader(pageAt: start)
            return
        }
        let sequence = Int32(littleEndian: load(start + 18, as: Int32.self)) &+ sequenceShift
        seal(&pending, page: start, size: size, sequence: sequence)
        pending.withUnsafeBytes { send(UnsafeRawBufferPointer(rebasing: $0[start..<(start + size)])) }
    }

    /// Reads the header packets out of a page of libsndfile's header, and once all are read writes
    /// the header again with the comment packet replaced.
    private func collectHeader(pageAt start: Int) {
        let segments = Int(pending[start + 26])
        var offset = start + 27 + segments
        for index in 0..<segments {
            let length = Int(pending[start + 27 + index])
            partialPacket.append(contentsOf: pending[offset..<(offset + length)])
            offset += length
            guard length < 255 else { continue }
            headerPackets!.append(partialPacket)
            partialPacket.removeAll()
            if headerPackets!.count == 1 { headerCount = Self.headerCount(identification: headerPackets![0]) }
            if headerPackets!.count == headerCount, index != segments - 1 {
                failure = SoundFileError(path: path, kind: .writeFailed, reason: "the Ogg stream written by libsndfile has audio in its header's last page")
                return
            }
        }
        guard headerPackets!.count >= headerCount else { return }
        let packets = headerPackets!
        headerPackets = nil
        let following = packets.count > 1 ? [comment(replacing: packets[1])] + packets.dropFirst(2).map(OggStreamedPacket.init(bytes:)) : []
        let laced = following.reduce(0) { $0 + $1.count / 255 + 1 }
        sequenceShift = 1 + Int32((laced + 254) / 255) - pagesRead
        var page = Self.identificationPage(packets[0])
        seal(&page, page: 0, size: page.count, sequence: 0)
        page.withUnsafeBytes { send($0) }
        sendPages(following, from: 1)
    }

    /// 3 header packets for Vorbis, 2 for Opus; 1 (none replaced) for a codec not known here.
    private static func headerCount(identification: [UInt8]) -> Int {
        if identification.starts(with: [1] + Array("vorbis".utf8)) { return 3 }
        if identification.starts(with: Array("OpusHead".utf8)) { return 2 }
        return 1
    }

    /// The comment packet with `tags`, keeping `original`'s marker and vendor.
    private func comment(replacing original: [UInt8]) -> OggStreamedPacket {
        let marker = original.starts(with: Array("OpusTags".utf8)) ? Array("OpusTags".utf8)
            : original.starts(with: [3] + Array("vorbis".utf8)) ? [3] + Array("vorbis".utf8) : nil
        guard let marker, original.count >= marker.count + 4 else { return OggStreamedPacket(bytes: original) }
        let vendorLength = (0..<4).reduce(0) { $0 | Int(original[marker.count + $1]) << (8 * $1) }
        guard original.count >= marker.count + 4 + vendorLength else { return OggStreamedPacket(bytes: original) }
        let vendor = Array(original[(marker.count + 4)..<(marker.count + 4 + vendorLength)])
        return OggStreamedPacket(marker: marker, vendor: vendor, tags: tags, framed: marker.count == 7)
    }

    /// Sends `packets` laced into pages of at most 255 segments, numbered from `sequence`, the
    /// last page ending with the last packet; each page made as it is sent.
    private func sendPages(_ packets: [OggStreamedPacket], from sequence: Int32) {
        var packets = packets, sequence = sequence
        var index = 0, remaining = packets.first?.count ?? 0, continuing = false
        while index < packets.count, failure == nil {
            var lacing: [UInt8] = [], body: [UInt8] = []
            while lacing.count < 255, index < packets.count {
                let segments = min(remaining / 255 + 1, 255 - lacing.count)
                let length = min(remaining, segments * 255)
                lacing += [UInt8](repeating: 255, count: length / 255) + (length == segments * 255 ? [] : [UInt8(length % 255)])
                body += packets[index].take(length)
                remaining -= length
                if lacing.last != 255 {
                    index += 1
                    remaining = index < packets.count ? packets[index].count : 0
                }
            }
            var page = Self.header(flags: continuing ? 1 : 0, granule: lacing.contains { $0 < 255 } ? 0 : -1, lacing: lacing) + body
            continuing = lacing.last == 255
            seal(&page, page: 0, size: page.count, sequence: sequence)
            sequence += 1
            page.withUnsafeBytes { send($0) }
        }
    }

    /// The first page: the identification packet alone, beginning the stream.
    private static func identificationPage(_ packet: [UInt8]) -> [UInt8] {
        header(flags: 2, granule: 0, lacing: Array(repeating: 255, count: packet.count / 255) + [UInt8(packet.count % 255)]) + packet
    }

    /// A page header of `flags`, `granule` and `lacing`; serial, sequence and checksum are `seal`'s.
    private static func header(flags: UInt8, granule: Int64, lacing: [UInt8]) -> [UInt8] {
        var bytes = Array("OggS".utf8) + [0, flags]
        bytes += (0..<8).map { UInt8(truncatingIfNeeded: granule >> (8 * $0)) }
        bytes += [UInt8](repeating: 0, count: 12) + [UInt8(lacing.count)] + lacing
        return bytes
    }

    /// Puts the fixed serial, `sequence` and the checksum into the page of `size` bytes at `start`.
    private func seal(_ bytes: inout [UInt8], page start: Int, size: Int, sequence: Int32) {
        store(Self.fixedSerial, in: &bytes, at: start + 14)
        store(UInt32(bitPattern: sequence), in: &bytes, at: start + 18)
        store(0, in: &bytes, at: start + 22)
        store(Self.checksum(bytes[start..<(start + size)]), in: &bytes, at: start + 22)
    }

    private func store(_ value: UInt32, in bytes: inout [UInt8], at offset: Int) {
        for index in 0..<4 { bytes[offset + index] = UInt8(truncatingIfNeeded: value >> (8 * index)) }
    }

    private func load<Value: FixedWidthInteger>(_ offset: Int, as type: Value.Type) -> Value {
        (0..<MemoryLayout<Value>.size).reduce(Value.zero) { $0 | Value(pending[offset + $1]) << (8 * $1) }
    }

    private func send(_ bytes: UnsafeRawBufferPointer) {
        var offset = 0
        while offset < bytes.count, failure == nil {
            let written = write(fileDescriptor, bytes.baseAddress! + offset, bytes.count - offset)
            if written < 0, errno == EINTR { continue }
            guard written > 0 else {
                failure = SoundFileError(path: path, kind: .writeFailed, reason: String(cString: strerror(errno)))
                return
            }
            offset += written
        }
    }

    /// Ogg's page checksum: CRC-32 with polynomial 0x04C11DB7, not reflected, starting at 0.
    static func checksum(_ bytes: ArraySlice<UInt8>) -> UInt32 {
        var crc: UInt32 = 0
        for byte in bytes { crc = (crc << 8) ^ table[Int(((crc >> 24) ^ UInt32(byte)) & 0xFF)] }
        return crc
    }

    private static let table: [UInt32] = (0..<256).map { index in
        var value = UInt32(index) << 24
        for _ in 0..<8 { value = value & 0x8000_0000 != 0 ? (value << 1) ^ 0x04C1_1DB7 : value << 1 }
        return value
    }
}
