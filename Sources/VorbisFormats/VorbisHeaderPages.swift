/// Whether an Ogg Vorbis stream's first audio packet starts a page of its own, as the Vorbis I
/// specification requires ("the first audio packet must begin on a fresh page"), told from the
/// file's first bytes.
///
/// Where it does not (LMMS's samples put audio packets after the setup header on its last
/// page), libvorbisfile drops those packets and reads the start offset from the next page, so
/// the granule count it states is not the length it decodes: aurender then shows that count as
/// an estimate.
enum VorbisHeaderPages {
    /// Bytes to read from the start: enough for the three header packets of any usual encoder.
    static let headLength = 1 << 19

    /// Whether the third packet of the stream whose page comes first in `bytes` ends its page;
    /// nil when the bytes end before it does, or are not Ogg pages.
    static func audioStartsOnAFreshPage(_ bytes: [UInt8]) -> Bool? {
        var start = 0, packets = 0
        var serial: ArraySlice<UInt8>?
        while start + 27 <= bytes.count, bytes[start..<(start + 4)].elementsEqual([0x4F, 0x67, 0x67, 0x53]) {
            let segments = Int(bytes[start + 26]), table = start + 27
            guard table + segments <= bytes.count else { return nil }
            let lacing = bytes[table..<(table + segments)]
            let pageSerial = bytes[(start + 14)..<(start + 18)]
            if serial == nil { serial = pageSerial }
            if pageSerial.elementsEqual(serial!) {
                for (index, value) in lacing.enumerated() where value < 255 {
                    packets += 1
                    if packets == 3 { return index == segments - 1 }
                }
            }
            start = table + segments + lacing.reduce(0) { $0 + Int($1) }
        }
        return nil
    }
}
