/// Gives a FLAC frame of a fixed-block-size stream another frame number: how frames encoded as
/// separate streams become one.
///
/// The number is coded in the header as UTF-8 codes a character (1 to 6 bytes), so the header
/// can grow; the header's CRC-8 is computed again and the frame's CRC-16 updated. The rest of
/// the frame is copied as it is.
enum FrameRenumbering {
    /// The most a frame can grow: a 1-byte number becoming a 6-byte one.
    static let maximumGrowth = 5

    /// The largest frame number a header codes (31 bits).
    static let maximumFrameNumber = 0x7FFF_FFFF

    /// Writes `frame` (whole, as libFLAC wrote it) numbered `number` at `destination`, which has
    /// room for `frame.count + maximumGrowth` bytes; returns the bytes written.
    static func renumber(_ frame: UnsafeRawBufferPointer, as number: Int, into destination: UnsafeMutableRawPointer) -> Int {
        let source = frame.baseAddress!
        let oldNumberLength = codedLength(leadingByte: frame[4])
        // A block size coded 6 or 7, a sample rate coded 12 or 13 and 14, follow the number in 1 or 2 bytes.
        let blockCode = frame[2] >> 4, rateCode = frame[2] & 0x0F
        let extra = (blockCode == 6 ? 1 : blockCode == 7 ? 2 : 0) + (rateCode == 12 ? 1 : rateCode == 13 || rateCode == 14 ? 2 : 0)
        let oldHeaderLength = 4 + oldNumberLength + extra + 1
        let tailLength = frame.count - 2 - oldHeaderLength

        destination.copyMemory(from: source, byteCount: 4)
        let newNumberLength = code(number, into: destination + 4)
        (destination + 4 + newNumberLength).copyMemory(from: source + 4 + oldNumberLength, byteCount: extra)
        let newHeaderLength = 4 + newNumberLength + extra + 1
        destination.storeBytes(of: FLACChecksums.crc8(destination, count: newHeaderLength - 1), toByteOffset: newHeaderLength - 1, as: UInt8.self)
        (destination + newHeaderLength).copyMemory(from: source + oldHeaderLength, byteCount: tailLength)

        let oldCRC = UInt16(frame[frame.count - 2]) << 8 | UInt16(frame[frame.count - 1])
        let crc = FLACChecksums.crc16(replacingHead: FLACChecksums.crc16(source, count: oldHeaderLength),
                                      with: FLACChecksums.crc16(destination, count: newHeaderLength), in: oldCRC, tailLength: tailLength)
        let end = newHeaderLength + tailLength
        destination.storeBytes(of: UInt8(crc >> 8), toByteOffset: end, as: UInt8.self)
        destination.storeBytes(of: UInt8(crc & 0xFF), toByteOffset: end + 1, as: UInt8.self)
        return end + 2
    }

    /// The length of a coded number from its first byte: the count of its leading 1 bits, or 1.
    static func codedLength(leadingByte: UInt8) -> Int {
        leadingByte < 0x80 ? 1 : max(1, (~leadingByte).leadingZeroBitCount)
    }

    /// Codes `number` (at most 31 bits) at `destination` as UTF-8 codes a character; returns its length.
    static func code(_ number: Int, into destination: UnsafeMutableRawPointer) -> Int {
        precondition((0...maximumFrameNumber).contains(number), "frame number \(number) outside 31 bits")
        if number < 0x80 {
            destination.storeBytes(of: UInt8(number), as: UInt8.self)
            return 1
        }
        let length = number < 0x800 ? 2 : number < 0x1_0000 ? 3 : number < 0x20_0000 ? 4 : number < 0x400_0000 ? 5 : 6
        let lead = UInt8(truncatingIfNeeded: 0xFF00 >> length)
        destination.storeBytes(of: lead | UInt8(number >> (6 * (length - 1))), as: UInt8.self)
        for index in 1..<length {
            destination.storeBytes(of: 0x80 | UInt8((number >> (6 * (length - 1 - index))) & 0x3F), toByteOffset: index, as: UInt8.self)
        }
        return length
    }
}
