/// Ogg pages taken apart and put back together, to build the page layouts other muxers write
/// from an Ogg file of aurender's own.
public struct OggPage: Equatable, Sendable {
    /// The header type: 0x01 continued packet, 0x02 beginning of stream, 0x04 end of stream.
    public var flags: UInt8
    /// The granule position (frames decoded by the end of the page's last complete packet).
    public var granule: Int64
    /// The logical stream's serial number.
    public var serial: UInt32
    /// The page's sequence number in its stream.
    public var sequence: UInt32
    /// The segment table: each packet's length in lacing values of at most 255.
    public var lacing: [UInt8]
    /// The packet data the segment table describes.
    public var body: [UInt8]

    /// The pages of `bytes`, in order; stops at the first thing that is not a whole page.
    public static func pages(of bytes: [UInt8]) -> [OggPage] {
        var pages: [OggPage] = [], start = 0
        while start + 27 <= bytes.count, bytes[start..<(start + 4)].elementsEqual(Array("OggS".utf8)) {
            func number(_ offset: Int, _ count: Int) -> UInt64 {
                (0..<count).reduce(UInt64(0)) { $0 | UInt64(bytes[start + offset + $1]) << (8 * UInt64($1)) }
            }
            let segments = Int(bytes[start + 26]), table = start + 27
            guard table + segments <= bytes.count else { break }
            let lacing = Array(bytes[table..<(table + segments)])
            let end = table + segments + lacing.reduce(0) { $0 + Int($1) }
            guard end <= bytes.count else { break }
            pages.append(OggPage(flags: bytes[start + 5], granule: Int64(bitPattern: number(6, 8)), serial: UInt32(number(14, 4)),
                                 sequence: UInt32(number(18, 4)), lacing: lacing, body: Array(bytes[(table + segments)..<end])))
            start = end
        }
        return pages
    }

    /// The page as bytes, with its CRC computed.
    public var bytes: [UInt8] {
        func little<T: FixedWidthInteger>(_ value: T) -> [UInt8] { (0..<(T.bitWidth / 8)).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }
        var page = Array("OggS".utf8) + [0, flags] + little(granule) + little(serial) + little(sequence) + [0, 0, 0, 0]
        page += [UInt8(lacing.count)] + lacing + body
        let crc = Self.crc(page)
        page.replaceSubrange(22..<26, with: little(crc))
        return page
    }

    /// Ogg's CRC-32 (polynomial 0x04C11DB7, not reflected, starting at 0).
    static func crc(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0
        for byte in bytes {
            crc ^= UInt32(byte) << 24
            for _ in 0..<8 { crc = crc & 0x8000_0000 != 0 ? (crc << 1) ^ 0x04C1_1DB7 : crc << 1 }
        }
        return crc
    }

    /// `ogg` (one Vorbis stream, as libsndfile writes it) with its first audio page joined to the
    /// page that ends the setup header, as LMMS's samples are laid out: the first audio packets
    /// share the setup header's page, against the Vorbis specification, and later pages are
    /// renumbered.
    public static func audioOnTheSetupPage(_ ogg: [UInt8]) -> [UInt8] {
        var pages = pages(of: ogg)
        var packets = 0
        guard let setup = pages.firstIndex(where: { page in
            packets += page.lacing.filter { $0 < 255 }.count
            return packets >= 3
        }), setup + 1 < pages.count, pages[setup].lacing.count + pages[setup + 1].lacing.count <= 255 else { return ogg }
        let audio = pages.remove(at: setup + 1)
        pages[setup].lacing += audio.lacing
        pages[setup].body += audio.body
        pages[setup].granule = audio.granule
        for index in (setup + 1)..<pages.count { pages[index].sequence -= 1 }
        return pages.flatMap(\.bytes)
    }
}
