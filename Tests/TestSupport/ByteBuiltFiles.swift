import Foundation

/// Writes audio files of formats no library here writes (or writes wrongly), byte by byte from
/// their specifications, so tests can read them: Creative VOC, Amiga 8SVX and Sony DSF.
public enum ByteBuiltFiles {
    /// A VOC file holding `data` in blocks of at most `blockSize` bytes: a first block of `kind`
    /// (1: 8-bit unsigned mono sound data; 9: the newer block, which carries rate, bits and
    /// channels), the rest in continuation blocks (type 2), then a terminator.
    public static func voc(_ data: [UInt8], kind: UInt8, rate: Int, bits: UInt8, channels: UInt8, blockSize: Int = 1_024) -> Data {
        var file = Data(Array("Creative Voice File\u{1A}".utf8))
        file.append(contentsOf: little(UInt16(26)) + little(UInt16(0x010A)) + little(UInt16(0x1129)))
        func block(_ type: UInt8, _ bytes: [UInt8]) { file.append(contentsOf: [type] + little(UInt32(bytes.count)).prefix(3) + bytes) }
        let first = Array(data.prefix(blockSize))
        if kind == 1 {
            block(1, [UInt8(256 - 1_000_000 / rate), 0] + first)
        } else {
            block(9, little(UInt32(rate)) + [bits, channels] + little(UInt16(bits == 16 ? 4 : 0)) + [0, 0, 0, 0] + first)
        }
        for start in stride(from: blockSize, to: data.count, by: blockSize) {
            block(2, Array(data[start..<min(start + blockSize, data.count)]))
        }
        file.append(0)
        return file
    }

    /// A stereo 8SVX file of `left` and `right` (signed 8-bit) at `rate`: VHDR, CHAN (left and
    /// right) and a BODY of the left samples followed by the right, as the format stores them.
    public static func stereo8SVX(left: [Int8], right: [Int8], rate: UInt16) -> Data {
        var body = Data()
        func chunk(_ id: String, _ bytes: [UInt8]) {
            body.append(contentsOf: Array(id.utf8) + big(UInt32(bytes.count)) + bytes)
            if bytes.count % 2 == 1 { body.append(0) }
        }
        chunk("VHDR", big(UInt32(left.count)) + big(UInt32(0)) + big(UInt32(0)) + big(rate) + [1, 0] + big(UInt32(0x1_0000)))
        chunk("CHAN", big(UInt32(6)))
        chunk("BODY", (left + right).map { UInt8(bitPattern: $0) })
        return Data(Array("FORM".utf8) + big(UInt32(4 + body.count)) + Array("8SVX".utf8)) + body
    }

    /// DSD's sample rate in DSF files of `dsf(_:)`: 64 times 44.1 kHz.
    public static let dsdRate = 2_822_400

    /// A mono DSF file holding `bits` (one-bit samples, eight to a byte, least significant
    /// first): the DSD, fmt and data chunks, the data padded to whole 4096-byte blocks as the
    /// format requires, the fmt chunk's sample count saying how many are audio.
    public static func dsf(_ bits: [UInt8]) -> Data {
        let blockSize = 4_096
        let blocks = (bits.count + blockSize - 1) / blockSize
        let dataChunk = 12 + blocks * blockSize
        var data = Data(Array("DSD ".utf8) + little(UInt64(28)) + little(UInt64(28 + 52 + dataChunk)) + little(UInt64(0)))
        data.append(contentsOf: Array("fmt ".utf8) + little(UInt64(52)) + little(UInt32(1)) + little(UInt32(0)) + little(UInt32(1))
                    + little(UInt32(1)) + little(UInt32(dsdRate)) + little(UInt32(1)) + little(UInt64(bits.count * 8))
                    + little(UInt32(blockSize)) + little(UInt32(0)))
        data.append(contentsOf: Array("data".utf8) + little(UInt64(dataChunk)) + bits)
        data.append(contentsOf: [UInt8](repeating: 0x69, count: blocks * blockSize - bits.count))
        return data
    }

    private static func little<Value: FixedWidthInteger>(_ value: Value) -> [UInt8] { withUnsafeBytes(of: value.littleEndian) { Array($0) } }
    private static func big<Value: FixedWidthInteger>(_ value: Value) -> [UInt8] { withUnsafeBytes(of: value.bigEndian) { Array($0) } }
}
