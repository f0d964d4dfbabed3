/// The two checksums of a FLAC frame: CRC-8 of its header and CRC-16 of the whole frame, both
/// MSB-first with no initial value or final XOR (polynomials x⁸+x²+x+1 and x¹⁶+x¹⁵+x²+1).
///
/// Renumbering a frame changes only its header, so the frame's CRC-16 is updated from the old
/// one without reading the rest again: the CRC is linear, and the header's part of it is the
/// header's own CRC times x^(8·rest) modulo the polynomial.
enum FLACChecksums {
    /// CRC-8 of `count` bytes at `bytes`.
    static func crc8(_ bytes: UnsafeRawPointer, count: Int) -> UInt8 {
        var crc: UInt8 = 0
        for index in 0..<count { crc = crc8Table[Int(crc ^ bytes.load(fromByteOffset: index, as: UInt8.self))] }
        return crc
    }

    /// CRC-16 of `count` bytes at `bytes`.
    static func crc16(_ bytes: UnsafeRawPointer, count: Int) -> UInt16 {
        var crc: UInt16 = 0
        for index in 0..<count {
            crc = (crc << 8) ^ crc16Table[Int((crc >> 8) ^ UInt16(bytes.load(fromByteOffset: index, as: UInt8.self)))]
        }
        return crc
    }

    /// The CRC-16 of a message whose first part's CRC-16 was `oldHead` and becomes `newHead`,
    /// `oldCRC` being the whole message's before and `tailLength` the bytes after the first part.
    static func crc16(replacingHead oldHead: UInt16, with newHead: UInt16, in oldCRC: UInt16, tailLength: Int) -> UInt16 {
        oldCRC ^ multiply(oldHead ^ newHead, xToThe8Times(tailLength))
    }

    /// x^(8·n) modulo the CRC-16 polynomial.
    private static func xToThe8Times(_ n: Int) -> UInt16 {
        var result: UInt16 = 1, base: UInt16 = 0x0100, exponent = n
        while exponent > 0 {
            if exponent & 1 != 0 { result = multiply(result, base) }
            base = multiply(base, base)
            exponent >>= 1
        }
        return result
    }

    /// The product of two polynomials of degree under 16, modulo the CRC-16 polynomial.
    private static func multiply(_ a: UInt16, _ b: UInt16) -> UInt16 {
        var product: UInt32 = 0
        for bit in 0..<16 where b & (1 << bit) != 0 { product ^= UInt32(a) << bit }
        for bit in stride(from: 30, through: 16, by: -1) where product & (1 << bit) != 0 { product ^= 0x18005 << (bit - 16) }
        return UInt16(product)
    }

    private static let crc8Table: [UInt8] = (0..<256).map { byte in
        var crc = UInt8(byte)
        for _ in 0..<8 { crc = crc & 0x80 != 0 ? (crc << 1) ^ 0x07 : crc << 1 }
        return crc
    }

    private static let crc16Table: [UInt16] = (0..<256).map { byte in
        var crc = UInt16(byte) << 8
        for _ in 0..<8 { crc = crc & 0x8000 != 0 ? (crc << 1) ^ 0x8005 : crc << 1 }
        return crc
    }
}
